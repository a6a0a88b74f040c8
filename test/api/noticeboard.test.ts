import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Notice } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { adminUser, bearer, expectError, parent, parentLogin, school, staffLogin, staffMember, type SchoolFixture } from '../helpers/fixtures.js';

let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;
let parentToken: string;
let teacherToken: string;
let officeToken: string;
let outsiderToken: string;

async function staffToken(schoolId: string, opts: Parameters<typeof staffMember>[1]) {
  const s = await staffMember(schoolId, opts);
  return staffLogin(t, s.phone, s.pin, schoolId);
}

async function post(token: string, body: Record<string, unknown>, schoolId = a.schoolId) {
  return t.api.post('/web-app/noticeboard').set(bearer(token)).send({ school_id: schoolId, ...body });
}

async function create(body: Record<string, unknown>, fixture = a): Promise<number> {
  const res = await post(fixture.adminToken, body, fixture.schoolId);
  expect(res.status).toBe(201);
  return res.body.data.id as number;
}

const ids = (rows: Array<{ id: number }>) => rows.map((r) => r.id);
const parentBoard = (query: Record<string, unknown> = {}, token = parentToken) => t.api.get('/parent-app/noticeboard').query(query).set(bearer(token));
const teacherBoard = (query: Record<string, unknown> = {}, token = teacherToken) =>
  t.api.get('/teachers-app/noticeboard').query({ school_id: a.schoolId, ...query }).set(bearer(token));
const webBoard = (query: Record<string, unknown> = {}, fixture = a) =>
  t.api.get('/web-app/noticeboard').query({ school_id: fixture.schoolId, ...query }).set(bearer(fixture.adminToken));

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  b = await school(t);
  const p = await parent(t.ctx, a.schoolId);
  parentToken = await parentLogin(t, p.phone, p.pin, a.schoolId);
  teacherToken = await staffToken(a.schoolId, { designation: 'Class Teacher' });
  officeToken = await staffToken(a.schoolId, { designation: 'Office Staff' });
  outsiderToken = await staffToken(a.schoolId, { designation: 'Class Teacher', rbac: { noticeboard: 'none' } });
});
afterAll(async () => t.close());

describe('posting a notice', () => {
  it('lets a school admin post one: 201 with its id, not important and general by default', async () => {
    const res = await post(a.adminToken, { notice_title: 'Term starts', notice_desc: 'On Monday' });
    expect(res.status).toBe(201);
    expect(res.body.message).toEqual(expect.any(String));
    expect(res.body.data).toMatchObject({
      id: expect.any(Number), school_id: a.schoolId, notice_title: 'Term starts', notice_desc: 'On Monday', notice_type: 'general',
      is_important: false, created_by_type: 'admin', created_by_id: a.adminId,
    });
    expect(res.body.data.created_at).toMatch(/Z$/);
  });

  it('answers a missing or too long notice_title with 400', async () => {
    const missing = await post(a.adminToken, { notice_desc: 'untitled' });
    expectError(missing, 400, 'BAD_REQUEST');
    expect(missing.body.error.details).toEqual([{ field: 'notice_title', message: 'is required' }]);
    expectError(await post(a.adminToken, { notice_title: 'x'.repeat(201) }), 400, 'BAD_REQUEST');
    expect((await post(a.adminToken, { notice_title: 'x'.repeat(200), notice_desc: 'd'.repeat(10_000) })).status).toBe(201);
    expectError(await post(a.adminToken, { notice_title: 'Long', notice_desc: 'd'.repeat(10_001) }), 400, 'BAD_REQUEST');
  });

  it('checks notice_type and is_important', async () => {
    const bad = await post(a.adminToken, { notice_title: 'Party', notice_type: 'party', is_important: 'yes' });
    expectError(bad, 400, 'BAD_REQUEST');
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['is_important', 'notice_type']);
    for (const type of ['holiday', 'event', 'meeting', 'exam', 'fee', 'general']) {
      expect((await post(a.adminToken, { notice_title: `A ${type}`, notice_type: type })).body.data.notice_type).toBe(type);
    }
  });

  it("refuses another school's school_id (403) and a malformed one (400)", async () => {
    expectError(await post(a.adminToken, { notice_title: 'Elsewhere' }, b.schoolId), 403, 'FORBIDDEN');
    expectError(await post(a.adminToken, { notice_title: 'Bad id' }, 'not a school!'), 400, 'BAD_REQUEST');
  });

  it('needs a school admin on the web app', async () => {
    const itContact = await adminUser(t, a.schoolId, 'it_contact');
    expectError(await post(itContact.token, { notice_title: 'IT' }), 403, 'FORBIDDEN');
    const admin = await adminUser(t, a.schoolId, 'admin');
    expect((await post(admin.token, { notice_title: 'By an admin' })).status).toBe(201);
  });

  it('lets staff with noticeboard.create post through the teachers app, and no one else', async () => {
    const res = await t.api.post('/teachers-app/noticeboard').set(bearer(officeToken)).send({ notice_title: 'Fees due', notice_type: 'fee', is_important: true });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ notice_title: 'Fees due', notice_type: 'fee', is_important: true, created_by_type: 'staff' });
    expectError(await t.api.post('/teachers-app/noticeboard').set(bearer(teacherToken)).send({ notice_title: 'View only' }), 403, 'FORBIDDEN');
    expectError(await t.api.post('/teachers-app/noticeboard').set(bearer(officeToken)).send({ school_id: b.schoolId, notice_title: 'x' }), 403, 'FORBIDDEN');
    expectError(await t.api.post('/web-app/noticeboard').set(bearer(officeToken)).send({ notice_title: 'Wrong app' }), 403, 'FORBIDDEN');
  });
});

