import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Activity, Notification, Student } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { assign } from '../helpers/classroom.js';
import { bearer, expectError, parent, parentLogin, school, staffLogin, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';

/**
 * Audiences of activities and notices (grades, groups, named students; none is the whole school):
 * who sees what in the feeds and through engagement, the audience's validation and permissions, the
 * list filters, and the push on publish to the audience's families only.
 */
let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;
/** Families of school a: each a parent with a device and one child. */
const fam: Record<'grade5' | 'grade6' | 'bus' | 'named' | 'archived', { id: number; token: string; child: number }> = {} as never;
let teacher: { id: number; token: string };
let manager: { id: number; token: string };
let busGroup: number;
let foreignGroup: number;

async function family(key: keyof typeof fam, grade: string, status: 'active' | 'archived' = 'active') {
  const p = await parent(t.ctx, a.schoolId);
  const child = await student(a.schoolId, p.id, { grade, status });
  const login = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: p.phone, pin: p.pin, school_id: a.schoolId, fcm_token: `device-${key}` });
  fam[key] = { id: p.id, token: login.body.data.access_token, child: child.id };
}

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  b = await school(t);
  await family('grade5', '5');
  await family('grade6', '6');
  await family('bus', '7');
  await family('named', '8');
  await family('archived', '5', 'archived');
  const s = await staffMember(a.schoolId, { rbac: { activities: 'create', noticeboard: 'create' } });
  teacher = { id: s.id, token: await staffLogin(t, s.phone, s.pin, a.schoolId) };
  await assign(a.schoolId, s.id, fam.named.child);
  const m = await staffMember(a.schoolId, { rbac: { activities: 'manage', noticeboard: 'manage' } });
  manager = { id: m.id, token: await staffLogin(t, m.phone, m.pin, a.schoolId) };
  busGroup = (await t.api.post('/web-app/groups').set(bearer(a.adminToken)).send({ name: 'Bus 4', student_ids: [fam.bus.child] })).body.data.id;
  foreignGroup = (await t.api.post('/web-app/groups').set(bearer(b.adminToken)).send({ name: 'Bus 4' })).body.data.id;
});
afterAll(async () => t.close());

const post = (token: string, body: Record<string, unknown>) => t.api.post('/teachers-app/activities').set(bearer(token)).send({ school_id: a.schoolId, ...body });
const feedIds = async (token: string) => ((await t.api.get('/parent-app/activities').set(bearer(token))).body.data as Array<{ id: number }>).map((x) => x.id);

