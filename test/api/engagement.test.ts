import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Comment, Reaction } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { activity, diaryEntry, notice, writeTo } from '../helpers/classroom.js';
import { bearer, expectError, parent, parentLogin, school, staffLogin, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';

let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;
let p1: { id: number; token: string };
let p2: { id: number; token: string };
let staffToken: string;
const visible: Record<string, number> = {};
const hidden: Record<string, [string, number]> = {};

async function family(schoolId: string, grade: string, fatherName: string) {
  const p = await parent(t.ctx, schoolId, { father_name: fatherName });
  const child = await student(schoolId, p.id, { grade });
  return { id: p.id, child: child.id, token: await parentLogin(t, p.phone, p.pin, schoolId) };
}

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  b = await school(t);
  const f1 = await family(a.schoolId, '5', 'Ravi Rao');
  const f2 = await family(a.schoolId, '6', 'Arun Das');
  p1 = f1;
  p2 = f2;
  const other = await parent(t.ctx, b.schoolId);
  const otherChild = await student(b.schoolId, other.id, { grade: '5' });
  const teacher = await staffMember(a.schoolId);
  const teacherB = await staffMember(b.schoolId);
  staffToken = await staffLogin(t, teacher.phone, teacher.pin, a.schoolId);

  visible.schoolWideActivity = await activity(a.schoolId, teacher.id);
  visible.childActivity = await activity(a.schoolId, teacher.id, { student_id: f1.child });
  visible.notice = await notice(a.schoolId);
  visible.ownThread = await writeTo(a.schoolId, f1.id, f1.child);
  visible.gradeDiary = await diaryEntry(a.schoolId, teacher.id, { grade: '5' });
  visible.childDiary = await diaryEntry(a.schoolId, teacher.id, { student_id: f1.child });

  hidden.otherFamilyActivity = ['activity', await activity(a.schoolId, teacher.id, { student_id: f2.child })];
  hidden.otherSchoolActivity = ['activity', await activity(b.schoolId, teacherB.id)];
  hidden.draftActivity = ['activity', await activity(a.schoolId, teacher.id, { status: 'draft' })];
  hidden.cancelledActivity = ['activity', await activity(a.schoolId, teacher.id, { status: 'cancelled' })];
  hidden.deletedActivity = ['activity', await activity(a.schoolId, teacher.id, { deleted: true })];
  hidden.deletedNotice = ['noticeboard', await notice(a.schoolId, { deleted: true })];
  hidden.otherSchoolNotice = ['noticeboard', await notice(b.schoolId)];
  hidden.otherParentThread = ['write_to', await writeTo(a.schoolId, f2.id, f2.child)];
  hidden.otherSchoolThread = ['write_to', await writeTo(b.schoolId, other.id, otherChild.id)];
  hidden.otherGradeDiary = ['diary', await diaryEntry(a.schoolId, teacher.id, { grade: '6' })];
  hidden.otherChildDiary = ['diary', await diaryEntry(a.schoolId, teacher.id, { student_id: f2.child })];
  hidden.deletedDiary = ['diary', await diaryEntry(a.schoolId, teacher.id, { grade: '5' }, { deleted: true })];
  hidden.otherSchoolDiary = ['diary', await diaryEntry(b.schoolId, teacherB.id, { grade: '5' })];
  hidden.missingActivity = ['activity', 2_000_000_000];
});
afterAll(async () => t.close());

const typeOf: Record<string, string> = {
  schoolWideActivity: 'activity', childActivity: 'activity', notice: 'noticeboard', ownThread: 'write_to', gradeDiary: 'diary', childDiary: 'diary',
};

