import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Designation, Staff } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { adminUser, bearer, expectError, school, staffLogin, staffMember, uniquePhone, type SchoolFixture } from '../helpers/fixtures.js';

let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;
let admin: { token: string };
let itContact: { token: string };

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  b = await school(t);
  admin = await adminUser(t, a.schoolId, 'admin');
  itContact = await adminUser(t, a.schoolId, 'it_contact');
});
afterAll(async () => t.close());

const post = (token: string, body: Record<string, unknown>) => t.api.post('/web-app/designations').set(bearer(token)).send(body);

async function designationId(fixture: SchoolFixture, name: string): Promise<number> {
  const res = await t.api.get('/web-app/designations').set(bearer(fixture.adminToken));
  return res.body.data.find((d: { name: string }) => d.name === name).id as number;
}

describe('reading designations', () => {
  it("lists the school's seeded designations with their rbac to any admin role", async () => {
    for (const token of [a.adminToken, admin.token, itContact.token]) {
      const res = await t.api.get('/web-app/designations').set(bearer(token));
      expect(res.status).toBe(200);
      expect(res.body.data.map((d: { name: string }) => d.name)).toEqual(['Class Teacher', 'Office Staff', 'Principal', 'Subject Teacher']);
    }
    const res = await t.api.get('/web-app/designations').set(bearer(a.adminToken));
    const teacher = res.body.data.find((d: { name: string }) => d.name === 'Class Teacher');
    expect(teacher).toMatchObject({ id: expect.any(Number), rbac: { attendance: 'manage', diary: 'create' } });
    const one = await t.api.get(`/web-app/designations/${teacher.id}`).set(bearer(admin.token));
    expect(one.body.data).toMatchObject({ id: teacher.id, name: 'Class Teacher', rbac: teacher.rbac });
  });

  it('refuses a staff token with 403', async () => {
    const s = await staffMember(a.schoolId);
    const token = await staffLogin(t, s.phone, s.pin, a.schoolId);
    expectError(await t.api.get('/web-app/designations').set(bearer(token)), 403, 'FORBIDDEN');
  });

  it("answers 404 for another school's designation", async () => {
    const theirs = await designationId(b, 'Principal');
    expectError(await t.api.get(`/web-app/designations/${theirs}`).set(bearer(a.adminToken)), 404, 'NOT_FOUND');
    expectError(await t.api.put(`/web-app/designations/${theirs}`).set(bearer(a.adminToken)).send({ name: 'Mine now' }), 404, 'NOT_FOUND');
    expectError(await t.api.delete(`/web-app/designations/${theirs}`).set(bearer(a.adminToken)), 404, 'NOT_FOUND');
    expect((await Designation.findByPk(theirs))!.name).toBe('Principal');
  });
});