describe('who sees an activity', () => {
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    ids.school = (await post(teacher.token, { title: 'Everyone' })).body.data.id;
    ids.grade5 = (await post(teacher.token, { title: 'Grade 5 trip', audience: { grades: ['5'] } })).body.data.id;
    ids.bus = (await post(teacher.token, { title: 'Bus late', audience: { group_ids: [busGroup] } })).body.data.id;
    ids.named = (await post(teacher.token, { title: 'For one child', audience: { student_ids: [fam.named.child] } })).body.data.id;
    ids.union = (await post(manager.token, { title: 'Grade 6 or the bus', audience: { grades: ['6'], group_ids: [busGroup] } })).body.data.id;
  });

  it('shows each family the school-wide items and those whose audience holds their child', async () => {
    expect((await feedIds(fam.grade5.token)).sort()).toEqual([ids.school, ids.grade5].sort());
    expect((await feedIds(fam.grade6.token)).sort()).toEqual([ids.school, ids.union].sort());
    expect((await feedIds(fam.bus.token)).sort()).toEqual([ids.school, ids.bus, ids.union].sort());
    expect((await feedIds(fam.named.token)).sort()).toEqual([ids.school, ids.named].sort());
  });

  it("opens one item (what a push opens) as the feed shows it, and answers 404 for one the feed would not show", async () => {
    const feedItem = (await t.api.get('/parent-app/activities').set(bearer(fam.bus.token))).body.data.find((x: { id: number }) => x.id === ids.bus);
    const one = await t.api.get(`/parent-app/activities/${ids.bus}`).set(bearer(fam.bus.token));
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(feedItem);
    expect(one.body.data).toMatchObject({ id: ids.bus, title: 'Bus late', read_at: null, audience: { group_ids: [busGroup] } });
    expect((await t.api.post('/parent-app/engagement/read').set(bearer(fam.bus.token)).send({ entity_type: 'activity', entity_id: ids.bus })).status).toBe(200);
    expect((await t.api.get(`/parent-app/activities/${ids.bus}`).set(bearer(fam.bus.token))).body.data.read_at).toEqual(expect.any(String));
    expect((await t.api.get(`/parent-app/activities/${ids.school}`).set(bearer(fam.archived.token))).status).toBe(200);
    for (const [id, token] of [[ids.grade5, fam.grade6.token], [ids.named, fam.bus.token], [ids.bus, fam.archived.token], [999_999, fam.bus.token]] as const) {
      expectError(await t.api.get(`/parent-app/activities/${id}`).set(bearer(token)), 404, 'NOT_FOUND');
    }
    const draft = (await post(teacher.token, { title: 'Not yet', status: 'draft' })).body.data.id;
    expectError(await t.api.get(`/parent-app/activities/${draft}`).set(bearer(fam.grade5.token)), 404, 'NOT_FOUND');
    // Another school's parent, whatever the id.
    const other = await parent(t.ctx, b.schoolId);
    expectError(await t.api.get(`/parent-app/activities/${ids.school}`).set(bearer(await parentLogin(t, other.phone, other.pin, b.schoolId))), 404, 'NOT_FOUND');
    expectError(await t.api.get(`/parent-app/activities/${ids.school}`).set(bearer(teacher.token)), 403, 'FORBIDDEN');
  });

  it('does not count an archived child', async () => {
    expect(await feedIds(fam.archived.token)).toEqual([ids.school]);
  });

  it('answers 404 for an item outside every child\'s audience in comments, reactions and reads', async () => {
    for (const route of [
      t.api.post('/parent-app/engagement/comment').set(bearer(fam.grade6.token)).send({ entity_type: 'activity', entity_id: ids.grade5, content: 'Hi' }),
      t.api.get(`/parent-app/engagement/comments/activity/${ids.grade5}`).set(bearer(fam.grade6.token)),
      t.api.post('/parent-app/engagement/react').set(bearer(fam.grade6.token)).send({ entity_type: 'activity', entity_id: ids.bus, reaction_type: 'like' }),
      t.api.get(`/parent-app/engagement/reactions/activity/${ids.named}`).set(bearer(fam.bus.token)),
    ]) expectError(await route, 404, 'NOT_FOUND');
    expect((await t.api.post('/parent-app/engagement/comment').set(bearer(fam.bus.token)).send({ entity_type: 'activity', entity_id: ids.bus, content: 'Thanks' })).status).toBe(201);
  });

  it('returns the audience in every list (null for the whole school), a parent seeing only their own named children', async () => {
    const teacherList = (await t.api.get('/teachers-app/activities').query({ school_id: a.schoolId }).set(bearer(teacher.token))).body.data as Array<{ id: number; audience: unknown }>;
    expect(teacherList.find((x) => x.id === ids.school)!.audience).toBeNull();
    expect(teacherList.find((x) => x.id === ids.union)!.audience).toEqual({ grades: ['6'], group_ids: [busGroup], student_ids: [] });
    const named = (await t.api.get('/parent-app/activities').set(bearer(fam.named.token))).body.data.find((x: { id: number }) => x.id === ids.named);
    expect(named).toMatchObject({ audience: { student_ids: [fam.named.child] }, student_id: fam.named.child });
    const web = (await t.api.get('/web-app/activities').query({ school_id: a.schoolId, limit: 100 }).set(bearer(a.adminToken))).body.data.records as Array<{ id: number; audience: unknown }>;
    expect(web.find((x) => x.id === ids.grade5)!.audience).toEqual({ grades: ['5'], group_ids: [], student_ids: [] });
  });

  it('filters the teachers\' and web lists by grade and by group', async () => {
    const byGrade = (await t.api.get('/teachers-app/activities').query({ school_id: a.schoolId, grade: '6' }).set(bearer(teacher.token))).body.data.map((x: { id: number }) => x.id);
    expect(byGrade).toEqual([ids.union]);
    const byGroup = (await t.api.get('/web-app/activities').query({ school_id: a.schoolId, group_id: busGroup }).set(bearer(a.adminToken))).body.data.records.map((x: { id: number }) => x.id);
    expect(byGroup.sort()).toEqual([ids.bus, ids.union].sort());
  });

  it('narrows an audience by an edit, and student_id still names one student', async () => {
    const res = await t.api.put(`/teachers-app/activities/${ids.school}`).set(bearer(teacher.token)).send({ student_id: fam.named.child });
    expect(res.body.data).toMatchObject({ student_id: fam.named.child, audience: { student_ids: [fam.named.child], grades: [], group_ids: [] } });
    expect(await feedIds(fam.grade5.token)).not.toContain(ids.school);
    const back = await t.api.put(`/teachers-app/activities/${ids.school}`).set(bearer(teacher.token)).send({ audience: null });
    expect(back.body.data).toMatchObject({ student_id: null, audience: null });
    expect(await feedIds(fam.grade5.token)).toContain(ids.school);
  });
});

