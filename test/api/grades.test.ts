import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Student } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { adminUser, bearer, expectError, school, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';

let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  b = await school(t);
});
afterAll(async () => t.close());

const grades = (schoolId: string) => t.api.get('/web-app/grades').query({ school_id: schoolId });

describe('GET /web-app/grades (public)', () => {
  it('lists the default grades of a new school in order, without a token', async () => {
    const res = await grades(a.schoolId);
    expect(res.status).toBe(200);
    expect(res.body.data.map((g: { name: string }) => g.name)).toEqual(['Nursery', 'LKG', 'UKG', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12']);
    expect(res.body.data[0]).toEqual({ id: expect.any(Number), name: 'Nursery', class_teacher_id: null, sort_order: 0 });
  });

  it('needs school_id (400) and answers 404 for an unknown school', async () => {
    const missing = await t.api.get('/web-app/grades');
    expectError(missing, 400, 'BAD_REQUEST');
    expect(missing.body.error.details[0].field).toBe('school_id');
    expectError(await grades('no-such-school'), 404, 'NOT_FOUND');
  });
});

describe('managing grades', () => {
  it('creates a grade at the end of the list, with a class teacher of the school', async () => {
    const teacher = await staffMember(a.schoolId);
    const res = await t.api.post('/web-app/grades').set(bearer(a.adminToken)).send({ name: 'Class 1-B', class_teacher_id: teacher.id });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'Class 1-B', class_teacher_id: teacher.id, sort_order: 15 });
    const list = (await grades(a.schoolId)).body.data;
    expect(list.at(-1)).toMatchObject({ id: res.body.data.id, name: 'Class 1-B', class_teacher_id: teacher.id });
  });

  it('refuses a duplicate name (409), another school\'s staff as class teacher (404) and a blank name (400)', async () => {
    expectError(await t.api.post('/web-app/grades').set(bearer(a.adminToken)).send({ name: 'LKG' }), 409, 'CONFLICT');
    const other = await staffMember(b.schoolId);
    expectError(await t.api.post('/web-app/grades').set(bearer(a.adminToken)).send({ name: 'Class 2-B', class_teacher_id: other.id }), 404, 'NOT_FOUND');
    const blank = await t.api.post('/web-app/grades').set(bearer(a.adminToken)).send({ name: '  ' });
    expectError(blank, 400, 'BAD_REQUEST');
    expect(blank.body.error.details[0].field).toBe('name');
    expect((await grades(a.schoolId)).body.data.map((g: { name: string }) => g.name)).not.toContain('Class 2-B');
  });

  it('sets and clears the class teacher, and renames a grade on its students too', async () => {
    const teacher = await staffMember(a.schoolId);
    const created = (await t.api.post('/web-app/grades').set(bearer(a.adminToken)).send({ name: 'Class 3-C' })).body.data;
    const pupil = await student(a.schoolId, null, { grade: 'Class 3-C' });

    const set = await t.api.put(`/web-app/grades/${created.id}`).set(bearer(a.adminToken)).send({ class_teacher_id: teacher.id });
    expect(set.status).toBe(200);
    expect(set.body.data.class_teacher_id).toBe(teacher.id);
    const cleared = await t.api.put(`/web-app/grades/${created.id}`).set(bearer(a.adminToken)).send({ class_teacher_id: null });
    expect(cleared.body.data.class_teacher_id).toBeNull();

    const renamed = await t.api.put(`/web-app/grades/${created.id}`).set(bearer(a.adminToken)).send({ name: 'Class 3-D' });
    expect(renamed.body.data.name).toBe('Class 3-D');
    expect((await Student.findByPk(pupil.id))!.grade).toBe('Class 3-D');
  });

  it("answers 404 for another school's grade and 409 for a duplicate name on rename", async () => {
    const bGrade = (await grades(b.schoolId)).body.data[0];
    expectError(await t.api.put(`/web-app/grades/${bGrade.id}`).set(bearer(a.adminToken)).send({ name: 'Mine now' }), 404, 'NOT_FOUND');
    expectError(await t.api.delete(`/web-app/grades/${bGrade.id}`).set(bearer(a.adminToken)), 404, 'NOT_FOUND');
    const aGrade = (await grades(a.schoolId)).body.data[0];
    expectError(await t.api.put(`/web-app/grades/${aGrade.id}`).set(bearer(a.adminToken)).send({ name: 'LKG' }), 409, 'CONFLICT');
    expect((await grades(b.schoolId)).body.data[0].name).toBe('Nursery');
  });

  it('refuses to delete a grade while a student, even an archived one, is in it', async () => {
    const created = (await t.api.post('/web-app/grades').set(bearer(a.adminToken)).send({ name: 'Class 4-A' })).body.data;
    const pupil = await student(a.schoolId, null, { grade: 'Class 4-A', status: 'archived' });
    expectError(await t.api.delete(`/web-app/grades/${created.id}`).set(bearer(a.adminToken)), 409, 'CONFLICT');
    await pupil.update({ grade: '4' });
    const res = await t.api.delete(`/web-app/grades/${created.id}`).set(bearer(a.adminToken));
    expect(res.status).toBe(200);
    expect((await grades(a.schoolId)).body.data.map((g: { name: string }) => g.name)).not.toContain('Class 4-A');
  });

  it('is for super_admin and admin only, and the tenant guard holds', async () => {
    const itContact = await adminUser(t, a.schoolId, 'it_contact');
    expectError(await t.api.post('/web-app/grades').set(bearer(itContact.token)).send({ name: 'IT grade' }), 403, 'FORBIDDEN');
    const admin = await adminUser(t, a.schoolId, 'admin');
    expect((await t.api.post('/web-app/grades').set(bearer(admin.token)).send({ name: 'Admin grade' })).status).toBe(201);
    expectError(await t.api.post('/web-app/grades').set(bearer(admin.token)).send({ name: 'Other', school_id: b.schoolId }), 403, 'FORBIDDEN');
    expectError(await t.api.post('/web-app/grades').send({ name: 'No token' }), 401, 'UNAUTHORIZED');
  });
});
