import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Address, Session, Staff, StaffStudent } from '../../src/models/index.js';
import { operatorPrincipal } from '../../src/services/access/guards.js';
import { assignedStudentIds } from '../../src/services/access/scope.js';
import { createStaff, getStaff, listStaff } from '../../src/services/staff/staff.js';
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

let n = 0;
const newStaff = (overrides: Record<string, unknown> = {}) => {
  n += 1;
  return { name: `Teacher ${n}`, designation: 'Class Teacher', phone_no: uniquePhone(), email: `teacher${n}@staff.example`, ...overrides };
};

async function create(fixture: SchoolFixture, body: Record<string, unknown>): Promise<number> {
  const res = await t.api.post('/web-app/staff').set(bearer(fixture.adminToken)).send(body);
  expect(res.status).toBe(201);
  return res.body.data.id as number;
}

const detail = async (fixture: SchoolFixture, id: number) => {
  const res = await t.api.get(`/web-app/staff/${id}`).set(bearer(fixture.adminToken));
  expect(res.status).toBe(200);
  return res.body.data;
};

describe('who may use /web-app/staff', () => {
  it('refuses a staff token, a parent token and an it_contact with 403, and no token with 401', async () => {
    const s = await staffMember(a.schoolId);
    const staffToken = await staffLogin(t, s.phone, s.pin, a.schoolId);
    expectError(await t.api.get('/web-app/staff').query({ school_id: a.schoolId }).set(bearer(staffToken)), 403, 'FORBIDDEN');
    expectError(await t.api.post('/web-app/staff').set(bearer(staffToken)).send(newStaff()), 403, 'FORBIDDEN');
    const p = await parent(t.ctx, a.schoolId);
    const parentToken = await parentLogin(t, p.phone, p.pin, a.schoolId);
    expectError(await t.api.get('/web-app/staff').query({ school_id: a.schoolId }).set(bearer(parentToken)), 403, 'FORBIDDEN');
    const it_contact = await adminUser(t, a.schoolId, 'it_contact');
    expectError(await t.api.get('/web-app/staff').query({ school_id: a.schoolId }).set(bearer(it_contact.token)), 403, 'FORBIDDEN');
    expectError(await t.api.post(`/web-app/staff/${s.id}/archive`).set(bearer(it_contact.token)), 403, 'FORBIDDEN');
    expectError(await t.api.get('/web-app/staff').query({ school_id: a.schoolId }), 401, 'UNAUTHORIZED');
    expect((await Staff.findByPk(s.id))!.status).toBe(1);
  });

  it('lets an admin (not only the super_admin) manage staff', async () => {
    const admin = await adminUser(t, a.schoolId, 'admin');
    const res = await t.api.post('/web-app/staff').set(bearer(admin.token)).send(newStaff());
    expect(res.status).toBe(201);
    const list = await t.api.get('/web-app/staff').query({ school_id: a.schoolId }).set(bearer(admin.token));
    expect(list.status).toBe(200);
    expect(list.body.data.map((r: { id: number }) => r.id)).toContain(res.body.data.id);
  });

  it('needs the token\'s school_id on the list: 400 without it, 403 for another school', async () => {
    const missing = await t.api.get('/web-app/staff').set(bearer(a.adminToken));
    expectError(missing, 400, 'BAD_REQUEST');
    expect(missing.body.error.details.map((d: { field: string }) => d.field)).toContain('school_id');
    expectError(await t.api.get('/web-app/staff').query({ school_id: b.schoolId }).set(bearer(a.adminToken)), 403, 'FORBIDDEN');
  });
});