describe('audience rules', () => {
  it('answers 400 naming the field and the value for a grade, group or student not of the school, creating nothing', async () => {
    const before = await Activity.count({ where: { school_id: a.schoolId } });
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ grades: ['13'] }, 'audience.grades', '13'],
      [{ group_ids: [foreignGroup] }, 'audience.group_ids', String(foreignGroup)],
      [{ student_ids: [(await Student.findOne({ where: { school_id: b.schoolId }, raw: true }))?.id ?? 999999] }, 'audience.student_ids', ''],
      [{ student_ids: [999999] }, 'audience.student_ids', '999999'],
    ];
    for (const [audience, field, value] of cases) {
      const res = await post(manager.token, { title: 'Nope', audience });
      expectError(res, 400, 'BAD_REQUEST');
      expect(res.body.error.details[0].field).toBe(field);
      expect(res.body.error.details[0].message).toContain(value);
    }
    expectError(await post(manager.token, { title: 'Nope', audience: { grades: 'five' } }), 400, 'BAD_REQUEST');
    // Every bad field at once, each with all of its bad values.
    const several = await post(manager.token, { title: 'Nope', audience: { grades: ['5', '13', '14'], student_ids: [fam.grade5.child, 999998, 999999] } });
    expectError(several, 400, 'BAD_REQUEST');
    expect(several.body.error.details).toEqual([
      { field: 'audience.grades', message: '"13", "14" are not among the school\'s grades' },
      { field: 'audience.student_ids', message: '999998, 999999 are not students of the school' },
    ]);
    expect(await Activity.count({ where: { school_id: a.schoolId } })).toBe(before);
  });

  it('lets staff name only students assigned to them unless they hold activities.manage; grades and groups need activities.create', async () => {
    expectError(await post(teacher.token, { title: 'Not mine', audience: { student_ids: [fam.grade5.child] } }), 403, 'FORBIDDEN');
    expect((await post(manager.token, { title: 'Any child', audience: { student_ids: [fam.grade5.child] } })).status).toBe(201);
    const viewer = await staffMember(a.schoolId, { rbac: { activities: 'view' } });
    expectError(await post(await staffLogin(t, viewer.phone, viewer.pin, a.schoolId), { title: 'No', audience: { grades: ['5'] } }), 403, 'FORBIDDEN');
  });

  it('holds staff posting a notice to the same rules: activities.manage to name any student, activities.create for grades and groups', async () => {
    const notice = async (rbac: Record<string, string>, audience: Record<string, unknown>) => {
      const m = await staffMember(a.schoolId, { rbac });
      const token = await staffLogin(t, m.phone, m.pin, a.schoolId);
      return t.api.post('/teachers-app/noticeboard').set(bearer(token)).send({ school_id: a.schoolId, notice_title: 'Rules', audience });
    };
    const anyChild = { student_ids: [fam.grade5.child] };
    expect((await notice({ noticeboard: 'create', activities: 'manage' }, anyChild)).status).toBe(201);
    expectError(await notice({ noticeboard: 'manage', activities: 'create' }, anyChild), 403, 'FORBIDDEN');
    expect((await notice({ noticeboard: 'create', activities: 'create' }, { grades: ['5'], group_ids: [busGroup] })).status).toBe(201);
    expectError(await notice({ noticeboard: 'manage', activities: 'view' }, { grades: ['5'] }), 403, 'FORBIDDEN');
    expectError(await notice({ noticeboard: 'manage', activities: 'view' }, { group_ids: [busGroup] }), 403, 'FORBIDDEN');
  });

  it('keeps a grade\'s audiences when the grade is renamed', async () => {
    const grade = await t.api.post('/web-app/grades').set(bearer(a.adminToken)).send({ name: 'Class 11-X' });
    expect(grade.status).toBe(201);
    const fam11 = await parent(t.ctx, a.schoolId);
    await student(a.schoolId, fam11.id, { grade: 'Class 11-X' });
    const token = await parentLogin(t, fam11.phone, fam11.pin, a.schoolId);
    const id = (await post(manager.token, { title: 'Grade 11 lab', audience: { grades: ['Class 11-X'] } })).body.data.id;
    expect((await t.api.put(`/web-app/grades/${grade.body.data.id}`).set(bearer(a.adminToken)).send({ name: 'Eleven' })).status).toBe(200);
    expect(await feedIds(token)).toContain(id);
    const listed = await t.api.get('/web-app/activities').query({ school_id: a.schoolId, grade: 'Eleven' }).set(bearer(a.adminToken));
    expect(listed.body.data.records.find((x: { id: number }) => x.id === id)?.audience).toEqual({ grades: ['Eleven'], group_ids: [], student_ids: [] });
    expect((await t.api.put(`/teachers-app/activities/${id}`).set(bearer(manager.token)).send({ audience: { grades: ['Eleven'] } })).status).toBe(200);
  });
});