describe('the boards', () => {
  let s: SchoolFixture;
  let sParent: string;
  let sTeacher: string;
  const made: Record<string, number> = {};
  beforeAll(async () => {
    s = await school(t);
    const p = await parent(t.ctx, s.schoolId);
    sParent = await parentLogin(t, p.phone, p.pin, s.schoolId);
    sTeacher = await staffToken(s.schoolId, { designation: 'Subject Teacher' });
    made.oldImportant = await create({ notice_title: 'Old but important', notice_type: 'exam', is_important: true }, s);
    made.holiday = await create({ notice_title: 'Holiday', notice_type: 'holiday' }, s);
    made.meeting = await create({ notice_title: 'Meeting', notice_type: 'meeting' }, s);
    made.newImportant = await create({ notice_title: 'New and important', notice_type: 'holiday', is_important: true }, s);
    made.exam = await create({ notice_title: 'Exam', notice_type: 'exam' }, s);
    made.deleted = await create({ notice_title: 'Deleted', is_important: true }, s);
    await t.api.delete(`/web-app/noticeboard/${made.deleted}`).set(bearer(s.adminToken)).expect(200);
    await create({ notice_title: 'Other school', is_important: true }, b);
  });

  const order = () => [made.newImportant, made.oldImportant, made.exam, made.meeting, made.holiday];

  it('puts important notices first, then newest first, on every board', async () => {
    const forParent = await parentBoard({}, sParent);
    expect(forParent.status).toBe(200);
    expect(ids(forParent.body.data)).toEqual(order());
    expect(forParent.body.data[0]).toMatchObject({ notice_title: 'New and important', notice_type: 'holiday', is_important: true, created_at: expect.any(String) });
    const forTeacher = await t.api.get('/teachers-app/noticeboard').query({ school_id: s.schoolId }).set(bearer(sTeacher));
    expect(ids(forTeacher.body.data)).toEqual(order());
    expect(forTeacher.body.data[0].school_id).toBe(s.schoolId);
    expect(ids((await webBoard({}, s)).body.data.notices)).toEqual(order());
  });

  it('filters by notice_type', async () => {
    expect(ids((await parentBoard({ notice_type: 'holiday' }, sParent)).body.data)).toEqual([made.newImportant, made.holiday]);
    const exams = await t.api.get('/teachers-app/noticeboard').query({ school_id: s.schoolId, notice_type: 'exam' }).set(bearer(sTeacher));
    expect(ids(exams.body.data)).toEqual([made.oldImportant, made.exam]);
    expectError(await parentBoard({ notice_type: 'party' }, sParent), 400, 'BAD_REQUEST');
  });

  it('pages the boards', async () => {
    expect(ids((await parentBoard({ page: 2, limit: 2 }, sParent)).body.data)).toEqual(order().slice(2, 4));
    expectError(await parentBoard({ limit: 101 }, sParent), 400, 'BAD_REQUEST');
    expectError(await parentBoard({ page: 0 }, sParent), 400, 'BAD_REQUEST');
  });

  it('answers the web board as {notices, count}, 10 a page by default', async () => {
    for (let i = 0; i < 7; i++) await create({ notice_title: `Filler ${i}` }, s);
    const first = await webBoard({}, s);
    expect(first.status).toBe(200);
    expect(first.body.data.count).toBe(12);
    expect(first.body.data.notices).toHaveLength(10);
    expect(ids(first.body.data.notices).slice(0, 2)).toEqual([made.newImportant, made.oldImportant]);
    const second = await webBoard({ page: 2 }, s);
    expect(ids(second.body.data.notices)).toEqual(order().slice(3));
    expect(second.body.data.count).toBe(12);
    expect((await webBoard({ page: 2, limit: 5 }, s)).body.data.notices).toHaveLength(5);
    expectError(await webBoard({ limit: 0 }, s), 400, 'BAD_REQUEST');
  });

  it('needs school_id on the teachers and web boards, and the right people', async () => {
    expectError(await t.api.get('/teachers-app/noticeboard').set(bearer(sTeacher)), 400, 'BAD_REQUEST');
    expectError(await t.api.get('/web-app/noticeboard').set(bearer(s.adminToken)), 400, 'BAD_REQUEST');
    expectError(await teacherBoard({}, outsiderToken), 403, 'FORBIDDEN');
    expectError(await t.api.get('/web-app/noticeboard').query({ school_id: s.schoolId }).set(bearer(a.adminToken)), 403, 'FORBIDDEN');
    const itContact = await adminUser(t, s.schoolId, 'it_contact');
    expectError(await t.api.get('/web-app/noticeboard').query({ school_id: s.schoolId }).set(bearer(itContact.token)), 403, 'FORBIDDEN');
  });
});