describe('creating and reading staff', () => {
  it('creates a staff member with addresses and answers their record without any secret', async () => {
    const body = newStaff({
      name: 'Anita Desai', email: 'Anita.Desai@Greenwood.example', pin: '4321', rbac: { attendance: 'none', noticeboard: 'create' },
      addresses: [{ address_type: 'current', address: '4 Hill Rd', city: 'Pune', pincode: 411002 }],
    });
    const res = await t.api.post('/web-app/staff').set(bearer(a.adminToken)).send(body);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, data: { id: expect.any(Number) } });
    const data = await detail(a, res.body.data.id);
    expect(data).toMatchObject({
      id: res.body.data.id, name: 'Anita Desai', designation: 'Class Teacher', phone_no: body.phone_no, email: 'anita.desai@greenwood.example',
      status: 'active', school_id: a.schoolId, rbac: { attendance: 'none', noticeboard: 'create' },
      effective_rbac: { activities: 'create', noticeboard: 'create', students: 'view', write_to: 'create', attendance: 'none', diary: 'create' },
      addresses: [{ address_type: 'current', address: '4 Hill Rd', city: 'Pune', pincode: 411002 }],
      student_ids: [],
    });
    expect(new Date(data.created_at).toISOString()).toBe(data.created_at);
    expect(JSON.stringify(data)).not.toMatch(/pin_hash|\$2[aby]\$/);
  });

  it('returns the effective rbac (designation overlaid with their own) at the staff login', async () => {
    const body = newStaff({ designation: 'Subject Teacher', pin: '2468', rbac: { diary: 'manage', write_to: 'none' } });
    await create(a, body);
    const login = await t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: body.phone_no, pin: '2468', school_id: a.schoolId });
    expect(login.status).toBe(200);
    expect(login.body.data.staff).toMatchObject({ designation: 'Subject Teacher', school_id: a.schoolId });
    expect(login.body.data.staff.rbac).toEqual({ activities: 'create', noticeboard: 'view', students: 'view', write_to: 'none', attendance: 'view', diary: 'manage' });
  });

  it('stores a designation named in another case with its exact spelling, so its rbac applies', async () => {
    const id = await create(a, newStaff({ designation: 'office staff' }));
    const data = await detail(a, id);
    expect(data.designation).toBe('Office Staff');
    expect(data.effective_rbac.noticeboard).toBe('create');
  });

  it('answers 409 for a phone or an email already used in the school, and allows the same phone in another school', async () => {
    const first = newStaff();
    await create(a, first);
    const phone = await t.api.post('/web-app/staff').set(bearer(a.adminToken)).send(newStaff({ phone_no: first.phone_no }));
    expectError(phone, 409, 'CONFLICT');
    expect(phone.body.error.details).toEqual([{ field: 'phone_no', message: 'already exists' }]);
    const mail = await t.api.post('/web-app/staff').set(bearer(a.adminToken)).send(newStaff({ email: first.email.toUpperCase() }));
    expectError(mail, 409, 'CONFLICT');
    expect(mail.body.error.details).toEqual([{ field: 'email', message: 'already exists' }]);
    const elsewhere = await t.api.post('/web-app/staff').set(bearer(b.adminToken)).send({ ...first });
    expect(elsewhere.status).toBe(201);
  });

  it('lets only one of two concurrent creations with the same phone succeed', async () => {
    const phone = uniquePhone();
    const results = await Promise.all([1, 2].map(() => t.api.post('/web-app/staff').set(bearer(a.adminToken)).send(newStaff({ phone_no: phone }))));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await Staff.count({ where: { school_id: a.schoolId, phone_no: phone } })).toBe(1);
  });

  it('refuses unknown rbac features and levels, and malformed fields, with 400 naming the field', async () => {
    const feature = await t.api.post('/web-app/staff').set(bearer(a.adminToken)).send(newStaff({ rbac: { library: 'view' } }));
    expectError(feature, 400, 'BAD_REQUEST');
    expect(feature.body.error.details[0].field).toBe('rbac');
    const level = await t.api.post('/web-app/staff').set(bearer(a.adminToken)).send(newStaff({ rbac: { diary: 'admin' } }));
    expectError(level, 400, 'BAD_REQUEST');
    expect(level.body.error.details[0].field).toBe('rbac.diary');
    const bad = await t.api.post('/web-app/staff').set(bearer(a.adminToken)).send({ name: '', phone_no: 'call me', email: 'nope', pin: '12', addresses: [{ city: 'Pune' }] });
    expectError(bad, 400, 'BAD_REQUEST');
    expect(bad.body.error.details.map((d: { field: string }) => d.field)).toEqual(expect.arrayContaining(['name', 'phone_no', 'email', 'pin', 'addresses.0.address']));
    const update = await t.api.put(`/web-app/staff/${await create(a, newStaff())}`).set(bearer(a.adminToken)).send({ rbac: { diary: 'everything' } });
    expectError(update, 400, 'BAD_REQUEST');
  });

  it('creates nothing when an address fails to save', async () => {
    const body = newStaff({ addresses: [{ address: 'x'.repeat(501) }] });
    expectError(await t.api.post('/web-app/staff').set(bearer(a.adminToken)).send(body), 400, 'BAD_REQUEST');
    expect(await Staff.count({ where: { school_id: a.schoolId, phone_no: body.phone_no } })).toBe(0);
  });

  it('lets a staff member created without a PIN log in only after reset-pin', async () => {
    const body = newStaff();
    const id = await create(a, body);
    const refused = await t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: body.phone_no, pin: '0000', school_id: a.schoolId });
    expectError(refused, 401, 'UNAUTHORIZED');
    expect((await t.api.post(`/web-app/staff/${id}/reset-pin`).set(bearer(a.adminToken)).send({ pin: '7788' })).status).toBe(201);
    await staffLogin(t, body.phone_no, '7788', a.schoolId);
  });

  it("answers 404 for another school's staff member on every route, and changes nothing", async () => {
    const other = await staffMember(b.schoolId);
    const s = await student(a.schoolId, null);
    const admin = bearer(a.adminToken);
    expectError(await t.api.get(`/web-app/staff/${other.id}`).set(admin), 404, 'NOT_FOUND');
    expectError(await t.api.put(`/web-app/staff/${other.id}`).set(admin).send({ name: 'Taken over' }), 404, 'NOT_FOUND');
    expectError(await t.api.post(`/web-app/staff/${other.id}/archive`).set(admin), 404, 'NOT_FOUND');
    expectError(await t.api.post(`/web-app/staff/${other.id}/reset-pin`).set(admin).send({ pin: '1111' }), 404, 'NOT_FOUND');
    expectError(await t.api.post(`/web-app/staff/${other.id}/assign-students`).set(admin).send({ student_ids: [s.id] }), 404, 'NOT_FOUND');
    expectError(await t.api.get('/web-app/staff/999999').set(admin), 404, 'NOT_FOUND');
    expectError(await t.api.get('/web-app/staff/abc').set(admin), 400, 'BAD_REQUEST');
    const row = (await Staff.findByPk(other.id))!;
    expect({ name: row.name, status: row.status }).toEqual({ name: 'Teacher', status: 1 });
    await staffLogin(t, other.phone, other.pin, b.schoolId);
  });

  it('works for the operator from the console or the command line, scoped to the school given', async () => {
    const operator = operatorPrincipal(b.schoolId);
    const { id } = await createStaff(t.ctx, operator, { name: 'Operator Made', phone_no: uniquePhone() });
    expect((await getStaff(t.ctx, operator, id)).status).toBe('active');
    await expect(getStaff(t.ctx, operatorPrincipal(a.schoolId), id)).rejects.toMatchObject({ status: 404 });
    await expect(createStaff(t.ctx, operator, { name: 'Bad', phone_no: 'x', rbac: { diary: 'root' } as never })).rejects.toMatchObject({ status: 400 });
    const page = await listStaff(t.ctx, operator, { search: 'operator made', page: 1, limit: 10 });
    expect(page.staff.map((r) => r.id)).toEqual([id]);
    expect(page.pagination).toMatchObject({ total: 1, page: 1 });
  });
});