describe('notices with an audience', () => {
  it('shows a notice to its audience only, and pushes to those families once, on posting', async () => {
    const before = await Notification.count({ where: { school_id: a.schoolId, event: 'notice_published' } });
    const res = await t.api.post('/web-app/noticeboard').set(bearer(a.adminToken)).send({ school_id: a.schoolId, notice_title: 'Grade 5 exam', audience: { grades: ['5'] } });
    expect(res.status).toBe(201);
    expect(res.body.data.audience).toEqual({ grades: ['5'], group_ids: [], student_ids: [] });
    const board = async (token: string) => ((await t.api.get('/parent-app/noticeboard').set(bearer(token))).body.data as Array<{ id: number }>).map((n) => n.id);
    expect(await board(fam.grade5.token)).toContain(res.body.data.id);
    expect(await board(fam.grade6.token)).not.toContain(res.body.data.id);
    expectError(await t.api.post('/parent-app/engagement/comment').set(bearer(fam.grade6.token)).send({ entity_type: 'noticeboard', entity_id: res.body.data.id, content: 'x' }), 404, 'NOT_FOUND');
    const one = await t.api.get(`/parent-app/noticeboard/${res.body.data.id}`).set(bearer(fam.grade5.token));
    expect(one.status).toBe(200);
    expect(one.body.data).toMatchObject({ id: res.body.data.id, notice_title: 'Grade 5 exam', read_at: null, audience: { grades: ['5'] } });
    expectError(await t.api.get(`/parent-app/noticeboard/${res.body.data.id}`).set(bearer(fam.grade6.token)), 404, 'NOT_FOUND');
    const later = await t.api.post('/web-app/noticeboard').set(bearer(a.adminToken)).send({ school_id: a.schoolId, notice_title: 'Later', publish_at: new Date(Date.now() + 3_600_000).toISOString() });
    expectError(await t.api.get(`/parent-app/noticeboard/${later.body.data.id}`).set(bearer(fam.grade5.token)), 404, 'NOT_FOUND');
    const pushes = await Notification.findAll({ where: { school_id: a.schoolId, event: 'notice_published', entity_id: res.body.data.id }, raw: true });
    expect(pushes.map((n) => n.target_id)).toEqual([fam.grade5.id]);
    expect(await Notification.count({ where: { school_id: a.schoolId, event: 'notice_published' } })).toBe(before + 1);
    await t.api.put(`/web-app/noticeboard/${res.body.data.id}`).set(bearer(a.adminToken)).send({ notice_title: 'Grade 5 exam moved' });
    expect(await Notification.count({ where: { school_id: a.schoolId, event: 'notice_published' } })).toBe(before + 1);
  });
});