describe('editing and deleting', () => {
  it('updates the given fields only', async () => {
    const id = await create({ notice_title: 'Draft title', notice_desc: 'Keep me', notice_type: 'event' });
    const res = await t.api.put(`/web-app/noticeboard/${id}`).set(bearer(a.adminToken)).send({ notice_title: 'Final title', is_important: true });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, notice_title: 'Final title', notice_desc: 'Keep me', notice_type: 'event', is_important: true });
    expect((await parentBoard()).body.data[0].id).toBe(id);
  });

  it('checks the changes', async () => {
    const id = await create({ notice_title: 'Check' });
    expectError(await t.api.put(`/web-app/noticeboard/${id}`).set(bearer(a.adminToken)).send({}), 400, 'BAD_REQUEST');
    expectError(await t.api.put(`/web-app/noticeboard/${id}`).set(bearer(a.adminToken)).send({ notice_title: '' }), 400, 'BAD_REQUEST');
    expectError(await t.api.put(`/web-app/noticeboard/${id}`).set(bearer(a.adminToken)).send({ notice_type: 'party' }), 400, 'BAD_REQUEST');
  });

  it("answers 404 for another school's notice or an unknown id before judging the body, and leaves it alone", async () => {
    const foreign = await create({ notice_title: 'B notice' }, b);
    for (const id of [foreign, 2000000000]) {
      for (const body of [{ notice_title: 'Taken' }, {}, { notice_title: '', is_important: 'very', audience: 'everyone' }]) {
        expectError(await t.api.put(`/web-app/noticeboard/${id}`).set(bearer(a.adminToken)).send(body), 404, 'NOT_FOUND');
      }
    }
    expectError(await t.api.delete(`/web-app/noticeboard/${foreign}`).set(bearer(a.adminToken)), 404, 'NOT_FOUND');
    expect(await Notice.findByPk(foreign, { raw: true })).toMatchObject({ notice_title: 'B notice', notice_deleted: 0 });
  });

  it('soft-deletes: the row stays, every board drops it and the id answers 404', async () => {
    const id = await create({ notice_title: 'Going', is_important: true });
    expect(ids((await parentBoard()).body.data)).toContain(id);
    const res = await t.api.delete(`/web-app/noticeboard/${id}`).set(bearer(a.adminToken));
    expect(res.status).toBe(200);
    expect(res.body.message).toEqual(expect.any(String));
    expect(await Notice.findByPk(id, { raw: true })).toMatchObject({ id, notice_deleted: 1 });
    expectError(await t.api.delete(`/web-app/noticeboard/${id}`).set(bearer(a.adminToken)), 404, 'NOT_FOUND');
    expectError(await t.api.put(`/web-app/noticeboard/${id}`).set(bearer(a.adminToken)).send({ notice_title: 'Back' }), 404, 'NOT_FOUND');
    expect(ids((await parentBoard({ limit: 100 })).body.data)).not.toContain(id);
    expect(ids((await teacherBoard({ limit: 100 })).body.data)).not.toContain(id);
    expect(ids((await webBoard({ limit: 100 })).body.data.notices)).not.toContain(id);
  });

  it('needs a school admin', async () => {
    const id = await create({ notice_title: 'Protected' });
    const itContact = await adminUser(t, a.schoolId, 'it_contact');
    expectError(await t.api.put(`/web-app/noticeboard/${id}`).set(bearer(itContact.token)).send({ notice_title: 'x' }), 403, 'FORBIDDEN');
    expectError(await t.api.delete(`/web-app/noticeboard/${id}`).set(bearer(itContact.token)), 403, 'FORBIDDEN');
  });
});

describe('the API reference', () => {
  it('documents every noticeboard route', async () => {
    const doc = await t.api.get('/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/parent-app/noticeboard', '/teachers-app/noticeboard', '/web-app/noticeboard', '/web-app/noticeboard/{id}']),
    );
  });
});
