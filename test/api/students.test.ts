import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AppError } from '../../src/errors.js';
import { Address, Parent, Student } from '../../src/models/index.js';
import { operatorPrincipal } from '../../src/services/access/guards.js';
import { updateStudent } from '../../src/services/students/students.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { assign } from '../helpers/classroom.js';
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

const list = (query: Record<string, string | number>, token = a.adminToken) =>
  t.api.get('/web-app/students').set(bearer(token)).query({ school_id: a.schoolId, ...query });
const put = (id: number, body: Record<string, unknown>, token = a.adminToken) => t.api.put(`/web-app/students/${id}`).set(bearer(token)).send(body);
const names = (res: { body: { data: { students: Array<{ student_full_name: string }> } } }) => res.body.data.students.map((s) => s.student_full_name);

describe('GET /web-app/students', () => {
  let s: SchoolFixture;
  beforeAll(async () => {
    s = await school(t);
    const family = await parent(t.ctx, s.schoolId, { father_name: 'Kiran Mehta' });
    await student(s.schoolId, family.id, { name: 'Asha Mehta', grade: '5', roll_no: '101', status: 'active' });
    await student(s.schoolId, null, { name: 'Bela Shah', grade: '5', roll_no: '102', status: 'registered' });
    await student(s.schoolId, null, { name: 'Chetan Rao', grade: '6', roll_no: 'X-7', status: 'inactive' });
    await student(s.schoolId, null, { name: 'Dev Archived', grade: '6', roll_no: '104', status: 'archived' });
    await student(b.schoolId, null, { name: 'Asha Elsewhere', grade: '5', roll_no: '101' });
  });
  const get = (query: Record<string, string | number>) => list(query, s.adminToken).query({ school_id: s.schoolId });

  it('lists every student that is not archived by default, with pagination', async () => {
    const res = await get({});
    expect(res.status).toBe(200);
    expect(names(res)).toEqual(['Asha Mehta', 'Bela Shah', 'Chetan Rao']);
    expect(res.body.data.pagination).toMatchObject({ total: 3, page: 1, limit: 10 });
    expect(res.body.data.students[0]).toMatchObject({
      id: expect.any(Number), student_full_name: 'Asha Mehta', grade: '5', roll_no: '101', status: 'active', date_of_birth: '2016-04-12',
      gender: 'female', blood_group: 'B+', father_name: 'Kiran Mehta', created_at: expect.stringMatching(/Z$/),
    });
  });

  it('filters by status, grade and a case-insensitive search on name or roll number', async () => {
    expect(names(await get({ status: 'archived' }))).toEqual(['Dev Archived']);
    expect(names(await get({ status: 'registered' }))).toEqual(['Bela Shah']);
    expect(names(await get({ status: 'all' }))).toHaveLength(4);
    expect(names(await get({ grade: '6' }))).toEqual(['Chetan Rao']);
    expect(names(await get({ search: 'asha' }))).toEqual(['Asha Mehta']);
    expect(names(await get({ search: 'MEHTA' }))).toEqual(['Asha Mehta']);
    expect(names(await get({ search: 'x-7' }))).toEqual(['Chetan Rao']);
    expect(names(await get({ search: '%' }))).toEqual([]);
  });

  it('pages with page and limit', async () => {
    const res = await get({ page: 2, limit: 2 });
    expect(names(res)).toEqual(['Chetan Rao']);
    expect(res.body.data.pagination).toMatchObject({ total: 3, page: 2, limit: 2 });
    const past = await get({ page: 9, limit: 2 });
    expect(names(past)).toEqual([]);
    expect(past.body.data.pagination).toMatchObject({ total: 3, page: 9, limit: 2 });
    const searched = await get({ search: 'rao', limit: 1 });
    expect(names(searched)).toEqual(['Chetan Rao']);
    expect(searched.body.data.pagination).toMatchObject({ total: 1, page: 1, limit: 1 });
  });

  it('answers 400 for a bad limit, status or missing school_id, and 403 for another school', async () => {
    expectError(await get({ limit: 101 }), 400, 'BAD_REQUEST');
    expectError(await get({ status: 'gone' }), 400, 'BAD_REQUEST');
    const missing = await t.api.get('/web-app/students').set(bearer(s.adminToken));
    expectError(missing, 400, 'BAD_REQUEST');
    expect(missing.body.error.details.map((d: { field: string }) => d.field)).toContain('school_id');
    expectError(await t.api.get('/web-app/students').set(bearer(s.adminToken)).query({ school_id: b.schoolId }), 403, 'FORBIDDEN');
  });

  it('is refused to an it_contact and to staff tokens', async () => {
    const itContact = await adminUser(t, s.schoolId, 'it_contact');
    expectError(await get({}).set(bearer(itContact.token)), 403, 'FORBIDDEN');
    const teacher = await staffMember(s.schoolId);
    const token = await staffLogin(t, teacher.phone, teacher.pin, s.schoolId);
    expectError(await t.api.get('/web-app/students').set(bearer(token)).query({ school_id: s.schoolId }), 403, 'FORBIDDEN');
  });
});