describe('listing staff', () => {
  let c: SchoolFixture;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    c = await school(t);
    for (const [key, name, phone] of [['zara', 'Zara Khan', '9000011111'], ['amit', 'Amit Shah', '9000022222'], ['anu', 'anu Rao', '9000033333'], ['old', 'Olga Old', '9000044444']]) {
      ids[key] = await create(c, newStaff({ name, phone_no: phone }));
    }
    expect((await t.api.post(`/web-app/staff/${ids.old}/archive`).set(bearer(c.adminToken))).status).toBe(201);
    await create(b, newStaff({ name: 'Amit Elsewhere', phone_no: '9000022222' }));
  });
  const list = (query: Record<string, unknown>) => t.api.get('/web-app/staff').query({ school_id: c.schoolId, ...query }).set(bearer(c.adminToken));

  it('lists active staff by name by default, as {id, name, designation, phone_no, email, status} rows', async () => {
    const res = await list({});
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { id: number }) => r.id)).toEqual([ids.amit, ids.anu, ids.zara]);
    expect(Object.keys(res.body.data[0]).sort()).toEqual(['designation', 'email', 'id', 'name', 'phone_no', 'status']);
    expect(res.body.data[0]).toMatchObject({ name: 'Amit Shah', designation: 'Class Teacher', phone_no: '9000022222', status: 'active' });
    expect(res.headers['x-total-count']).toBe('3');
  });

  it('filters by status archived or all', async () => {
    const archived = await list({ status: 'archived' });
    expect(archived.body.data.map((r: { id: number; status: string }) => [r.id, r.status])).toEqual([[ids.old, 'archived']]);
    expect((await list({ status: 'all' })).body.data).toHaveLength(4);
    expectError(await list({ status: 'retired' }), 400, 'BAD_REQUEST');
  });

  it('searches the name or the phone without case, only within the school', async () => {
    expect((await list({ search: 'AMIT' })).body.data.map((r: { id: number }) => r.id)).toEqual([ids.amit]);
    expect((await list({ search: 'An' })).body.data.map((r: { id: number }) => r.id)).toEqual([ids.anu, ids.zara]);
    expect((await list({ search: '33333' })).body.data.map((r: { id: number }) => r.id)).toEqual([ids.anu]);
    expect((await list({ search: '90000 22222' })).body.data.map((r: { id: number }) => r.id)).toEqual([ids.amit]);
    expect((await list({ search: 'olga' })).body.data).toEqual([]);
    expect((await list({ search: 'olga', status: 'all' })).body.data.map((r: { id: number }) => r.id)).toEqual([ids.old]);
    expect((await list({ search: '%' })).body.data).toEqual([]);
  });

  it('pages with page and limit, and refuses a limit above 100', async () => {
    const first = await list({ limit: 2 });
    const second = await list({ limit: 2, page: 2 });
    expect(first.body.data.map((r: { id: number }) => r.id)).toEqual([ids.amit, ids.anu]);
    expect(second.body.data.map((r: { id: number }) => r.id)).toEqual([ids.zara]);
    expect(second.headers['x-total-count']).toBe('3');
    expectError(await list({ limit: 101 }), 400, 'BAD_REQUEST');
    expectError(await list({ page: 0 }), 400, 'BAD_REQUEST');
  });
});

