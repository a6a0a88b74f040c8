import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Model, ModelStatic } from 'sequelize';
import { z } from 'zod';
import type { RegisteredRoute } from '../../src/api/route.js';
import {
  Activity, AdminUser, allModels, Attendance, Comment, Designation, DiaryEntry, Form, FormResponse, Grade, Group, GroupMember, Notice, Notification, Reaction,
  StaffStudent, Webhook, WebhookDelivery, WriteToReply, WriteToRequest,
} from '../../src/models/index.js';
import type { UserType } from '../../src/models/session.js';
import { issueSession } from '../../src/services/auth/sessions.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { bearer, parent, school, staffMember, student } from '../helpers/fixtures.js';

/**
 * The tenant isolation matrix, generated from the registered routes so that a new route cannot
 * escape it. School A holds records whose every text carries a marker; school B's parent, staff
 * and admin tokens call every authenticated route with A's ids in the path, the query and the body.
 * Nothing that names A's records may succeed, no answer may carry A's marker, and A's rows stay
 * exactly as they were. Every route also refuses the other apps' tokens.
 */
const MARK = 'ZZSECRETA';
const today = new Date().toISOString().slice(0, 10);

let t: TestApp;
const A: Record<string, number> = {};
let aSchool: string;
let bSchool: string;
const users: Record<'A' | 'B', Record<UserType, number>> = { A: {} as Record<UserType, number>, B: {} as Record<UserType, number> };

async function token(side: 'A' | 'B', type: UserType): Promise<string> {
  const issued = await issueSession(t.ctx, { type, id: users[side][type], schoolId: side === 'A' ? aSchool : bSchool }, {});
  return issued.access_token;
}

const appOf: Record<string, UserType> = { 'parent-app': 'parent', 'teachers-app': 'staff', 'web-app': 'admin' };

/** Which of A's records a path parameter names, by the path segment before it. */
const idBySegment: Record<string, () => number> = {
  sessions: () => A.session,
  comments: () => A.comment,
  reactions: () => A.activity,
  'write-to': () => A.writeTo,
  diary: () => A.diary,
  activities: () => A.activity,
  students: () => A.student,
  admins: () => A.admin,
  staff: () => A.staff,
  designations: () => A.designation,
  noticeboard: () => A.notice,
  grades: () => A.grade,
  groups: () => A.group,
  webhooks: () => A.webhook,
  forms: () => A.form,
  responses: () => A.response,
  parents: () => A.parent,
};

/** A's ids put into any body or query field that names a record. */
function foreignFields(keys: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    if (k === 'student_id') out[k] = A.student;
    if (k === 'student_ids') out[k] = [A.student];
    if (['staff_id', 'assigned_staff_id', 'class_teacher_id'].includes(k)) out[k] = A.staff;
    if (k === 'parent_id') out[k] = A.parent;
    if (k === 'entity_id') out[k] = A.activity;
    if (k === 'entity_type') out[k] = 'activity';
    if (k === 'write_to_id') out[k] = A.writeTo;
    if (k === 'records') out[k] = [{ student_id: A.student, status: 'present' }];
  }
  return out;
}

const keysOf = (schema: unknown): string[] => (schema instanceof z.ZodObject ? Object.keys(schema.shape) : []);

interface Call {
  path: string;
  namesForeign: boolean;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
}

function buildCall(route: RegisteredRoute): Call | string {
  let namesForeign = false;
  let path = route.path;
  for (const match of route.path.matchAll(/:([a-z_]+)/g)) {
    const name = match[1]!;
    if (name === 'type') {
      path = path.replace(':type', 'activity');
      continue;
    }
    // The segment naming the record: the last literal one before the parameter (/comments/:type/:id -> comments).
    const segment = route.path.slice(0, match.index).split('/').filter((p) => p && !p.startsWith(':')).at(-1)!;
    // After :type the id is the entity's (an activity of A), not a comment's or a reaction's.
    const id = route.path.includes(':type') ? () => A.activity : idBySegment[segment];
    if (!id) return `no mapping for :${name} after /${segment}/ in ${route.method.toUpperCase()} ${route.path}`;
    path = path.replace(`:${name}`, String(id()));
    namesForeign = true;
  }
  const queryKeys = keysOf(route.spec.query);
  const bodyKeys = keysOf(route.spec.body);
  const query: Record<string, unknown> = { ...foreignFields(queryKeys) };
  if (queryKeys.includes('school_id')) query.school_id = bSchool;
  if (queryKeys.includes('date')) query.date = today;
  const body: Record<string, unknown> = { ...((route.spec.example as Record<string, unknown>) ?? {}), ...foreignFields(bodyKeys) };
  if (bodyKeys.includes('school_id')) body.school_id = bSchool;
  // A webhook URL that needs no name lookup and, refused as loopback, is never called.
  if (bodyKeys.includes('url')) body.url = 'http://127.0.0.1:9/hooks';
  // The audit log's entity_id and actor_id are filters over the school's own events, which may name
  // records long deleted or erased: another school's id matches nothing (an empty page, checked below
  // for any of A's data), rather than being refused.
  const opaqueFilters = route.path === '/web-app/audit-log';
  if (!opaqueFilters && Object.keys(foreignFields([...queryKeys, ...bodyKeys])).some((k) => k !== 'entity_type')) namesForeign = true;
  return { path, namesForeign, query, body };
}

