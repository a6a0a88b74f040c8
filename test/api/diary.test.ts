import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DiaryEntry } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { assign, diaryEntry } from '../helpers/classroom.js';
import { bearer, expectError, parent, parentLogin, school, staffLogin, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';

let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;
const staff: Record<'t1' | 't2' | 'principal' | 'office' | 'otherSchool', { id: number; token: string }> = {} as never;
let c1: number;
let c1b: number;
let c2: number;
let p1Token: string;
let p2Token: string;

async function member(schoolId: string, designation: string) {
  const s = await staffMember(schoolId, { designation });
  return { id: s.id, token: await staffLogin(t, s.phone, s.pin, schoolId) };
}

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  b = await school(t);
  staff.t1 = await member(a.schoolId, 'Class Teacher');
  staff.t2 = await member(a.schoolId, 'Class Teacher');
  staff.principal = await member(a.schoolId, 'Principal');
  staff.office = await member(a.schoolId, 'Office Staff');
  staff.otherSchool = await member(b.schoolId, 'Principal');
  const p1 = await parent(t.ctx, a.schoolId);
  const p2 = await parent(t.ctx, a.schoolId);
  c1 = (await student(a.schoolId, p1.id, { grade: '5' })).id;
  c1b = (await student(a.schoolId, p1.id, { grade: '7' })).id;
  c2 = (await student(a.schoolId, p2.id, { grade: '6' })).id;
  await assign(a.schoolId, staff.t1.id, c1, c1b);
  await assign(a.schoolId, staff.t2.id, c2);
  p1Token = await parentLogin(t, p1.phone, p1.pin, a.schoolId);
  p2Token = await parentLogin(t, p2.phone, p2.pin, a.schoolId);
});
afterAll(async () => t.close());

const create = (token: string, body: Record<string, unknown>) => t.api.post('/teachers-app/diary').set(bearer(token)).send(body);

describe('writing the diary', () => {
  it('creates an entry for a grade and for an assigned student (201)', async () => {
    const res = await create(staff.t1.token, { grade: '5', title: ' Maths homework ', description: 'Exercise 4.2', due_date: '2026-11-24' });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number), school_id: a.schoolId, staff_id: staff.t1.id, author_name: 'Teacher', grade: '5', student_id: null,
      title: 'Maths homework', description: 'Exercise 4.2', due_date: '2026-11-24', created_at: expect.stringMatching(/Z$/), updated_at: expect.stringMatching(/Z$/),
      attachments: [],
    });
    const one = await create(staff.t1.token, { student_id: c1, title: 'Bring the reading log' });
    expect(one.status).toBe(201);
    expect(one.body.data).toMatchObject({ grade: null, student_id: c1, description: null, due_date: null });
  });

  it('needs exactly one of grade and student_id, a grade of the school and a title (400)', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ grade: '5', student_id: c1, title: 'Both' }, 'grade'],
      [{ title: 'Neither' }, 'student_id'],
      [{ grade: null, student_id: null, title: 'Neither' }, 'grade'],
      [{ grade: 'Grade 99', title: 'Unknown grade' }, 'grade'],
      [{ grade: '5' }, 'title'],
      [{ grade: '5', title: '   ' }, 'title'],
      [{ grade: '5', title: 'Bad date', due_date: '2026-02-30' }, 'due_date'],
      [{ student_id: 'abc', title: 'Bad id' }, 'student_id'],
    ];
    for (const [body, field] of cases) {
      const res = await create(staff.t1.token, body);
      expectError(res, 400, 'BAD_REQUEST');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });

  it('refuses a student not assigned to the caller, or of another school (403), saving nothing', async () => {
    const before = await DiaryEntry.count();
    expectError(await create(staff.t1.token, { student_id: c2, title: 'Not mine' }), 403, 'FORBIDDEN');
    expectError(await create(staff.otherSchool.token, { student_id: c1, title: 'Not my school' }), 403, 'FORBIDDEN');
    expect(await DiaryEntry.count()).toBe(before);
  });

  it('needs diary.create', async () => {
    expectError(await create(staff.office.token, { grade: '5', title: 'No permission' }), 403, 'FORBIDDEN');
    expectError(await t.api.get('/teachers-app/diary').set(bearer(staff.office.token)), 403, 'FORBIDDEN');
  });
});