describe('updating staff', () => {
  it('changes the fields sent, replaces addresses and the own rbac', async () => {
    const id = await create(a, newStaff({ rbac: { diary: 'manage' }, addresses: [{ address: 'Old Rd', city: 'Pune', pincode: 411001 }] }));
    const res = await t.api.put(`/web-app/staff/${id}`).set(bearer(a.adminToken)).send({
      designation: 'Principal', email: 'New.Mail@Staff.example', rbac: { students: 'none' }, addresses: [{ address: 'New Rd', city: 'Mumbai', pincode: 400001 }],
    });
    expect(res.status).toBe(200);
    expect(typeof res.body.message).toBe('string');
    const data = await detail(a, id);
    expect(data).toMatchObject({ designation: 'Principal', email: 'new.mail@staff.example', rbac: { students: 'none' } });
    expect(data.effective_rbac).toMatchObject({ diary: 'manage', students: 'none', write_to: 'manage' });
    expect(data.addresses).toEqual([expect.objectContaining({ address: 'New Rd', city: 'Mumbai', pincode: 400001 })]);
    expect(await Address.count({ where: { school_id: a.schoolId, owner_type: 'staff', owner_id: id } })).toBe(1);
  });

  it('answers 409 for a phone taken by a colleague, and 400 for an empty change', async () => {
    const taken = newStaff();
    await create(a, taken);
    const id = await create(a, newStaff());
    expectError(await t.api.put(`/web-app/staff/${id}`).set(bearer(a.adminToken)).send({ phone_no: taken.phone_no }), 409, 'CONFLICT');
    expectError(await t.api.put(`/web-app/staff/${id}`).set(bearer(a.adminToken)).send({}), 400, 'BAD_REQUEST');
  });

  it('ends the sessions of a staff member archived through PUT status', async () => {
    const s = await staffMember(a.schoolId);
    const token = await staffLogin(t, s.phone, s.pin, a.schoolId);
    expect((await t.api.put(`/web-app/staff/${s.id}`).set(bearer(a.adminToken)).send({ status: 'archived' })).status).toBe(200);
    expectError(await t.api.get('/teachers-app/sessions').set(bearer(token)), 403, 'FORBIDDEN');
    expect(await Session.count({ where: { user_type: 'staff', user_id: s.id, active: true } })).toBe(0);
  });
});