describe('push on publish', () => {
  const records = (id: number) => Notification.findAll({ where: { school_id: a.schoolId, event: 'activity_published', entity_id: id }, order: [['target_id', 'ASC']], raw: true });
  const pushes = async (id: number) => (await records(id)).filter((n) => n.channel === 'push');

  it('pushes nothing for a draft, once when it is published, and nothing for later edits', async () => {
    const draft = (await post(teacher.token, { title: 'Sports day', status: 'draft', audience: { grades: ['5', '6'] } })).body.data;
    expect(draft.published_at).toBeNull();
    expect(await pushes(draft.id)).toEqual([]);
    const published = await t.api.put(`/teachers-app/activities/${draft.id}`).set(bearer(teacher.token)).send({ status: 'published' });
    expect(published.body.data.published_at).toEqual(expect.any(String));
    const sent = await pushes(draft.id);
    expect(sent.map((n) => [n.target_id, n.address, n.title])).toEqual([[fam.grade5.id, 'device-grade5', 'Sports day'], [fam.grade6.id, 'device-grade6', 'Sports day']].sort((x, y) => Number(x[0]) - Number(y[0])));
    await t.api.put(`/teachers-app/activities/${draft.id}`).set(bearer(teacher.token)).send({ title: 'Sports day (moved)' });
    await t.api.put(`/teachers-app/activities/${draft.id}`).set(bearer(teacher.token)).send({ status: 'cancelled' });
    await t.api.put(`/teachers-app/activities/${draft.id}`).set(bearer(teacher.token)).send({ status: 'published' });
    expect(await pushes(draft.id)).toHaveLength(2);
  });

  it('pushes a school-wide activity to every family with a device, never an archived-only family', async () => {
    const id = (await post(teacher.token, { title: 'Holiday' })).body.data.id;
    const targets = (await pushes(id)).map((n) => n.target_id);
    expect(targets.sort()).toEqual([fam.grade5.id, fam.grade6.id, fam.bus.id, fam.named.id].sort());
    // A family without a device is told by SMS instead; a family whose only child is archived is told nothing by any channel.
    const all = await records(id);
    expect(all.filter((n) => n.channel !== 'push').every((n) => n.channel === 'sms' && !Object.values(fam).some((f) => f.id === n.target_id))).toBe(true);
    expect(all.some((n) => n.target_id === fam.archived.id)).toBe(false);
  });
});
