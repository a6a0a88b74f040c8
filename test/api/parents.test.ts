import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuditEvent, Parent, Student } from '../../src/models/index.js';
import { operatorPrincipal } from '../../src/services/access/guards.js';
import { resetParentPinById } from '../../src/services/parents/parents.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import {
  adminUser, bearer, expectError, parent, parentLogin, school, staffLogin, staffMember, student, uniquePhone, type SchoolFixture,
} from '../helpers/fixtures.js';

let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  b = await school(t);
});
afterAll(async () => t.close());

async function family(fixture: SchoolFixture, opts: { pin?: string } = {}) {
  const p = await parent(t.ctx, fixture.schoolId, { pin: opts.pin ?? '1357', father_name: 'Ravi Rao' });
  const first = await student(fixture.schoolId, p.id, { name: 'Asha Rao', grade: '5', phone_no: p.phone });
  const second = await student(fixture.schoolId, p.id, { name: 'Kiran Rao', grade: '2', phone_no: p.phone, status: 'archived' });
  return { ...p, first, second };
}

const login = (phone: string, pin: string, schoolId: string) => t.api.post('/parent-app/parent-auth-verification').send({ phone_no: phone, pin, school_id: schoolId });

describe('GET /web-app/parents/:id', () => {
  it('answers the parent with every child linked to them, archived ones with their status', async () => {
    const f = await family(a);
    const res = await t.api.get(`/web-app/parents/${f.id}`).set(bearer(a.adminToken));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id: f.id, father_name: 'Ravi Rao', mother_name: null, phone_no: f.phone, email: null, has_pin: true,
      children: [
        { id: f.first.id, student_full_name: 'Asha Rao', roll_no: f.first.roll_no, grade: '5', status: 'active' },
        { id: f.second.id, student_full_name: 'Kiran Rao', roll_no: f.second.roll_no, grade: '2', status: 'archived' },
      ],
    });
    await Parent.update({ pin_hash: null }, { where: { id: f.id } });
    expect((await t.api.get(`/web-app/parents/${f.id}`).set(bearer(a.adminToken))).body.data.has_pin).toBe(false);
  });

  it("is 404 for another school's parent and an unknown id, and for super_admin and admin only", async () => {
    const theirs = await family(b);
    expectError(await t.api.get(`/web-app/parents/${theirs.id}`).set(bearer(a.adminToken)), 404, 'NOT_FOUND');
    expectError(await t.api.get('/web-app/parents/999999').set(bearer(a.adminToken)), 404, 'NOT_FOUND');
    const mine = await family(a);
    expect((await t.api.get(`/web-app/parents/${mine.id}`).set(bearer((await adminUser(t, a.schoolId, 'admin')).token))).status).toBe(200);
    expectError(await t.api.get(`/web-app/parents/${mine.id}`).set(bearer((await adminUser(t, a.schoolId, 'it_contact')).token)), 403, 'FORBIDDEN');
    const s = await staffMember(a.schoolId, { rbac: { students: 'manage' } });
    expectError(await t.api.get(`/web-app/parents/${mine.id}`).set(bearer(await staffLogin(t, s.phone, s.pin, a.schoolId))), 403, 'FORBIDDEN');
    expectError(await t.api.get(`/web-app/parents/${mine.id}`).set(bearer(await parentLogin(t, mine.phone, mine.pin, a.schoolId))), 403, 'FORBIDDEN');
  });
});