async function send(route: RegisteredRoute, call: Call, tok: string) {
  const req = t.api[route.method](call.path).query(call.query as Record<string, string>).set(bearer(tok));
  return route.method === 'get' || route.method === 'delete' ? req : req.send(call.body);
}

async function snapshotA(): Promise<string> {
  const parts: unknown[] = [];
  for (const model of allModels as unknown as ModelStatic<Model>[]) {
    if (!('school_id' in model.getAttributes()) || ['sessions', 'login_lockouts'].includes(model.getTableName() as string)) continue;
    const rows = await (model as unknown as { findAll(o: object): Promise<Array<Record<string, unknown>>> }).findAll({
      where: { school_id: aSchool }, raw: true, order: [[model.primaryKeyAttribute, 'ASC']],
    });
    // The walk signs A's users in itself (token()): their sessions are left out above, and so are those sign-ins' events.
    const own = model.getTableName() === 'audit_events' ? rows.filter((r) => r.action !== 'login.success') : rows;
    parts.push([model.getTableName(), own.map((r) => ({ ...r, updated_at: undefined, last_seen_at: undefined }))]);
  }
  return JSON.stringify(parts);
}

let before: string;

beforeAll(async () => {
  t = await startTestApp();
  const a = await school(t);
  const b = await school(t);
  aSchool = a.schoolId;
  bSchool = b.schoolId;

  const pa = await parent(t.ctx, aSchool, { father_name: `${MARK} father` });
  const sa = await student(aSchool, pa.id, { name: `${MARK} child`, roll_no: `${MARK}-1` });
  const ta = await staffMember(aSchool, { name: `${MARK} teacher`, designation: 'Principal' });
  await StaffStudent.create({ school_id: aSchool, staff_id: ta.id, student_id: sa.id });
  const admin = await AdminUser.create({ school_id: aSchool, name: `${MARK} admin`, email: `zz-${aSchool}@x.example`, password_hash: 'x', role: 'admin' });
  const activity = await Activity.create({
    school_id: aSchool, title: `${MARK} activity`, description: MARK, staff_id: ta.id, status: 'published', activity_type: 'event', starts_at: new Date(), span_end: new Date(Date.now() + 3_600_000), location: MARK,
  });
  const form = await Form.create({ school_id: aSchool, entity_type: 'activity', entity_id: activity.id, questions: [{ id: 'q', type: 'text', label: `${MARK} question`, required: false }], counts: {} });
  await Activity.update({ form_id: form.id }, { where: { id: activity.id } });
  const response = await FormResponse.create({ school_id: aSchool, form_id: form.id, parent_id: pa.id, student_id: sa.id, respondent: `student:${sa.id}`, answers: { q: MARK }, submitted_at: new Date() });
  await Activity.create({ school_id: aSchool, title: `${MARK} targeted`, staff_id: ta.id, student_id: sa.id, status: 'published' });
  const notice = await Notice.create({ school_id: aSchool, notice_title: `${MARK} notice`, notice_desc: MARK, is_important: true, published_at: new Date() });
  const writeTo = await WriteToRequest.create({ school_id: aSchool, parent_id: pa.id, student_id: sa.id, type: 'query', subject: `${MARK} subject`, message: MARK });
  await WriteToReply.create({ school_id: aSchool, write_to_id: writeTo.id, author_type: 'staff', author_id: ta.id, author_name: MARK, message: `${MARK} reply` });
  const comment = await Comment.create({ school_id: aSchool, entity_type: 'activity', entity_id: activity.id, parent_id: pa.id, content: `${MARK} comment` });
  await Reaction.create({ school_id: aSchool, entity_type: 'activity', entity_id: activity.id, parent_id: pa.id, reaction_type: 'love' });
  const diary = await DiaryEntry.create({ school_id: aSchool, staff_id: ta.id, grade: '5', student_id: null, title: `${MARK} diary`, description: MARK });
  await Attendance.create({ school_id: aSchool, student_id: sa.id, date: today, status: 'absent' });
  const designation = await Designation.create({ school_id: aSchool, name: `${MARK} role`, rbac: { diary: 'view' } });
  const grade = await Grade.create({ school_id: aSchool, name: `${MARK} grade` });
  await Notification.create({ school_id: aSchool, event: 'test_push', target_type: 'parent', target_id: pa.id, title: `${MARK} push`, body: MARK });
  const group = await Group.create({ school_id: aSchool, name: `${MARK} group`, description: MARK });
  await GroupMember.create({ school_id: aSchool, group_id: group.id, student_id: sa.id });
  const webhook = await Webhook.create({ school_id: aSchool, url: `https://${MARK.toLowerCase()}.example/hooks`, events: ['*'], secret: MARK });
  await WebhookDelivery.create({
    school_id: aSchool, webhook_id: webhook.id, event_id: '00000000-0000-4000-8000-000000000001', event: 'notice.published', payload: JSON.stringify({ title: MARK }),
    status: 'failed', last_error: MARK,
  });
  Object.assign(A, {
    parent: pa.id, student: sa.id, staff: ta.id, admin: admin.id, activity: activity.id, notice: notice.id, writeTo: writeTo.id,
    comment: comment.id, diary: diary.id, designation: designation.id, grade: grade.id, group: group.id, webhook: webhook.id, form: form.id, response: response.id,
  });
  users.A = { parent: pa.id, staff: ta.id, admin: a.adminId };
  A.session = (await issueSession(t.ctx, { type: 'parent', id: pa.id, schoolId: aSchool }, { device_name: `${MARK} phone` })).session_id;

  const pb = await parent(t.ctx, bSchool);
  const sb = await student(bSchool, pb.id);
  const tb = await staffMember(bSchool, { designation: 'Principal' });
  await StaffStudent.create({ school_id: bSchool, staff_id: tb.id, student_id: sb.id });
  users.B = { parent: pb.id, staff: tb.id, admin: b.adminId };
  before = await snapshotA();
});
afterAll(async () => t.close());