describe('comments', () => {
  it('lets a parent comment on everything they can see, answering 201 with the comment', async () => {
    for (const [key, entityId] of Object.entries(visible)) {
      const res = await t.api.post('/parent-app/engagement/comment').set(bearer(p1.token))
        .send({ entity_type: typeOf[key], entity_id: entityId, content: `  About ${key}  ` });
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({
        id: expect.any(Number), entity_type: typeOf[key], entity_id: entityId, content: `About ${key}`, parent_id: p1.id,
        author_name: 'Ravi Rao', created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      });
    }
  });

  it('answers 404 for anything the parent cannot see, and saves nothing', async () => {
    const before = await Comment.count();
    for (const [key, [type, entityId]] of Object.entries(hidden)) {
      const post = await t.api.post('/parent-app/engagement/comment').set(bearer(p1.token)).send({ entity_type: type, entity_id: entityId, content: 'Hi' });
      const list = await t.api.get(`/parent-app/engagement/comments/${type}/${entityId}`).set(bearer(p1.token));
      expect({ key, post: post.status, list: list.status }).toEqual({ key, post: 404, list: 404 });
      expectError(post, 404, 'NOT_FOUND');
    }
    expect(await Comment.count()).toBe(before);
  });

  it('refuses a bad entity_type, a bad entity_id and empty or too long content with 400', async () => {
    const send = (body: Record<string, unknown>) => t.api.post('/parent-app/engagement/comment').set(bearer(p1.token)).send(body);
    const id = visible.notice;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ entity_type: 'photo', entity_id: id, content: 'Hi' }, 'entity_type'],
      [{ entity_id: id, content: 'Hi' }, 'entity_type'],
      [{ entity_type: 'noticeboard', entity_id: 0, content: 'Hi' }, 'entity_id'],
      [{ entity_type: 'noticeboard', entity_id: 'abc', content: 'Hi' }, 'entity_id'],
      [{ entity_type: 'noticeboard', entity_id: id, content: '' }, 'content'],
      [{ entity_type: 'noticeboard', entity_id: id, content: '   \n ' }, 'content'],
      [{ entity_type: 'noticeboard', entity_id: id }, 'content'],
      [{ entity_type: 'noticeboard', entity_id: id, content: 'x'.repeat(2001) }, 'content'],
    ];
    for (const [body, field] of cases) {
      const res = await send(body);
      expectError(res, 400, 'BAD_REQUEST');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect((await send({ entity_type: 'noticeboard', entity_id: id, content: 'x'.repeat(2000) })).status).toBe(201);
    expectError(await t.api.get(`/parent-app/engagement/comments/photo/${id}`).set(bearer(p1.token)), 400, 'BAD_REQUEST');
  });

  it('lists comments oldest first without deleted ones; only the author can delete', async () => {
    const id = await notice(a.schoolId);
    const post = async (token: string, content: string) =>
      (await t.api.post('/parent-app/engagement/comment').set(bearer(token)).send({ entity_type: 'noticeboard', entity_id: id, content })).body.data.id as number;
    const first = await post(p1.token, 'first');
    const second = await post(p2.token, 'second');
    const third = await post(p1.token, 'third');

    const list = await t.api.get(`/parent-app/engagement/comments/noticeboard/${id}`).set(bearer(p2.token));
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: { content: string; author_name: string }) => [c.content, c.author_name])).toEqual([
      ['first', 'Ravi Rao'], ['second', 'Arun Das'], ['third', 'Ravi Rao'],
    ]);

    expectError(await t.api.delete(`/parent-app/engagement/comments/${first}`).set(bearer(p2.token)), 404, 'NOT_FOUND');
    const del = await t.api.delete(`/parent-app/engagement/comments/${first}`).set(bearer(p1.token));
    expect(del.status).toBe(200);
    expect(del.body.success).toBe(true);
    expectError(await t.api.delete(`/parent-app/engagement/comments/${first}`).set(bearer(p1.token)), 404, 'NOT_FOUND');

    const after = await t.api.get(`/parent-app/engagement/comments/noticeboard/${id}`).set(bearer(p1.token));
    expect(after.body.data.map((c: { id: number }) => c.id)).toEqual([second, third]);
    expect((await Comment.findByPk(first))?.deleted_status).toBe(1);
  });

  it('keeps a parent of another school from deleting a comment', async () => {
    const other = await parent(t.ctx, b.schoolId);
    const token = await parentLogin(t, other.phone, other.pin, b.schoolId);
    const id = (await t.api.post('/parent-app/engagement/comment').set(bearer(p1.token)).send({ entity_type: 'noticeboard', entity_id: visible.notice, content: 'mine' })).body.data.id;
    expectError(await t.api.delete(`/parent-app/engagement/comments/${id}`).set(bearer(token)), 404, 'NOT_FOUND');
  });

  it('refuses a staff token on the parent engagement routes', async () => {
    const res = await t.api.post('/parent-app/engagement/comment').set(bearer(staffToken)).send({ entity_type: 'noticeboard', entity_id: visible.notice, content: 'Hi' });
    expectError(res, 403, 'FORBIDDEN');
  });
});