describe('PUT /web-app/parents/:id', () => {
  it('changes the fields sent; a new phone is the children\'s too, and the PIN and sessions stay', async () => {
    const f = await family(a);
    const token = await parentLogin(t, f.phone, f.pin, a.schoolId);
    const phone = uniquePhone();
    const res = await t.api.put(`/web-app/parents/${f.id}`).set(bearer(a.adminToken)).send({ mother_name: 'Meena Rao', email: 'Meena@Example.com', phone_no: phone });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: f.id, father_name: 'Ravi Rao', mother_name: 'Meena Rao', email: 'meena@example.com', phone_no: phone, has_pin: true });
    expect((await Student.findAll({ where: { parent_id: f.id }, attributes: ['phone_no'], raw: true })).map((s) => s.phone_no)).toEqual([phone, phone]);
    expect((await t.api.get('/parent-app/student-detail').set(bearer(token))).status).toBe(200);
    expect((await login(phone, f.pin, a.schoolId)).status).toBe(200);
    expect((await login(f.phone, f.pin, a.schoolId)).status).toBe(401);
    const event = await AuditEvent.findOne({ where: { school_id: a.schoolId, action: 'parent.update', entity_id: String(f.id) }, order: [['id', 'DESC']], raw: true });
    expect(event).toMatchObject({ actor_type: 'admin', door: 'api' });
  });

  it("refuses a phone another parent of the school has with 409 naming phone_no, and changes nothing; another school's parent of that phone is no obstacle", async () => {
    const f = await family(a);
    const other = await parent(t.ctx, a.schoolId);
    const res = await t.api.put(`/web-app/parents/${f.id}`).set(bearer(a.adminToken)).send({ phone_no: other.phone, father_name: 'Changed' });
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.details).toEqual([{ field: 'phone_no', message: expect.any(String) }]);
    expect(await Parent.findByPk(f.id, { attributes: ['phone_no', 'father_name'], raw: true })).toEqual({ phone_no: f.phone, father_name: 'Ravi Rao' });
    const elsewhere = await parent(t.ctx, b.schoolId);
    expect((await t.api.put(`/web-app/parents/${f.id}`).set(bearer(a.adminToken)).send({ phone_no: elsewhere.phone })).status).toBe(200);
  });

  it('is 404 for an unknown or another school\'s parent before the body is judged, and 400 naming a bad field', async () => {
    const theirs = await family(b);
    for (const id of [theirs.id, 999_999]) {
      for (const sent of [{ email: 'not an e-mail' }, {}, { father_name: 'Mine now' }]) {
        expectError(await t.api.put(`/web-app/parents/${id}`).set(bearer(a.adminToken)).send(sent), 404, 'NOT_FOUND');
      }
    }
    expect((await Parent.findByPk(theirs.id))!.father_name).toBe('Ravi Rao');
    const mine = await family(a);
    const bad = await t.api.put(`/web-app/parents/${mine.id}`).set(bearer(a.adminToken)).send({ email: 'not an e-mail', phone_no: '12' });
    expectError(bad, 400, 'BAD_REQUEST');
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['email', 'phone_no']);
    expectError(await t.api.put(`/web-app/parents/${mine.id}`).set(bearer(a.adminToken)).send({}), 400, 'BAD_REQUEST');
    expectError(await t.api.put(`/web-app/parents/${mine.id}`).set(bearer(a.adminToken)).send({ school_id: b.schoolId, father_name: 'X' }), 403, 'FORBIDDEN');
  });
});

describe('POST /web-app/parents/:id/reset-pin', () => {
  it('sets the PIN, ends every session, lifts a lock-out on the phone and is recorded as pin.reset', async () => {
    const f = await family(a);
    const token = await parentLogin(t, f.phone, f.pin, a.schoolId);
    for (let i = 0; i < 5; i++) await login(f.phone, '0000', a.schoolId);
    expectError(await login(f.phone, f.pin, a.schoolId), 429, 'TOO_MANY_REQUESTS');
    const res = await t.api.post(`/web-app/parents/${f.id}/reset-pin`).set(bearer(a.adminToken)).send({ pin: '864213' });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({ parent_id: f.id });
    expectError(await t.api.get('/parent-app/student-detail').set(bearer(token)), 401, 'UNAUTHORIZED');
    expect((await login(f.phone, '864213', a.schoolId)).status).toBe(200);
    const event = await AuditEvent.findOne({ where: { school_id: a.schoolId, action: 'pin.reset', entity_type: 'parent', entity_id: String(f.id) }, raw: true });
    expect(event).toMatchObject({ actor_type: 'admin', door: 'api' });
    expect(JSON.stringify(event)).not.toContain('864213');
  });

  it("is 404 for another school's parent and 400 for a PIN that is not 4 to 8 digits", async () => {
    const theirs = await family(b);
    expectError(await t.api.post(`/web-app/parents/${theirs.id}/reset-pin`).set(bearer(a.adminToken)).send({ pin: '864213' }), 404, 'NOT_FOUND');
    expect((await login(theirs.phone, theirs.pin, b.schoolId)).status).toBe(200);
    // Before the body is judged.
    expectError(await t.api.post(`/web-app/parents/${theirs.id}/reset-pin`).set(bearer(a.adminToken)).send({ pin: 'x' }), 404, 'NOT_FOUND');
    expectError(await t.api.post('/web-app/parents/999999/reset-pin').set(bearer(a.adminToken)).send({}), 404, 'NOT_FOUND');
    const mine = await family(a);
    for (const pin of ['123', '123456789', 'abcd', undefined]) {
      expectError(await t.api.post(`/web-app/parents/${mine.id}/reset-pin`).set(bearer(a.adminToken)).send({ pin }), 400, 'BAD_REQUEST');
    }
  });

  it("through the console's service without a PIN, generates 6 digits and answers them once", async () => {
    const f = await family(a);
    const generated = await resetParentPinById(t.ctx, operatorPrincipal(a.schoolId), f.id);
    expect(generated).toEqual({ parent_id: f.id, pin: expect.stringMatching(/^\d{6}$/) });
    expect((await login(f.phone, generated.pin!, a.schoolId)).status).toBe(200);
    expect(await resetParentPinById(t.ctx, operatorPrincipal(a.schoolId), f.id, '2468')).toEqual({ parent_id: f.id });
    await expect(resetParentPinById(t.ctx, operatorPrincipal(a.schoolId), f.id, '12')).rejects.toMatchObject({ status: 400 });
    await expect(resetParentPinById(t.ctx, operatorPrincipal(b.schoolId), f.id)).rejects.toMatchObject({ status: 404 });
  });
});