describe('PUT /web-app/students/:id', () => {
  it('changes the fields sent and answers with the student', async () => {
    const pupil = await student(a.schoolId, null, { status: 'active' });
    const res = await put(pupil.id, { student_full_name: 'Asha R. Rao', grade: '6', date_of_birth: '2015-01-31', blood_group: 'O+', gender: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: pupil.id, student_full_name: 'Asha R. Rao', grade: '6', date_of_birth: '2015-01-31', blood_group: 'O+', gender: null });
    expect((await Student.findByPk(pupil.id))!.grade).toBe('6');
  });

  it('refuses a grade the school does not have, naming the field', async () => {
    const pupil = await student(a.schoolId, null);
    const res = await put(pupil.id, { grade: 'Grade 99' });
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.body.error.details).toEqual([{ field: 'grade', message: expect.any(String) }]);
    expect((await Student.findByPk(pupil.id))!.grade).toBe('5');
  });

  it('allows registered -> active and active <-> inactive, and answers 409 for any other transition', async () => {
    const pupil = await student(a.schoolId, null, { status: 'registered' });
    expectError(await put(pupil.id, { status: 'inactive' }), 409, 'CONFLICT');
    expect((await put(pupil.id, { status: 'active' })).body.data.status).toBe('active');
    expectError(await put(pupil.id, { status: 'registered' }), 409, 'CONFLICT');
    expect((await put(pupil.id, { status: 'inactive' })).body.data.status).toBe('inactive');
    expect((await put(pupil.id, { status: 'active' })).body.data.status).toBe('active');
    expectError(await put(pupil.id, { status: 'archived' }), 409, 'CONFLICT');
    expect((await Student.findByPk(pupil.id))!.status).toBe('active');
  });

  it('cannot edit an archived student (409)', async () => {
    const pupil = await student(a.schoolId, null, { status: 'archived', name: 'Kept Name' });
    expectError(await put(pupil.id, { student_full_name: 'New Name' }), 409, 'CONFLICT');
    expect((await Student.findByPk(pupil.id))!.student_full_name).toBe('Kept Name');
  });

  it('keeps roll numbers unique within the school only', async () => {
    await student(a.schoolId, null, { roll_no: 'A-100' });
    const pupil = await student(a.schoolId, null);
    const dup = await put(pupil.id, { roll_no: 'A-100' });
    expectError(dup, 409, 'CONFLICT');
    expect(dup.body.error.details).toEqual([{ field: 'roll_no', message: 'already exists' }]);
    await student(b.schoolId, null, { roll_no: 'B-100' });
    expect((await put(pupil.id, { roll_no: 'B-100' })).body.data.roll_no).toBe('B-100');
  });

  it('relinks the student to the parent of a new phone, and the parent login lists the child', async () => {
    const oldFamily = await parent(t.ctx, a.schoolId);
    const newFamily = await parent(t.ctx, a.schoolId, { father_name: 'New Father' });
    const pupil = await student(a.schoolId, oldFamily.id, { phone_no: oldFamily.phone });
    const res = await put(pupil.id, { phone_no: newFamily.phone });
    expect(res.body.data).toMatchObject({ parent_id: newFamily.id, phone_no: newFamily.phone });
    const login = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: newFamily.phone, pin: newFamily.pin, school_id: a.schoolId });
    expect(login.body.data.children.map((c: { id: number }) => c.id)).toEqual([pupil.id]);
    const oldLogin = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: oldFamily.phone, pin: oldFamily.pin, school_id: a.schoolId });
    expect(oldLogin.body.data.children).toEqual([]);
  });

  it('creates a parent without a PIN for a phone the school does not know', async () => {
    const pupil = await student(a.schoolId, null);
    const phone = uniquePhone();
    const res = await put(pupil.id, { phone_no: phone });
    const created = await Parent.findOne({ where: { school_id: a.schoolId, phone_no: phone } });
    expect(created).not.toBeNull();
    expect(created!.pin_hash).toBeNull();
    expect(res.body.data.parent_id).toBe(created!.id);
    expect(await Parent.count({ where: { phone_no: phone } })).toBe(1);
  });

  it("answers 404 for another school's student before judging the body, and 400 for an empty body", async () => {
    const theirs = await student(b.schoolId, null, { name: 'Theirs' });
    for (const body of [{ student_full_name: 'Mine' }, {}, { student_full_name: '', status: 'gone', date_of_birth: 'yesterday' }]) {
      expectError(await put(theirs.id, body), 404, 'NOT_FOUND');
    }
    expectError(await t.api.post(`/web-app/students/${theirs.id}/reset-password`).set(bearer(a.adminToken)).send({ password: 'x' }), 404, 'NOT_FOUND');
    expect((await Student.findByPk(theirs.id))!.student_full_name).toBe('Theirs');
    const mine = await student(a.schoolId, null);
    expectError(await put(mine.id, {}), 400, 'BAD_REQUEST');
  });
});