describe('writing designations (super_admin only)', () => {
  it('refuses an admin and an it_contact with 403 and changes nothing', async () => {
    const id = await designationId(a, 'Office Staff');
    for (const token of [admin.token, itContact.token]) {
      expectError(await post(token, { name: 'Librarian', rbac: { students: 'view' } }), 403, 'FORBIDDEN');
      expectError(await t.api.put(`/web-app/designations/${id}`).set(bearer(token)).send({ rbac: { students: 'none' } }), 403, 'FORBIDDEN');
      expectError(await t.api.delete(`/web-app/designations/${id}`).set(bearer(token)), 403, 'FORBIDDEN');
    }
    expect(await Designation.count({ where: { school_id: a.schoolId, name: 'Librarian' } })).toBe(0);
    expect((await Designation.findByPk(id))!.rbac.students).toBe('manage');
  });

  it('creates a designation with its rbac; the name is unique in the school regardless of case', async () => {
    const res = await post(a.adminToken, { name: 'Sports Coach', rbac: { activities: 'create', attendance: 'view' } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ id: expect.any(Number), name: 'Sports Coach', rbac: { activities: 'create', attendance: 'view' } });
    expectError(await post(a.adminToken, { name: 'Sports Coach' }), 409, 'CONFLICT');
    expectError(await post(a.adminToken, { name: 'sports COACH' }), 409, 'CONFLICT');
    expect((await post(b.adminToken, { name: 'Sports Coach' })).status).toBe(201);
  });

  it('refuses unknown features and levels, and a missing name, with 400', async () => {
    const feature = await post(a.adminToken, { name: 'Librarian', rbac: { library: 'view' } });
    expectError(feature, 400, 'BAD_REQUEST');
    expect(feature.body.error.details[0].field).toBe('rbac');
    const level = await post(a.adminToken, { name: 'Librarian', rbac: { students: 'everything' } });
    expectError(level, 400, 'BAD_REQUEST');
    expect(level.body.error.details[0].field).toBe('rbac.students');
    expectError(await post(a.adminToken, { rbac: { students: 'view' } }), 400, 'BAD_REQUEST');
    const id = await designationId(a, 'Subject Teacher');
    expectError(await t.api.put(`/web-app/designations/${id}`).set(bearer(a.adminToken)).send({ rbac: { diary: 'owner' } }), 400, 'BAD_REQUEST');
    expectError(await t.api.put(`/web-app/designations/${id}`).set(bearer(a.adminToken)).send({}), 400, 'BAD_REQUEST');
    expect(await Designation.count({ where: { school_id: a.schoolId, name: 'Librarian' } })).toBe(0);
  });

  it("changes what its staff may do from their next login", async () => {
    const created = await post(a.adminToken, { name: 'Lab Assistant', rbac: { students: 'view' } });
    const s = await staffMember(a.schoolId, { designation: 'Lab Assistant', rbac: { diary: 'view' } });
    const update = await t.api.put(`/web-app/designations/${created.body.data.id}`).set(bearer(a.adminToken)).send({ rbac: { students: 'manage', attendance: 'create' } });
    expect(update.status).toBe(200);
    const login = await t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: s.phone, pin: s.pin, school_id: a.schoolId });
    expect(login.body.data.staff.rbac).toEqual({ activities: 'none', noticeboard: 'none', students: 'manage', write_to: 'none', attendance: 'create', diary: 'view' });
  });

  it('carries its staff along when renamed, so they keep its permissions', async () => {
    const created = await post(a.adminToken, { name: 'Counsellor', rbac: { write_to: 'manage' } });
    const holder = await staffMember(a.schoolId, { designation: 'Counsellor' });
    const other = await staffMember(a.schoolId, { designation: 'Principal' });
    const res = await t.api.put(`/web-app/designations/${created.body.data.id}`).set(bearer(a.adminToken)).send({ name: 'Student Counsellor' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'Student Counsellor', rbac: { write_to: 'manage' } });
    expect((await Staff.findByPk(holder.id))!.designation).toBe('Student Counsellor');
    expect((await Staff.findByPk(other.id))!.designation).toBe('Principal');
    const login = await t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: holder.phone, pin: holder.pin, school_id: a.schoolId });
    expect(login.body.data.staff).toMatchObject({ designation: 'Student Counsellor', rbac: { write_to: 'manage' } });
    expectError(await t.api.put(`/web-app/designations/${created.body.data.id}`).set(bearer(a.adminToken)).send({ name: 'principal' }), 409, 'CONFLICT');
    expect((await Staff.findByPk(holder.id))!.designation).toBe('Student Counsellor');
  });

  it('takes names with dollar signs, and carries their staff through a rename', async () => {
    const created = await post(a.adminToken, { name: 'Head ($fees) $1', rbac: { students: 'view' } });
    expect(created.status).toBe(201);
    const staff = await t.api.post('/web-app/staff').set(bearer(a.adminToken)).send({ name: 'Bursar', designation: 'head ($FEES) $1', phone_no: uniquePhone() });
    expect(staff.status).toBe(201);
    expect((await Staff.findByPk(staff.body.data.id))!.designation).toBe('Head ($fees) $1');
    const renamed = await t.api.put(`/web-app/designations/${created.body.data.id}`).set(bearer(a.adminToken)).send({ name: '𝆹𝅥𝅯$_ Bursar' });
    expect(renamed.status).toBe(200);
    expect((await Staff.findByPk(staff.body.data.id))!.designation).toBe('𝆹𝅥𝅯$_ Bursar');
  });

  it("leaves another school's staff of the same designation name alone on a rename", async () => {
    const mine = await post(a.adminToken, { name: 'Driver' });
    await post(b.adminToken, { name: 'Driver' });
    const theirs = await staffMember(b.schoolId, { designation: 'Driver', phone: uniquePhone() });
    expect((await t.api.put(`/web-app/designations/${mine.body.data.id}`).set(bearer(a.adminToken)).send({ name: 'Bus Driver' })).status).toBe(200);
    expect((await Staff.findByPk(theirs.id))!.designation).toBe('Driver');
  });

  it('refuses to delete a designation that staff hold (409), and deletes one that none holds', async () => {
    const held = await post(a.adminToken, { name: 'Warden' });
    const s = await staffMember(a.schoolId, { designation: 'Warden', status: 0 });
    expectError(await t.api.delete(`/web-app/designations/${held.body.data.id}`).set(bearer(a.adminToken)), 409, 'CONFLICT');
    expect(await Designation.count({ where: { id: held.body.data.id } })).toBe(1);
    await Staff.update({ designation: 'Principal' }, { where: { id: s.id } });
    const res = await t.api.delete(`/web-app/designations/${held.body.data.id}`).set(bearer(a.adminToken));
    expect(res.status).toBe(200);
    expect(typeof res.body.message).toBe('string');
    expectError(await t.api.get(`/web-app/designations/${held.body.data.id}`).set(bearer(a.adminToken)), 404, 'NOT_FOUND');
  });
});