describe('reactions', () => {
  const react = (token: string, entity_id: number, reaction_type: string, entity_type = 'noticeboard') =>
    t.api.post('/parent-app/engagement/react').set(bearer(token)).send({ entity_type, entity_id, reaction_type });
  const stats = (token: string, entity_id: number, type = 'noticeboard') => t.api.get(`/parent-app/engagement/reactions/${type}/${entity_id}`).set(bearer(token));

  it('toggles: added, changed, removed, with the counts', async () => {
    const id = await notice(a.schoolId);
    expect((await stats(p1.token, id)).body.data).toEqual({ like: 0, love: 0, my_reaction: null });

    let res = await react(p1.token, id, 'like');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ action: 'added', reaction_type: 'like', counts: { like: 1, love: 0 } });
    res = await react(p2.token, id, 'like');
    expect(res.body.data).toEqual({ action: 'added', reaction_type: 'like', counts: { like: 2, love: 0 } });
    res = await react(p1.token, id, 'love');
    expect(res.body.data).toEqual({ action: 'changed', reaction_type: 'love', counts: { like: 1, love: 1 } });
    expect((await stats(p1.token, id)).body.data).toEqual({ like: 1, love: 1, my_reaction: 'love' });
    expect((await stats(p2.token, id)).body.data).toEqual({ like: 1, love: 1, my_reaction: 'like' });
    res = await react(p1.token, id, 'love');
    expect(res.body.data).toEqual({ action: 'removed', reaction_type: null, counts: { like: 1, love: 0 } });
    expect((await stats(p1.token, id)).body.data).toEqual({ like: 1, love: 0, my_reaction: null });
  });

  it('reacts on every visible entity type', async () => {
    for (const [key, entityId] of Object.entries(visible)) {
      const res = await react(p1.token, entityId, 'love', typeOf[key]);
      expect({ key, action: res.body.data?.action }).toEqual({ key, action: 'added' });
    }
  });

  it('answers 404 for entities the parent cannot see, 400 for a bad type', async () => {
    for (const [key, [type, entityId]] of Object.entries(hidden)) {
      const res = await react(p1.token, entityId, 'like', type);
      const st = await stats(p1.token, entityId, type);
      expect({ key, react: res.status, stats: st.status }).toEqual({ key, react: 404, stats: 404 });
    }
    expect(await Reaction.count({ where: { parent_id: p1.id, entity_type: 'activity', entity_id: hidden.otherFamilyActivity[1] } })).toBe(0);
    expectError(await react(p1.token, visible.notice, 'angry'), 400, 'BAD_REQUEST');
    expectError(await react(p1.token, visible.notice, 'like', 'photo'), 400, 'BAD_REQUEST');
    expectError(await stats(p1.token, visible.notice, 'photo'), 400, 'BAD_REQUEST');
    expectError(await stats(p1.token, -3), 400, 'BAD_REQUEST');
  });

  /** Rows per parent and rows per type, straight from the table. */
  async function tableState(entityId: number) {
    const rows = await Reaction.findAll({ where: { school_id: a.schoolId, entity_type: 'noticeboard', entity_id: entityId }, raw: true });
    const perParent = new Map<number, number>();
    for (const r of rows) perParent.set(r.parent_id, (perParent.get(r.parent_id) ?? 0) + 1);
    return { rows, perParent, like: rows.filter((r) => r.reaction_type === 'like').length, love: rows.filter((r) => r.reaction_type === 'love').length };
  }

  it('keeps one reaction per parent under 20 concurrent toggles of the same type', async () => {
    const id = await notice(a.schoolId);
    const results = await Promise.all(Array.from({ length: 20 }, () => react(p1.token, id, 'like')));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    const actions = results.map((r) => r.body.data.action as string);
    const added = actions.filter((x) => x === 'added').length;
    const removed = actions.filter((x) => x === 'removed').length;
    expect(added + removed).toBe(20);
    // Every toggle flipped the state once, so the adds and removes alternate: an even count ends with none.
    expect(added - removed).toBe(0);
    const state = await tableState(id);
    expect(state.rows).toHaveLength(0);
    expect((await stats(p1.token, id)).body.data).toEqual({ like: 0, love: 0, my_reaction: null });
  });

  it('keeps one reaction per parent under concurrent mixed toggles from several parents', async () => {
    const id = await notice(a.schoolId);
    const parents = [p1, p2];
    for (let i = 0; i < 3; i++) {
      const p = await parent(t.ctx, a.schoolId);
      parents.push({ id: p.id, token: await parentLogin(t, p.phone, p.pin, a.schoolId) });
    }
    const calls = parents.flatMap((p) => Array.from({ length: 9 }, (_, i) => ({ p, type: i % 3 === 0 ? 'love' : 'like' })));
    const results = await Promise.all(calls.map(({ p, type }) => react(p.token, id, type)));
    expect(results.map((r) => r.status)).toEqual(Array(calls.length).fill(200));

    const state = await tableState(id);
    for (const p of parents) expect(state.perParent.get(p.id) ?? 0).toBeLessThanOrEqual(1);
    expect(state.rows.length).toBe(state.like + state.love);
    const seen = await stats(p1.token, id);
    expect({ like: seen.body.data.like, love: seen.body.data.love }).toEqual({ like: state.like, love: state.love });
    const mine = state.rows.find((r) => r.parent_id === p1.id)?.reaction_type ?? null;
    expect(seen.body.data.my_reaction).toBe(mine);

    // One more toggle each, now in sequence, still agrees with the table.
    for (const p of parents) {
      const res = await react(p.token, id, 'love');
      const after = await tableState(id);
      expect(res.body.data.counts).toEqual({ like: after.like, love: after.love });
      expect(after.perParent.get(p.id) ?? 0).toBeLessThanOrEqual(1);
    }
  });
});

describe('API reference', () => {
  it('documents the engagement, diary and attendance routes', async () => {
    const doc = await t.api.get('/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining([
      '/parent-app/engagement/comment', '/parent-app/engagement/comments/{type}/{id}', '/parent-app/engagement/comments/{id}',
      '/parent-app/engagement/react', '/parent-app/engagement/reactions/{type}/{id}',
      '/teachers-app/diary', '/teachers-app/diary/{id}', '/parent-app/diary', '/teachers-app/attendance', '/parent-app/attendance',
    ]));
    const react = doc.body.paths['/parent-app/engagement/react'].post;
    expect(react.requestBody.content['application/json'].schema.properties.entity_type.enum).toEqual(['activity', 'diary', 'write_to', 'noticeboard']);
    expect(Object.keys(doc.body.paths['/parent-app/engagement/comment'].post.responses)).toEqual(expect.arrayContaining(['201', '400', '404']));
  });
});