describe('GET /web-app/students/:id', () => {
  it('shows the student with the guardian and the addresses, never a hash', async () => {
    const family = await parent(t.ctx, a.schoolId, { father_name: 'Detail Father' });
    const pupil = await student(a.schoolId, family.id, { phone_no: family.phone });
    await Address.create({ school_id: a.schoolId, owner_type: 'student', owner_id: pupil.id, address_type: 'current', address: '9 Park St', city: 'Pune', pincode: 411003 });
    const res = await t.api.get(`/web-app/students/${pupil.id}`).set(bearer(a.adminToken));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      id: pupil.id, parent_id: family.id,
      guardian: { id: family.id, father_name: 'Detail Father', phone_no: family.phone, has_pin: true },
      addresses: [{ address_type: 'current', address: '9 Park St', city: 'Pune', pincode: 411003 }],
    });
    expect(JSON.stringify(res.body)).not.toMatch(/hash|\$2[aby]\$/);
    const theirs = await student(b.schoolId, null);
    expectError(await t.api.get(`/web-app/students/${theirs.id}`).set(bearer(a.adminToken)), 404, 'NOT_FOUND');
  });
});

describe('the service behind the console and the command line', () => {
  it('refuses the same bad input as the API, naming the field', async () => {
    const pupil = await student(a.schoolId, null, { name: 'Service Child' });
    const err = await updateStudent(t.ctx, operatorPrincipal(a.schoolId), pupil.id, { student_full_name: '' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status: 400, details: [{ field: 'student_full_name', message: expect.any(String) }] });
    const other = await updateStudent(t.ctx, operatorPrincipal(b.schoolId), pupil.id, { student_full_name: 'Moved' }).catch((e: unknown) => e);
    expect(other).toMatchObject({ status: 404 });
    expect((await Student.findByPk(pupil.id))!.student_full_name).toBe('Service Child');
  });
});