describe('changing and deleting entries', () => {
  it('lets the author edit with diary.create, others only with diary.manage', async () => {
    const id = (await create(staff.t1.token, { grade: '5', title: 'Science' })).body.data.id;
    const own = await t.api.put(`/teachers-app/diary/${id}`).set(bearer(staff.t1.token)).send({ title: 'Science project', due_date: '2026-12-01' });
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ id, title: 'Science project', due_date: '2026-12-01', grade: '5' });

    expectError(await t.api.put(`/teachers-app/diary/${id}`).set(bearer(staff.t2.token)).send({ title: 'Hijacked' }), 403, 'FORBIDDEN');
    const managed = await t.api.put(`/teachers-app/diary/${id}`).set(bearer(staff.principal.token)).send({ description: 'Groups of four' });
    expect(managed.status).toBe(200);
    expect(managed.body.data).toMatchObject({ title: 'Science project', description: 'Groups of four', staff_id: staff.t1.id });
    // The entry stays its author's: naming them again is fine, naming another is refused.
    expect((await t.api.put(`/teachers-app/diary/${id}`).set(bearer(staff.principal.token)).send({ staff_id: staff.t1.id })).status).toBe(200);
    const moved = await t.api.put(`/teachers-app/diary/${id}`).set(bearer(staff.principal.token)).send({ staff_id: staff.principal.id });
    expectError(moved, 400, 'BAD_REQUEST');
    expect(moved.body.error.details).toEqual([{ field: 'staff_id', message: 'cannot change: an entry stays with the staff member who wrote it' }]);
  });

  it('writes as the caller: a staff_id of someone else is refused (403), saving nothing', async () => {
    expect((await create(staff.t1.token, { grade: '5', title: 'Own', staff_id: staff.t1.id })).status).toBe(201);
    expectError(await create(staff.t1.token, { grade: '5', title: 'In another name', staff_id: staff.t2.id }), 403, 'FORBIDDEN');
    expect(await DiaryEntry.count({ where: { title: 'In another name' } })).toBe(0);
  });

  it('retargets to exactly one of grade and student_id, keeping the assignment rule', async () => {
    const id = (await create(staff.t1.token, { grade: '5', title: 'Reading' })).body.data.id;
    const put = (body: Record<string, unknown>) => t.api.put(`/teachers-app/diary/${id}`).set(bearer(staff.t1.token)).send(body);
    const moved = await put({ student_id: c1b });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ grade: null, student_id: c1b });
    expectError(await put({ student_id: c2 }), 403, 'FORBIDDEN');
    expectError(await put({ grade: '6', student_id: c1 }), 400, 'BAD_REQUEST');
    expectError(await put({ student_id: null }), 400, 'BAD_REQUEST');
    expectError(await put({ grade: 'Nope' }), 400, 'BAD_REQUEST');
    expect((await DiaryEntry.findByPk(id))?.student_id).toBe(c1b);
  });

  it('soft-deletes: own with diary.create, others with diary.manage; then 404', async () => {
    const mine = (await create(staff.t1.token, { grade: '5', title: 'To delete' })).body.data.id;
    const other = (await create(staff.t1.token, { grade: '5', title: 'Principal deletes' })).body.data.id;
    expectError(await t.api.delete(`/teachers-app/diary/${mine}`).set(bearer(staff.t2.token)), 403, 'FORBIDDEN');
    expect((await t.api.delete(`/teachers-app/diary/${mine}`).set(bearer(staff.t1.token))).status).toBe(200);
    expect((await t.api.delete(`/teachers-app/diary/${other}`).set(bearer(staff.principal.token))).status).toBe(200);
    expect((await DiaryEntry.findByPk(mine))?.deleted_status).toBe(1);
    expectError(await t.api.delete(`/teachers-app/diary/${mine}`).set(bearer(staff.t1.token)), 404, 'NOT_FOUND');
    expectError(await t.api.put(`/teachers-app/diary/${mine}`).set(bearer(staff.t1.token)).send({ title: 'Back' }), 404, 'NOT_FOUND');
    const list = await t.api.get('/teachers-app/diary').set(bearer(staff.t1.token)).query({ limit: 100 });
    expect(list.body.data.map((e: { id: number }) => e.id)).not.toEqual(expect.arrayContaining([mine]));
    const parentList = await t.api.get('/parent-app/diary').set(bearer(p1Token)).query({ limit: 100 });
    expect(parentList.body.data.map((e: { id: number }) => e.id)).not.toContain(mine);
  });

  it("answers 404 for another school's entry, before judging the body", async () => {
    const id = (await create(staff.t1.token, { grade: '5', title: 'Ours' })).body.data.id;
    expectError(await t.api.put(`/teachers-app/diary/${id}`).set(bearer(staff.otherSchool.token)).send({ title: 'Theirs' }), 404, 'NOT_FOUND');
    expectError(await t.api.put(`/teachers-app/diary/${id}`).set(bearer(staff.otherSchool.token)).send({ title: '', due_date: 'soon' }), 404, 'NOT_FOUND');
    expectError(await t.api.delete(`/teachers-app/diary/${id}`).set(bearer(staff.otherSchool.token)), 404, 'NOT_FOUND');
  });
});

