import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Activity, StaffStudent } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { adminUser, bearer, expectError, parent, parentLogin, school, staffLogin, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';

let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;

interface Person {
  id: number;
  token: string;
}
let teacher: Person;
let teacher2: Person;
let principal: Person;
let viewer: Person;
let outsider: Person;
let teacherB: Person;
/** Parent 1 has two children (kid1 is assigned to `teacher`); parent 2 is another family of the same school. */
let parent1: Person;
let parent2: Person;
let parentB: Person;
let kid1: number;
let kid1b: number;
let kid2: number;

async function staffPerson(schoolId: string, opts: Parameters<typeof staffMember>[1] = {}): Promise<Person> {
  const s = await staffMember(schoolId, opts);
  return { id: s.id, token: await staffLogin(t, s.phone, s.pin, schoolId) };
}

async function parentPerson(schoolId: string): Promise<Person> {
  const p = await parent(t.ctx, schoolId);
  return { id: p.id, token: await parentLogin(t, p.phone, p.pin, schoolId) };
}

async function post(who: Person, body: Record<string, unknown>, schoolId = a.schoolId) {
  return t.api.post('/teachers-app/activities').set(bearer(who.token)).send({ school_id: schoolId, ...body });
}

/** Creates an activity through the API and returns its id. */
async function create(who: Person, body: Record<string, unknown>, schoolId = a.schoolId): Promise<number> {
  const res = await post(who, body, schoolId);
  expect(res.status).toBe(201);
  return res.body.data.id as number;
}

const ids = (res: { body: { data: Array<{ id: number }> } }) => res.body.data.map((r) => r.id);

async function feed(who: Person, query: Record<string, unknown> = {}) {
  return t.api.get('/parent-app/activities').query(query).set(bearer(who.token));
}

async function teacherList(who: Person, query: Record<string, unknown> = {}) {
  return t.api.get('/teachers-app/activities').query({ school_id: a.schoolId, ...query }).set(bearer(who.token));
}

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  b = await school(t);
  teacher = await staffPerson(a.schoolId, { designation: 'Class Teacher' });
  teacher2 = await staffPerson(a.schoolId, { designation: 'Subject Teacher' });
  principal = await staffPerson(a.schoolId, { designation: 'Principal' });
  viewer = await staffPerson(a.schoolId, { designation: 'Office Staff' });
  outsider = await staffPerson(a.schoolId, { designation: 'Class Teacher', rbac: { activities: 'none' } });
  teacherB = await staffPerson(b.schoolId, { designation: 'Class Teacher' });
  parent1 = await parentPerson(a.schoolId);
  parent2 = await parentPerson(a.schoolId);
  parentB = await parentPerson(b.schoolId);
  kid1 = (await student(a.schoolId, parent1.id)).id;
  kid1b = (await student(a.schoolId, parent1.id)).id;
  kid2 = (await student(a.schoolId, parent2.id)).id;
  await StaffStudent.bulkCreate([
    { school_id: a.schoolId, staff_id: teacher.id, student_id: kid1 },
    { school_id: a.schoolId, staff_id: teacher.id, student_id: kid1b },
    { school_id: a.schoolId, staff_id: teacher2.id, student_id: kid2 },
  ]);
});
afterAll(async () => t.close());