describe('archive and restore', () => {
  it('archives from any state, hides the student from the default list, and restores it as inactive', async () => {
    const pupil = await student(a.schoolId, null, { status: 'registered', name: 'Archive Me' });
    const archived = await t.api.post(`/web-app/students/${pupil.id}/archive`).set(bearer(a.adminToken));
    expect(archived.status).toBe(200);
    expect(archived.body).toMatchObject({ success: true, message: expect.any(String), data: { status: 'archived' } });
    expect(names(await list({ search: 'Archive Me' }))).toEqual([]);
    expect(names(await list({ search: 'Archive Me', status: 'archived' }))).toEqual(['Archive Me']);

    const restored = await t.api.post(`/web-app/students/${pupil.id}/restore`).set(bearer(a.adminToken));
    expect(restored.status).toBe(200);
    expect(restored.body.data.status).toBe('inactive');
    expectError(await t.api.post(`/web-app/students/${pupil.id}/restore`).set(bearer(a.adminToken)), 409, 'CONFLICT');
  });

  it("answers 404 for another school's student", async () => {
    const theirs = await student(b.schoolId, null);
    expectError(await t.api.post(`/web-app/students/${theirs.id}/archive`).set(bearer(a.adminToken)), 404, 'NOT_FOUND');
    expect((await Student.findByPk(theirs.id))!.status).toBe('active');
  });
});

describe('POST /web-app/students/:id/reset-password', () => {
  it("sets the parent's PIN and ends the parent's sessions", async () => {
    const family = await parent(t.ctx, a.schoolId, { pin: '1111' });
    const pupil = await student(a.schoolId, family.id);
    const oldToken = await parentLogin(t, family.phone, '1111', a.schoolId);
    expect((await t.api.get('/parent-app/student-detail').set(bearer(oldToken))).status).toBe(200);

    const res = await t.api.post(`/web-app/students/${pupil.id}/reset-password`).set(bearer(a.adminToken)).send({ password: '246810' });
    expect(res.status).toBe(200);
    expect(res.body.message).toEqual(expect.any(String));
    expectError(await t.api.get('/parent-app/student-detail').set(bearer(oldToken)), 401, 'UNAUTHORIZED');
    expectError(await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: family.phone, pin: '1111', school_id: a.schoolId }), 401, 'UNAUTHORIZED');
    await parentLogin(t, family.phone, '246810', a.schoolId);
  });

  it('needs an admin, a PIN of 4 to 8 digits and a student of the school', async () => {
    const family = await parent(t.ctx, a.schoolId, { pin: '1111' });
    const pupil = await student(a.schoolId, family.id);
    const itContact = await adminUser(t, a.schoolId, 'it_contact');
    expectError(await t.api.post(`/web-app/students/${pupil.id}/reset-password`).set(bearer(itContact.token)).send({ password: '2468' }), 403, 'FORBIDDEN');
    expectError(await t.api.post(`/web-app/students/${pupil.id}/reset-password`).set(bearer(a.adminToken)).send({ password: 'abc' }), 400, 'BAD_REQUEST');
    const theirs = await student(b.schoolId, (await parent(t.ctx, b.schoolId)).id);
    expectError(await t.api.post(`/web-app/students/${theirs.id}/reset-password`).set(bearer(a.adminToken)).send({ password: '2468' }), 404, 'NOT_FOUND');
    await parentLogin(t, family.phone, '1111', a.schoolId);
  });
});