describe('reading the diary', () => {
  const ids: Record<string, number> = {};
  const day = (d: string, h = 9) => new Date(`${d}T${String(h).padStart(2, '0')}:00:00.000Z`);

  beforeAll(async () => {
    await DiaryEntry.update({ deleted_status: 1 }, { where: { school_id: a.schoolId } });
    ids.grade5 = await diaryEntry(a.schoolId, staff.t1.id, { grade: '5' }, { created_at: day('2026-03-02') });
    ids.grade7 = await diaryEntry(a.schoolId, staff.t1.id, { grade: '7' }, { created_at: day('2026-03-03') });
    ids.c1 = await diaryEntry(a.schoolId, staff.t1.id, { student_id: c1 }, { created_at: day('2026-03-04') });
    ids.grade6 = await diaryEntry(a.schoolId, staff.t2.id, { grade: '6' }, { created_at: day('2026-03-05') });
    ids.c2 = await diaryEntry(a.schoolId, staff.t2.id, { student_id: c2 }, { created_at: day('2026-03-06') });
    ids.c1late = await diaryEntry(a.schoolId, staff.t1.id, { student_id: c1 }, { created_at: day('2026-03-06', 23) });
    ids.otherSchool = await diaryEntry(b.schoolId, staff.otherSchool.id, { grade: '5' }, { created_at: day('2026-03-06') });
  });

  const parentIds = async (token: string, query: Record<string, unknown> = {}) => {
    const res = await t.api.get('/parent-app/diary').set(bearer(token)).query(query);
    expect(res.status).toBe(200);
    return res.body.data.map((e: { id: number }) => e.id);
  };

  it("shows a parent their children's and their grades' entries, newest first", async () => {
    expect(await parentIds(p1Token)).toEqual([ids.c1late, ids.c1, ids.grade7, ids.grade5]);
    expect(await parentIds(p2Token)).toEqual([ids.c2, ids.grade6]);
    expect(await parentIds(p1Token, { student_id: c1b })).toEqual([ids.grade7]);
    expect(await parentIds(p1Token, { student_id: c1 })).toEqual([ids.c1late, ids.c1, ids.grade5]);
  });

  it('pages and filters by date', async () => {
    expect(await parentIds(p1Token, { limit: 2, page: 1 })).toEqual([ids.c1late, ids.c1]);
    expect(await parentIds(p1Token, { limit: 2, page: 2 })).toEqual([ids.grade7, ids.grade5]);
    expect(await parentIds(p1Token, { limit: 2, page: 3 })).toEqual([]);
    expect(await parentIds(p1Token, { from: '2026-03-03', to: '2026-03-04' })).toEqual([ids.c1, ids.grade7]);
    expect(await parentIds(p1Token, { from: '2026-03-06' })).toEqual([ids.c1late]);
    expect(await parentIds(p1Token, { to: '2026-03-02' })).toEqual([ids.grade5]);
    expectError(await t.api.get('/parent-app/diary').set(bearer(p1Token)).query({ from: '2026-03-05', to: '2026-03-01' }), 400, 'BAD_REQUEST');
    expectError(await t.api.get('/parent-app/diary').set(bearer(p1Token)).query({ limit: 101 }), 400, 'BAD_REQUEST');
  });

  it("refuses another family's student (403)", async () => {
    expectError(await t.api.get('/parent-app/diary').set(bearer(p1Token)).query({ student_id: c2 }), 403, 'FORBIDDEN');
  });

  it("shows teachers grade entries and their own students' entries; diary.manage sees all", async () => {
    const staffIds = async (token: string, query: Record<string, unknown> = {}) =>
      (await t.api.get('/teachers-app/diary').set(bearer(token)).query(query)).body.data.map((e: { id: number }) => e.id);
    expect(await staffIds(staff.t2.token)).toEqual([ids.c2, ids.grade6, ids.grade7, ids.grade5]);
    expect(await staffIds(staff.t1.token)).toEqual([ids.c1late, ids.grade6, ids.c1, ids.grade7, ids.grade5]);
    expect(await staffIds(staff.principal.token)).toEqual([ids.c1late, ids.c2, ids.grade6, ids.c1, ids.grade7, ids.grade5]);
    expect(await staffIds(staff.principal.token, { grade: '5' })).toEqual([ids.c1late, ids.c1, ids.grade5]);
    expect(await staffIds(staff.principal.token, { date: '2026-03-06' })).toEqual([ids.c1late, ids.c2]);
    expect(await staffIds(staff.otherSchool.token)).toEqual([ids.otherSchool]);
  });
});