describe('archive and restore', () => {
  it("refuses an archived teacher's unexpired token on its next call, and lets them back in once restored", async () => {
    const s = await staffMember(a.schoolId);
    const token = await staffLogin(t, s.phone, s.pin, a.schoolId);
    expect((await t.api.get('/teachers-app/sessions').set(bearer(token))).status).toBe(200);

    const archived = await t.api.post(`/web-app/staff/${s.id}/archive`).set(bearer(a.adminToken));
    expect(archived.status).toBe(201);
    expect(archived.body).toMatchObject({ success: true, message: expect.stringMatching(/archived/i), data: { status: 'archived' } });
    expectError(await t.api.get('/teachers-app/sessions').set(bearer(token)), 403, 'FORBIDDEN');
    expect(await Session.count({ where: { user_type: 'staff', user_id: s.id, active: true } })).toBe(0);
    expect((await Staff.findByPk(s.id))!.status).toBe(0);
    expectError(await t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: s.phone, pin: s.pin, school_id: a.schoolId }), 403, 'FORBIDDEN');
    expect((await detail(a, s.id)).status).toBe('archived');

    const restored = await t.api.post(`/web-app/staff/${s.id}/archive`).set(bearer(a.adminToken));
    expect(restored.status).toBe(201);
    expect(restored.body).toMatchObject({ message: expect.stringMatching(/restored/i), data: { status: 'active' } });
    expect((await Staff.findByPk(s.id))!.status).toBe(1);
    expectError(await t.api.get('/teachers-app/sessions').set(bearer(token)), 401, 'UNAUTHORIZED');
    const fresh = await staffLogin(t, s.phone, s.pin, a.schoolId);
    expect((await t.api.get('/teachers-app/sessions').set(bearer(fresh))).status).toBe(200);
  });
});

describe('reset-pin', () => {
  it('ends every session, refuses the old PIN and accepts the new one', async () => {
    const s = await staffMember(a.schoolId, { pin: '1357' });
    const first = await staffLogin(t, s.phone, '1357', a.schoolId);
    const second = await staffLogin(t, s.phone, '1357', a.schoolId);
    const res = await t.api.post(`/web-app/staff/${s.id}/reset-pin`).set(bearer(a.adminToken)).send({ pin: '97531' });
    expect(res.status).toBe(201);
    expect(typeof res.body.message).toBe('string');
    expectError(await t.api.get('/teachers-app/sessions').set(bearer(first)), 401, 'UNAUTHORIZED');
    expectError(await t.api.get('/teachers-app/sessions').set(bearer(second)), 401, 'UNAUTHORIZED');
    expectError(await t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: s.phone, pin: '1357', school_id: a.schoolId }), 401, 'UNAUTHORIZED');
    const fresh = await staffLogin(t, s.phone, '97531', a.schoolId);
    expect((await t.api.get('/teachers-app/sessions').set(bearer(fresh))).status).toBe(200);
  });

  it('lifts a login lock-out on that phone', async () => {
    const s = await staffMember(a.schoolId, { pin: '2222' });
    for (let i = 0; i < 5; i++) await t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: s.phone, pin: '9999', school_id: a.schoolId });
    expect((await t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: s.phone, pin: '2222', school_id: a.schoolId })).status).toBe(429);
    expect((await t.api.post(`/web-app/staff/${s.id}/reset-pin`).set(bearer(a.adminToken)).send({ pin: '3333' })).status).toBe(201);
    await staffLogin(t, s.phone, '3333', a.schoolId);
  });

  it('refuses a PIN that is not 4 to 8 digits, and keeps the old one', async () => {
    const s = await staffMember(a.schoolId, { pin: '4444' });
    for (const pin of ['12', '123456789', 'abcd', '']) {
      expectError(await t.api.post(`/web-app/staff/${s.id}/reset-pin`).set(bearer(a.adminToken)).send({ pin }), 400, 'BAD_REQUEST');
    }
    expectError(await t.api.post(`/web-app/staff/${s.id}/reset-pin`).set(bearer(a.adminToken)).send({}), 400, 'BAD_REQUEST');
    await staffLogin(t, s.phone, '4444', a.schoolId);
  });
});