describe('GET /teachers-app/students', () => {
  it('lists only the students assigned to the caller, with the grade filter', async () => {
    const teacher = await staffMember(a.schoolId);
    const mine5 = await student(a.schoolId, null, { grade: '5', name: 'Mine Five' });
    const mine6 = await student(a.schoolId, null, { grade: '6', name: 'Mine Six' });
    const gone = await student(a.schoolId, null, { grade: '6', name: 'Mine Archived', status: 'archived' });
    await student(a.schoolId, null, { grade: '5', name: 'Not Mine' });
    await assign(a.schoolId, teacher.id, mine5.id, mine6.id, gone.id);
    const token = await staffLogin(t, teacher.phone, teacher.pin, a.schoolId);

    const all = await t.api.get('/teachers-app/students').set(bearer(token)).query({ school_id: a.schoolId });
    expect(all.status).toBe(200);
    expect(all.body.data.map((s: { student_full_name: string }) => s.student_full_name)).toEqual(['Mine Five', 'Mine Six']);
    expect(all.body.data[0]).toMatchObject({ id: mine5.id, roll_no: mine5.roll_no, grade: '5' });
    const six = await t.api.get('/teachers-app/students').set(bearer(token)).query({ school_id: a.schoolId, grade: '6' });
    expect(six.body.data.map((s: { id: number }) => s.id)).toEqual([mine6.id]);
    expectError(await t.api.get('/teachers-app/students').set(bearer(token)), 400, 'BAD_REQUEST');
  });

  it('answers 403 for a student of the school not assigned to the caller, 404 for another school\'s', async () => {
    const teacher = await staffMember(a.schoolId);
    const mine = await student(a.schoolId, (await parent(t.ctx, a.schoolId, { father_name: 'Guardian One' })).id);
    const notMine = await student(a.schoolId, null);
    const theirs = await student(b.schoolId, null);
    await assign(a.schoolId, teacher.id, mine.id);
    await assign(b.schoolId, teacher.id, theirs.id);
    const token = await staffLogin(t, teacher.phone, teacher.pin, a.schoolId);

    const ok = await t.api.get(`/teachers-app/students/${mine.id}`).set(bearer(token));
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ id: mine.id, guardian: { father_name: 'Guardian One' } });
    expectError(await t.api.get(`/teachers-app/students/${notMine.id}`).set(bearer(token)), 403, 'FORBIDDEN');
    expectError(await t.api.get(`/teachers-app/students/${theirs.id}`).set(bearer(token)), 404, 'NOT_FOUND');
  });
});

describe('GET /parent-app/student-detail', () => {
  it("returns the first child by id with the guardian's father_name, and another child on request", async () => {
    const family = await parent(t.ctx, a.schoolId, { father_name: 'Ravi Rao' });
    const first = await student(a.schoolId, family.id, { name: 'First Child' });
    const second = await student(a.schoolId, family.id, { name: 'Second Child', grade: '2' });
    const token = await parentLogin(t, family.phone, family.pin, a.schoolId);

    const res = await t.api.get('/parent-app/student-detail').set(bearer(token));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      student: { id: first.id, student_full_name: 'First Child', roll_no: first.roll_no, grade: '5' },
      guardian: { father_name: 'Ravi Rao', phone_no: family.phone },
    });
    const other = await t.api.get('/parent-app/student-detail').set(bearer(token)).query({ student_id: second.id });
    expect(other.body.data.student).toMatchObject({ id: second.id, student_full_name: 'Second Child', grade: '2' });
  });

  it("answers 403 for another family's student_id, in this school or another", async () => {
    const family = await parent(t.ctx, a.schoolId);
    await student(a.schoolId, family.id);
    const neighbour = await student(a.schoolId, (await parent(t.ctx, a.schoolId)).id);
    const elsewhere = await student(b.schoolId, (await parent(t.ctx, b.schoolId)).id);
    const token = await parentLogin(t, family.phone, family.pin, a.schoolId);
    expectError(await t.api.get('/parent-app/student-detail').set(bearer(token)).query({ student_id: neighbour.id }), 403, 'FORBIDDEN');
    expectError(await t.api.get('/parent-app/student-detail').set(bearer(token)).query({ student_id: elsewhere.id }), 403, 'FORBIDDEN');
  });

  it('answers 404 to a parent without any child that is not archived', async () => {
    const family = await parent(t.ctx, a.schoolId);
    await student(a.schoolId, family.id, { status: 'archived' });
    const token = await parentLogin(t, family.phone, family.pin, a.schoolId);
    expectError(await t.api.get('/parent-app/student-detail').set(bearer(token)), 404, 'NOT_FOUND');
  });
});