describe('creating an activity', () => {
  it('creates a published announcement by default, authored by the caller', async () => {
    const res = await post(teacher, { title: '  Sports day  ', description: 'On the main ground' });
    expect(res.status).toBe(201);
    expect(res.body.message).toEqual(expect.any(String));
    expect(res.body.data).toMatchObject({
      id: expect.any(Number), title: 'Sports day', description: 'On the main ground', activity_type: 'announcement', status: 'published',
      staff_id: teacher.id, author_id: teacher.id, student_id: null, school_id: a.schoolId,
    });
    expect(res.body.data.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('answers a missing title with 400 naming the field', async () => {
    const res = await post(teacher, { description: 'no title' });
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.body.error.details).toEqual([{ field: 'title', message: 'is required' }]);
    expectError(await post(teacher, { title: '   ' }), 400, 'BAD_REQUEST');
  });

  it('enforces the lengths and the enumerations', async () => {
    expectError(await post(teacher, { title: 'x'.repeat(201) }), 400, 'BAD_REQUEST');
    expect((await post(teacher, { title: 'x'.repeat(200), description: 'd'.repeat(10_000) })).status).toBe(201);
    expectError(await post(teacher, { title: 'T', description: 'd'.repeat(10_001) }), 400, 'BAD_REQUEST');
    const bad = await post(teacher, { title: 'T', activity_type: 'party', status: 'archived' });
    expectError(bad, 400, 'BAD_REQUEST');
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['activity_type', 'status']);
  });

  it('needs school_id (400) and refuses another school\'s (403)', async () => {
    const missing = await t.api.post('/teachers-app/activities').set(bearer(teacher.token)).send({ title: 'No school' });
    expectError(missing, 400, 'BAD_REQUEST');
    expect(missing.body.error.details.map((d: { field: string }) => d.field)).toEqual(['school_id']);
    expectError(await post(teacher, { title: 'Elsewhere' }, b.schoolId), 403, 'FORBIDDEN');
    expectError(await post(teacher, { title: 'Malformed' }, '!'), 400, 'BAD_REQUEST');
  });

  it('accepts staff_id only when it is the caller', async () => {
    expectError(await post(teacher, { title: 'Impersonation', staff_id: teacher2.id }), 403, 'FORBIDDEN');
    const own = await post(teacher, { title: 'Signed', staff_id: teacher.id });
    expect(own.status).toBe(201);
    expect(own.body.data.author_id).toBe(teacher.id);
  });

  it('targets only a student assigned to the caller', async () => {
    expectError(await post(teacher, { title: 'Not mine', student_id: kid2 }), 403, 'FORBIDDEN');
    const res = await post(teacher, { title: 'For kid1', student_id: kid1 });
    expect(res.status).toBe(201);
    expect(res.body.data.student_id).toBe(kid1);
  });

  it('needs activities.create', async () => {
    expectError(await post(viewer, { title: 'View only' }), 403, 'FORBIDDEN');
    expectError(await post(outsider, { title: 'No access' }), 403, 'FORBIDDEN');
    expectError(await t.api.post('/teachers-app/activities').set(bearer(parent1.token)).send({ school_id: a.schoolId, title: 'Parent' }), 403, 'FORBIDDEN');
  });
});

describe('the teachers\' list', () => {
  let mine: Record<string, number>;
  let theirs: Record<string, number>;
  let otherSchool: number;
  beforeAll(async () => {
    mine = {
      published: await create(teacher, { title: 'T1 published', activity_type: 'event' }),
      draft: await create(teacher, { title: 'T1 draft', status: 'draft' }),
      cancelled: await create(teacher, { title: 'T1 cancelled', status: 'cancelled' }),
    };
    theirs = {
      published: await create(teacher2, { title: 'T2 published' }),
      draft: await create(teacher2, { title: 'T2 draft', status: 'draft', activity_type: 'event' }),
    };
    otherSchool = await create(teacherB, { title: 'B published' }, b.schoolId);
  });

  it('shows published and cancelled activities and only the caller\'s own drafts, with author_id', async () => {
    const res = await teacherList(teacher, { limit: 100 });
    expect(res.status).toBe(200);
    const listed = ids(res);
    expect(listed).toEqual(expect.arrayContaining([mine.published, mine.draft, mine.cancelled, theirs.published]));
    expect(listed).not.toContain(theirs.draft);
    expect(listed).not.toContain(otherSchool);
    const row = res.body.data.find((r: { id: number }) => r.id === theirs.published);
    expect(row).toMatchObject({ title: 'T2 published', status: 'published', author_id: teacher2.id, activity_type: 'announcement' });

    const other = ids(await teacherList(teacher2, { limit: 100 }));
    expect(other).toContain(theirs.draft);
    expect(other).not.toContain(mine.draft);
  });

  it('lists newest first', async () => {
    const listed: number[] = ids(await teacherList(teacher, { limit: 100 }));
    expect(listed).toEqual([...listed].sort((x, y) => y - x));
  });

  it('filters by status and activity_type', async () => {
    const drafts = await teacherList(teacher, { status: 'draft', limit: 100 });
    expect(drafts.body.data.every((r: { status: string; author_id: number }) => r.status === 'draft' && r.author_id === teacher.id)).toBe(true);
    expect(ids(drafts)).toContain(mine.draft);
    expect(ids(drafts)).not.toContain(theirs.draft);
    const cancelled = ids(await teacherList(teacher, { status: 'cancelled', limit: 100 }));
    expect(cancelled).toContain(mine.cancelled);
    expect(cancelled).not.toContain(mine.published);
    const events = await teacherList(teacher, { activity_type: 'event', limit: 100 });
    expect(events.body.data.every((r: { activity_type: string }) => r.activity_type === 'event')).toBe(true);
    expect(ids(events)).toContain(mine.published);
    expect(ids(events)).not.toContain(theirs.draft);
  });

  it('pages with page and limit', async () => {
    const all: number[] = ids(await teacherList(teacher, { limit: 100 }));
    const second = await teacherList(teacher, { page: 2, limit: 2 });
    expect(ids(second)).toEqual(all.slice(2, 4));
  });

  it('checks its query: school_id required, limit 1 to 100, page from 1, known status', async () => {
    expectError(await t.api.get('/teachers-app/activities').set(bearer(teacher.token)), 400, 'BAD_REQUEST');
    expectError(await teacherList(teacher, { school_id: b.schoolId }), 403, 'FORBIDDEN');
    expectError(await teacherList(teacher, { limit: 101 }), 400, 'BAD_REQUEST');
    expectError(await teacherList(teacher, { limit: 0 }), 400, 'BAD_REQUEST');
    expectError(await teacherList(teacher, { page: 0 }), 400, 'BAD_REQUEST');
    expectError(await teacherList(teacher, { status: 'deleted' }), 400, 'BAD_REQUEST');
  });

  it('needs activities.view', async () => {
    expect((await teacherList(viewer)).status).toBe(200);
    expectError(await teacherList(outsider), 403, 'FORBIDDEN');
  });
});

describe('editing and deleting', () => {
  it('lets the author change the status and the fields', async () => {
    const id = await create(teacher, { title: 'Draft trip', status: 'draft' });
    const res = await t.api.put(`/teachers-app/activities/${id}`).set(bearer(teacher.token)).send({ status: 'published', title: 'Zoo trip', activity_type: 'event' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, status: 'published', title: 'Zoo trip', activity_type: 'event', author_id: teacher.id });
    const cancelled = await t.api.put(`/teachers-app/activities/${id}`).set(bearer(teacher.token)).send({ status: 'cancelled' });
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', title: 'Zoo trip' });
    const back = await t.api.put(`/teachers-app/activities/${id}`).set(bearer(teacher.token)).send({ status: 'draft' });
    expect(back.body.data.status).toBe('draft');
  });

  it("needs activities.manage for someone else's activity", async () => {
    const id = await create(teacher, { title: 'Mine' });
    expectError(await t.api.put(`/teachers-app/activities/${id}`).set(bearer(teacher2.token)).send({ title: 'Hijacked' }), 403, 'FORBIDDEN');
    expectError(await t.api.delete(`/teachers-app/activities/${id}`).set(bearer(teacher2.token)), 403, 'FORBIDDEN');
    const managed = await t.api.put(`/teachers-app/activities/${id}`).set(bearer(principal.token)).send({ title: 'Edited by the principal' });
    expect(managed.status).toBe(200);
    expect(managed.body.data).toMatchObject({ title: 'Edited by the principal', author_id: teacher.id });
    expect((await t.api.delete(`/teachers-app/activities/${id}`).set(bearer(principal.token))).status).toBe(200);
  });

  it('refuses a staff_id that is not the caller and a student not assigned to the caller', async () => {
    const id = await create(teacher, { title: 'Targets' });
    expectError(await t.api.put(`/teachers-app/activities/${id}`).set(bearer(teacher.token)).send({ staff_id: teacher2.id }), 403, 'FORBIDDEN');
    expectError(await t.api.put(`/teachers-app/activities/${id}`).set(bearer(teacher.token)).send({ student_id: kid2 }), 403, 'FORBIDDEN');
    const ok = await t.api.put(`/teachers-app/activities/${id}`).set(bearer(teacher.token)).send({ student_id: kid1 });
    expect(ok.body.data.student_id).toBe(kid1);
    const wide = await t.api.put(`/teachers-app/activities/${id}`).set(bearer(teacher.token)).send({ student_id: null });
    expect(wide.body.data.student_id).toBeNull();
  });

  it('checks the changes: 400 for nothing to change or a bad value', async () => {
    const id = await create(teacher, { title: 'Check' });
    expectError(await t.api.put(`/teachers-app/activities/${id}`).set(bearer(teacher.token)).send({}), 400, 'BAD_REQUEST');
    expectError(await t.api.put(`/teachers-app/activities/${id}`).set(bearer(teacher.token)).send({ status: 'gone' }), 400, 'BAD_REQUEST');
    expectError(await t.api.put(`/teachers-app/activities/${id}`).set(bearer(teacher.token)).send({ title: '' }), 400, 'BAD_REQUEST');
    expectError(await t.api.put('/teachers-app/activities/abc').set(bearer(teacher.token)).send({ title: 'x' }), 400, 'BAD_REQUEST');
  });

  it("answers 404 for another school's activity, a deleted one and an unknown id, before judging the body", async () => {
    const foreign = await create(teacherB, { title: 'B only' }, b.schoolId);
    const deleted = await create(teacher, { title: 'Deleted' });
    expect((await t.api.delete(`/teachers-app/activities/${deleted}`).set(bearer(teacher.token))).status).toBe(200);
    for (const id of [foreign, deleted, 2000000000]) {
      for (const body of [{ title: 'x' }, {}, { title: '', status: 'gone', starts_at: 'soon' }]) {
        expectError(await t.api.put(`/teachers-app/activities/${id}`).set(bearer(principal.token)).send(body), 404, 'NOT_FOUND');
      }
    }
    expectError(await t.api.delete(`/teachers-app/activities/${foreign}`).set(bearer(principal.token)), 404, 'NOT_FOUND');
    // Without activities.create the caller is refused before any record is looked up.
    expectError(await t.api.put(`/teachers-app/activities/${foreign}`).set(bearer(viewer.token)).send({ title: '' }), 403, 'FORBIDDEN');
    const row = await Activity.findByPk(foreign, { raw: true });
    expect(row).toMatchObject({ title: 'B only', deleted_status: 0 });
  });

  it('soft-deletes: the row stays, every list drops it and the id answers 404', async () => {
    const id = await create(teacher, { title: 'Soon gone' });
    expect(ids(await feed(parent1, { limit: 100 }))).toContain(id);
    const res = await t.api.delete(`/teachers-app/activities/${id}`).set(bearer(teacher.token));
    expect(res.status).toBe(200);
    expect(res.body.message).toEqual(expect.any(String));
    expect(await Activity.findByPk(id, { raw: true })).toMatchObject({ id, deleted_status: 1 });
    expectError(await t.api.delete(`/teachers-app/activities/${id}`).set(bearer(teacher.token)), 404, 'NOT_FOUND');
    expectError(await t.api.put(`/teachers-app/activities/${id}`).set(bearer(teacher.token)).send({ status: 'published' }), 404, 'NOT_FOUND');
    expect(ids(await teacherList(teacher, { limit: 100 }))).not.toContain(id);
    expect(ids(await feed(parent1, { limit: 100 }))).not.toContain(id);
    const web = await t.api.get('/web-app/activities').query({ school_id: a.schoolId, limit: 100 }).set(bearer(a.adminToken));
    expect(web.body.data.records.map((r: { id: number }) => r.id)).not.toContain(id);
  });
});

describe("the parent's feed", () => {
  let s: SchoolFixture;
  let tch: Person;
  let fam1: Person;
  let fam2: Person;
  let child1: number;
  let child1b: number;
  let child2: number;
  const made: Record<string, number> = {};

  beforeAll(async () => {
    s = await school(t);
    tch = await staffPerson(s.schoolId, { designation: 'Principal' });
    fam1 = await parentPerson(s.schoolId);
    fam2 = await parentPerson(s.schoolId);
    child1 = (await student(s.schoolId, fam1.id)).id;
    child1b = (await student(s.schoolId, fam1.id)).id;
    child2 = (await student(s.schoolId, fam2.id)).id;
    await StaffStudent.bulkCreate([child1, child1b, child2].map((id) => ({ school_id: s.schoolId, staff_id: tch.id, student_id: id })));
    const make = (key: string, body: Record<string, unknown>) => create(tch, { title: key, ...body }, s.schoolId).then((id) => (made[key] = id));
    await make('wide1', { activity_type: 'event' });
    await make('forChild1', { student_id: child1 });
    await make('forOtherFamily', { student_id: child2, activity_type: 'event' });
    await make('draft', { status: 'draft' });
    await make('cancelled', { status: 'cancelled' });
    await make('forChild1b', { student_id: child1b, activity_type: 'event' });
    await make('wide2', {});
    // Another family's targeted activities far outnumber the page: none may leak onto any page.
    for (let i = 0; i < 25; i++) await make(`other${i}`, { student_id: child2 });
    await make('wide3', {});
  });

  const sfeed = (who: Person, query: Record<string, unknown> = {}) => t.api.get('/parent-app/activities').query(query).set(bearer(who.token));

  it("shows published school-wide activities and those for the parent's children, newest first", async () => {
    const res = await sfeed(fam1);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([made.wide3, made.wide2, made.forChild1b, made.forChild1, made.wide1]);
    expect(res.body.data[0]).toMatchObject({ id: made.wide3, title: 'wide3', activity_type: 'announcement', created_at: expect.any(String) });
  });

  it("never shows another family's targeted activity, on any page", async () => {
    const seen: number[] = [];
    for (let page = 1; page <= 4; page++) seen.push(...ids(await sfeed(fam1, { page, limit: 2 })));
    expect(seen).toEqual([made.wide3, made.wide2, made.forChild1b, made.forChild1, made.wide1]);
    const familyTwo = ids(await sfeed(fam2, { limit: 100 }));
    expect(familyTwo).toContain(made.forOtherFamily);
    expect(familyTwo).not.toContain(made.forChild1);
    expect(familyTwo).toHaveLength(29);
  });

  it('hides drafts, cancelled and deleted activities and other schools', async () => {
    const listed = ids(await sfeed(fam2, { limit: 100 }));
    expect(listed).not.toContain(made.draft);
    expect(listed).not.toContain(made.cancelled);
    const otherSchool = await create(teacherB, { title: 'B wide' }, b.schoolId);
    expect(ids(await sfeed(fam1, { limit: 100 }))).not.toContain(otherSchool);
    expect(ids(await feed(parentB, { limit: 100 }))).toContain(otherSchool);
  });

  it('pages with page and limit, 20 by default', async () => {
    expect(ids(await sfeed(fam1, { page: 2, limit: 2 }))).toEqual([made.forChild1b, made.forChild1]);
    expect(ids(await sfeed(fam1, { page: 9, limit: 2 }))).toEqual([]);
    expect((await sfeed(fam2)).body.data).toHaveLength(20);
    expect((await sfeed(fam2, { limit: 100 })).body.data).toHaveLength(29);
  });

  it('filters by activity_type', async () => {
    expect(ids(await sfeed(fam1, { activity_type: 'event' }))).toEqual([made.forChild1b, made.wide1]);
    expect(ids(await sfeed(fam1, { activity_type: 'announcement' }))).toEqual([made.wide3, made.wide2, made.forChild1]);
  });

  it("narrows to one child with student_id, and refuses another family's child with 403", async () => {
    expect(ids(await sfeed(fam1, { student_id: child1b }))).toEqual([made.wide3, made.wide2, made.forChild1b, made.wide1]);
    expect(ids(await sfeed(fam1, { student_id: child1, activity_type: 'announcement' }))).toEqual([made.wide3, made.wide2, made.forChild1]);
    expectError(await sfeed(fam1, { student_id: child2 }), 403, 'FORBIDDEN');
    expectError(await sfeed(fam1, { student_id: kid1 }), 403, 'FORBIDDEN');
  });

  it('checks its query', async () => {
    expectError(await sfeed(fam1, { limit: 101 }), 400, 'BAD_REQUEST');
    expectError(await sfeed(fam1, { limit: 0 }), 400, 'BAD_REQUEST');
    expectError(await sfeed(fam1, { page: 0 }), 400, 'BAD_REQUEST');
    expectError(await sfeed(fam1, { activity_type: 'party' }), 400, 'BAD_REQUEST');
    expectError(await sfeed(fam1, { student_id: 'abc' }), 400, 'BAD_REQUEST');
    expectError(await sfeed(fam1, { school_id: a.schoolId }), 403, 'FORBIDDEN');
  });

  it('is for parents only', async () => {
    expectError(await t.api.get('/parent-app/activities').set(bearer(tch.token)), 403, 'FORBIDDEN');
  });
});

describe('the web list', () => {
  let s: SchoolFixture;
  let made: number[];
  beforeAll(async () => {
    s = await school(t);
    const author = await staffPerson(s.schoolId, { designation: 'Class Teacher' });
    made = [];
    for (let i = 0; i < 12; i++) made.push(await create(author, { title: `W${i}`, status: i % 3 === 0 ? 'draft' : 'published' }, s.schoolId));
    await t.api.delete(`/teachers-app/activities/${made[0]}`).set(bearer(author.token)).expect(200);
  });
  const web = (token: string, query: Record<string, unknown> = {}) => t.api.get('/web-app/activities').query({ school_id: s.schoolId, ...query }).set(bearer(token));

  it('answers {records, pagination {total, page}} with page 1 and limit 10 by default, drafts included', async () => {
    const res = await web(s.adminToken);
    expect(res.status).toBe(200);
    expect(res.body.data.pagination).toMatchObject({ total: 11, page: 1 });
    expect(res.body.data.records.map((r: { id: number }) => r.id)).toEqual(made.slice(1).reverse().slice(0, 10));
    expect(res.body.data.records.some((r: { status: string }) => r.status === 'draft')).toBe(true);
    const second = await web(s.adminToken, { page: 2 });
    expect(second.body.data.records.map((r: { id: number }) => r.id)).toEqual([made[1]]);
    expect(second.body.data.pagination).toMatchObject({ total: 11, page: 2 });
  });

  it('needs school_id, a sane page and limit, and a school admin', async () => {
    expectError(await t.api.get('/web-app/activities').set(bearer(s.adminToken)), 400, 'BAD_REQUEST');
    expectError(await web(s.adminToken, { limit: 500 }), 400, 'BAD_REQUEST');
    expectError(await web(a.adminToken), 403, 'FORBIDDEN');
    const itContact = await adminUser(t, s.schoolId, 'it_contact');
    expectError(await web(itContact.token), 403, 'FORBIDDEN');
    const admin = await adminUser(t, s.schoolId, 'admin');
    expect((await web(admin.token)).status).toBe(200);
  });
});

describe('the API reference', () => {
  it('documents every activity route', async () => {
    const doc = await t.api.get('/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/parent-app/activities', '/teachers-app/activities', '/teachers-app/activities/{id}', '/web-app/activities']),
    );
    expect(doc.body.paths['/teachers-app/activities'].post.requestBody).toBeDefined();
  });
});