const authenticated = () => t.routes.filter((r) => r.spec.auth !== false && r.app);

describe('tenant isolation matrix', () => {
  it('maps every authenticated route', () => {
    const unmapped = authenticated().map(buildCall).filter((c): c is string => typeof c === 'string');
    expect(unmapped).toEqual([]);
    expect(authenticated().length).toBeGreaterThan(60);
  });

  it("never lets another school's token reach school A's records or see its data", async () => {
    const breaches: string[] = [];
    for (const route of authenticated()) {
      const call = buildCall(route) as Call;
      const res = await send(route, call, await token('B', appOf[route.app!]!));
      const text = JSON.stringify(res.body);
      const label = `${route.method.toUpperCase()} ${route.path}`;
      if (call.namesForeign && res.status < 300) breaches.push(`${label} answered ${res.status} for school A's ids: ${text.slice(0, 200)}`);
      if (text.includes(MARK)) breaches.push(`${label} showed school A's data: ${text.slice(0, 200)}`);
      if (res.status >= 500) breaches.push(`${label} failed with ${res.status}`);
    }
    expect(breaches).toEqual([]);
  }, 300_000);

  it("refuses every other app's token on every route with 403", async () => {
    const wrong: string[] = [];
    for (const route of authenticated()) {
      const call = buildCall(route) as Call;
      for (const type of ['parent', 'staff', 'admin'] as UserType[]) {
        if (type === appOf[route.app!]) continue;
        const res = await send(route, call, await token('A', type));
        if (res.status !== 403) wrong.push(`${route.method.toUpperCase()} ${route.path} with a ${type} token: ${res.status}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 300_000);

  it("answers 404 to every change or action on school A's records before judging its body", async () => {
    const wrong: string[] = [];
    for (const route of authenticated().filter((r) => r.method !== 'get' && r.path.includes(':'))) {
      const call = buildCall(route) as Call;
      // Every field of the body the wrong type: judged first, it would be a 400.
      const body = Object.fromEntries(keysOf(route.spec.body).filter((k) => k !== 'school_id').map((k) => [k, { wrong: [] }]));
      const res = await send(route, { ...call, body }, await token('B', appOf[route.app!]!));
      if (res.status !== 404) wrong.push(`${route.method.toUpperCase()} ${route.path}: ${res.status} ${JSON.stringify(res.body).slice(0, 120)}`);
    }
    expect(wrong).toEqual([]);
  }, 300_000);

  it("shows school A's own lists its data, so the marker check above can see a leak", async () => {
    const seen = new Set<string>();
    for (const route of authenticated().filter((r) => r.method === 'get' && !r.path.includes(':'))) {
      const query: Record<string, string> = {};
      if (keysOf(route.spec.query).includes('school_id')) query.school_id = aSchool;
      if (keysOf(route.spec.query).includes('date')) query.date = today;
      const res = await t.api.get(route.path).query(query).set(bearer(await token('A', appOf[route.app!]!)));
      if (JSON.stringify(res.body).includes(MARK)) seen.add(route.path);
    }
    expect([...seen]).toEqual(expect.arrayContaining(['/parent-app/activities', '/parent-app/noticeboard', '/web-app/students', '/web-app/staff', '/teachers-app/write-to', '/web-app/write-to', '/parent-app/calendar', '/teachers-app/calendar']));
  }, 300_000);

  it("leaves every row of school A as it was", async () => {
    expect(await snapshotA()).toEqual(before);
  });
});