describe('assigning students', () => {
  it('assigns students, harmlessly twice, and the assignment is what scope checks read', async () => {
    const s = await staffMember(a.schoolId);
    const [x, y] = [await student(a.schoolId, null), await student(a.schoolId, null)];
    const res = await t.api.post(`/web-app/staff/${s.id}/assign-students`).set(bearer(a.adminToken)).send({ student_ids: [x.id, y.id] });
    expect(res.status).toBe(201);
    expect(typeof res.body.message).toBe('string');
    expect(res.body.data.student_ids).toEqual([x.id, y.id].sort((p, q) => p - q));
    const again = await t.api.post(`/web-app/staff/${s.id}/assign-students`).set(bearer(a.adminToken)).send({ student_ids: [x.id, x.id] });
    expect(again.status).toBe(201);
    expect(await StaffStudent.count({ where: { school_id: a.schoolId, staff_id: s.id } })).toBe(2);
    expect((await assignedStudentIds(a.schoolId, s.id)).sort()).toEqual([x.id, y.id].sort());
    expect((await detail(a, s.id)).student_ids).toEqual([x.id, y.id].sort((p, q) => p - q));
  });

  it("fails the whole request with 404 for another school's student, changing nothing", async () => {
    const s = await staffMember(a.schoolId);
    const mine = await student(a.schoolId, null);
    const kept = await student(a.schoolId, null);
    const theirs = await student(b.schoolId, null);
    await t.api.post(`/web-app/staff/${s.id}/assign-students`).set(bearer(a.adminToken)).send({ student_ids: [kept.id] });
    const res = await t.api.post(`/web-app/staff/${s.id}/assign-students`).set(bearer(a.adminToken)).send({ student_ids: [mine.id, theirs.id] });
    expectError(res, 404, 'NOT_FOUND');
    expect(await assignedStudentIds(a.schoolId, s.id)).toEqual([kept.id]);
    expect(await StaffStudent.count({ where: { student_id: theirs.id } })).toBe(0);
    const unassign = await t.api.post(`/web-app/staff/${s.id}/unassign-students`).set(bearer(a.adminToken)).send({ student_ids: [kept.id, theirs.id] });
    expectError(unassign, 404, 'NOT_FOUND');
    expect(await assignedStudentIds(a.schoolId, s.id)).toEqual([kept.id]);
  });

  it('unassigns students, harmlessly for one not assigned', async () => {
    const s = await staffMember(a.schoolId);
    const [x, y, z] = [await student(a.schoolId, null), await student(a.schoolId, null), await student(a.schoolId, null)];
    await t.api.post(`/web-app/staff/${s.id}/assign-students`).set(bearer(a.adminToken)).send({ student_ids: [x.id, y.id] });
    const res = await t.api.post(`/web-app/staff/${s.id}/unassign-students`).set(bearer(a.adminToken)).send({ student_ids: [x.id, z.id] });
    expect(res.status).toBe(201);
    expect(res.body.data.student_ids).toEqual([y.id]);
    expect(await assignedStudentIds(a.schoolId, s.id)).toEqual([y.id]);
  });

  it('refuses an empty or malformed student_ids with 400', async () => {
    const s = await staffMember(a.schoolId);
    for (const student_ids of [[], ['abc'], [0], 'all']) {
      expectError(await t.api.post(`/web-app/staff/${s.id}/assign-students`).set(bearer(a.adminToken)).send({ student_ids }), 400, 'BAD_REQUEST');
    }
    expectError(await t.api.post(`/web-app/staff/${s.id}/assign-students`).set(bearer(a.adminToken)).send({}), 400, 'BAD_REQUEST');
  });
});

describe('API reference', () => {
  it('documents every staff and designation route', async () => {
    const doc = await t.api.get('/openapi.json');
    const paths = doc.body.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
    for (const p of ['/web-app/staff', '/web-app/staff/{id}', '/web-app/staff/{id}/assign-students', '/web-app/staff/{id}/unassign-students',
      '/web-app/staff/{id}/reset-pin', '/web-app/staff/{id}/archive', '/web-app/designations', '/web-app/designations/{id}']) {
      expect(paths[p]).toBeDefined();
    }
    expect(Object.keys(paths['/web-app/staff'].post.responses)).toEqual(expect.arrayContaining(['201', '400', '403', '409']));
    expect(Object.keys(paths['/web-app/staff/{id}/archive'].post.responses)).toEqual(expect.arrayContaining(['201', '404']));
  });
});
