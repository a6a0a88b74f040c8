import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import jwt from 'jsonwebtoken';
import type { Response } from 'supertest';
import { allModels } from '../../src/models/index.js';
import { createLinks } from '../../src/services/delivery/links.js';
import type { RegisteredRoute } from '../../src/api/route.js';
import { startTestApp, TEST_JWT_SECRET, type TestApp } from '../helpers/app.js';
import { ADMIN_PASSWORD, bearer, parent, school, student, uniquePhone, type SchoolFixture } from '../helpers/fixtures.js';

/**
 * No answer ever carries a secret or the server's insides: sign in as every kind of user, create one
 * record of each kind through the API, walk every GET route of the registered list with ids of the
 * caller's own records, and scan every body seen (logins and sign-ups included) for bcrypt hashes,
 * raw session tokens, stored SHA-256 token hashes, device tokens, the signing secret, stack traces
 * and SQL.
 */
let t: TestApp;
let a: SchoolFixture;
const seen: Array<{ what: string; status: number; text: string }> = [];
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};
const deviceTokens: string[] = [];
let admissionToken: string;
let pinSetupToken: string;
let webhookSecret: string;
let calendarToken: string;
/** The token of each kind of link a message carries, by its page's path segment. */
const linkTokens: Record<string, string> = {};
let unmapped: string[] = [];
const today = new Date().toISOString().slice(0, 10);

function record(what: string, res: Response): Response {
  seen.push({ what, status: res.status, text: res.text });
  return res;
}

/** A setup step through the API: it must succeed, and its answer is scanned like every other. */
async function step(what: string, res: Promise<Response>): Promise<Record<string, any>> {
  const done = record(what, await res);
  if (done.status >= 300) throw new Error(`setup step "${what}" answered ${done.status}: ${done.text}`);
  return done.body.data;
}

beforeAll(async () => {
  // The webhook's URL is never called: no worker runs here.
  t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  a = await school(t);
  tokens.super_admin = a.adminToken;
  const web = () => bearer(a.adminToken);

  record('signup', await t.api.post('/web-app/signup').send({ name: 'Other Head', email: 'head@other.example', password: 'a long password', school_id: 'other-school' }));
  record('failed signin', await t.api.post('/web-app/signin').send({ email: a.adminEmail, password: 'wrong password' }));
  record('failed parent login', await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: '9000000000', pin: '0000' }));
  record('failed staff login', await t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: '9000000000', pin: '0000', school_id: a.schoolId }));

  for (const role of ['admin', 'it_contact'] as const) {
    const email = `${role}@${a.schoolId}.example.org`;
    ids[`admin_${role}`] = (await step(`create ${role}`, t.api.post('/web-app/admins').set(web()).send({ name: `An ${role}`, email, password: ADMIN_PASSWORD, role }))).id;
    tokens[role] = (await step(`${role} signin`, t.api.post('/web-app/signin').send({ email, password: ADMIN_PASSWORD }))).access_token;
  }

  const family = await parent(t.ctx, a.schoolId, { pin: '2468' });
  const child = await student(a.schoolId, family.id, { grade: '5' });
  ids.parent = family.id;
  ids.student = child.id;
  deviceTokens.push('fcm-parent-device-token-0123456789');
  tokens.parent = (
    await step('parent login', t.api.post('/parent-app/parent-auth-verification').send({ phone_no: family.phone, pin: '2468', fcm_token: deviceTokens[0], device_id: 'phone-1', device_name: 'Parent phone' }))
  ).access_token;

  const allFeatures = { activities: 'manage', noticeboard: 'manage', students: 'manage', write_to: 'manage', attendance: 'manage', diary: 'manage' };
  const staffPhone = uniquePhone();
  ids.staff = (await step('create staff', t.api.post('/web-app/staff').set(web()).send({ name: 'Anita Desai', designation: 'Class Teacher', phone_no: staffPhone, email: 'anita@greenwood.example', pin: '4321', rbac: allFeatures }))).id;
  await step('assign student', t.api.post(`/web-app/staff/${ids.staff}/assign-students`).set(web()).send({ student_ids: [ids.student] }));
  deviceTokens.push('fcm-staff-device-token-9876543210');
  tokens.staff = (
    await step('staff login', t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: staffPhone, pin: '4321', school_id: a.schoolId, fcm_token: deviceTokens[1], device_name: 'Staff tablet' }))
  ).access_token;

  ids.designation = (await step('create designation', t.api.post('/web-app/designations').set(web()).send({ name: 'Sports Coach', rbac: { activities: 'create' } }))).id;
  const webhook = await step('create webhook', t.api.post('/web-app/webhooks').set(web()).send({ url: 'http://127.0.0.1:9/hooks' }));
  ids.webhook = webhook.id;
  webhookSecret = webhook.secret;
  ids.group = (await step('create group', t.api.post('/web-app/groups').set(web()).send({ name: 'Bus route 7', student_ids: [ids.student] }))).id;
  ids.grade = (await step('create grade', t.api.post('/web-app/grades').set(web()).send({ name: 'Class 5-B', class_teacher_id: ids.staff }))).id;
  ids.notice = (await step('create notice', t.api.post('/web-app/noticeboard').set(web()).send({ notice_title: 'School closed on Friday', notice_desc: 'For the regional holiday.', notice_type: 'holiday' }))).id;
  const slip = { questions: [{ id: 'ok', type: 'consent', label: 'I allow my child to take part' }, { id: 'shirt', type: 'choice', label: 'Shirt size', options: [{ id: 's', label: 'Small', capacity: 10 }, { id: 'm', label: 'Medium' }] }] };
  const activity = await step('create activity', t.api.post('/teachers-app/activities').set(bearer(tokens.staff)).send({
    school_id: a.schoolId, title: 'Sports day', description: 'On the main ground', activity_type: 'event', starts_at: `${today}T04:00:00Z`, location: 'Main ground', form: slip,
  }));
  ids.activity = activity.id;
  ids.form = activity.form.id;
  ids.response = (await step('respond to the form', t.api.post(`/parent-app/forms/${ids.form}/responses`).set(bearer(tokens.parent)).send({ student_id: ids.student, answers: { ok: 'agree', shirt: 's' }, signature: 'Ravi Rao' }))).id;
  calendarToken = /\/calendar\/([^/]+)\.ics$/.exec((await step('calendar feed', t.api.post('/parent-app/calendar/feed').set(bearer(tokens.parent)))).url)![1]!;
  ids.writeTo = (await step('create write-to', t.api.post('/parent-app/write-to').set(bearer(tokens.parent)).send({ student_id: ids.student, type: 'query', subject: 'Bus timing', message: 'When does the bus leave?' }))).id;
  await step('staff reply', t.api.post(`/teachers-app/write-to/${ids.writeTo}/reply`).set(bearer(tokens.staff)).send({ message: 'At half past three.' }));
  await step('parent reply', t.api.post(`/parent-app/write-to/${ids.writeTo}/reply`).set(bearer(tokens.parent)).send({ message: 'Thank you.' }));
  ids.comment = (await step('comment', t.api.post('/parent-app/engagement/comment').set(bearer(tokens.parent)).send({ entity_type: 'activity', entity_id: ids.activity, content: 'Looking forward to it!' }))).id;
  await step('react', t.api.post('/parent-app/engagement/react').set(bearer(tokens.parent)).send({ entity_type: 'activity', entity_id: ids.activity, reaction_type: 'love' }));
  ids.diary = (await step('diary entry', t.api.post('/teachers-app/diary').set(bearer(tokens.staff)).send({ grade: '5', title: 'Maths homework', description: 'Exercise 4.2', due_date: today }))).id;
  await step('attendance', t.api.put('/teachers-app/attendance').set(bearer(tokens.staff)).send({ date: today, records: [{ student_id: ids.student, status: 'present' }] }));
  await step('test push', t.api.post('/web-app/diagnostics/test-push').set(web()).send({ parent_id: ids.parent, title: 'Test', body: 'Hello from the school' }));
  const admission = await step(
    'admission form',
    t.api.post('/web-app/admission-form').send({
      school_id: a.schoolId,
      student: { student_full_name: 'Asha Rao', gender: 'female', grade: '5', date_of_birth: '2016-04-12', blood_group: 'B+', roll_no: null },
      parent: { father_name: 'Ravi Rao', mother_name: 'Meena Rao', phone_no: uniquePhone(), email: 'ravi@example.com' },
      addresses: [{ address_type: 'current', address: '12 Lake Rd', city: 'Pune', pincode: 411001 }],
    }),
  );
  admissionToken = admission.admission_token;
  // A message's links (a post's page, e-mail's unsubscribe and address check) exist only in the message, so the walk makes its own.
  await step('parent e-mail', t.api.put('/parent-app/profile').set(bearer(tokens.parent)).send({ email: 'ravi.rao@example.com' }));
  const urls = await createLinks(t.ctx.config.publicAppUrl, [
    { kind: 'view', schoolId: a.schoolId, parentId: ids.parent, entityType: 'noticeboard', entityId: ids.notice },
    { kind: 'unsubscribe', schoolId: a.schoolId, parentId: ids.parent },
    { kind: 'verify', schoolId: a.schoolId, parentId: ids.parent, email: 'ravi.rao@example.com' },
  ], new Date());
  for (const url of urls) {
    const [, page, token] = /\/([vue])\/([^/]+)$/.exec(url)!;
    linkTokens[page!] = token!;
  }
  pinSetupToken = new URL(admission.pin_setup.url).searchParams.get('token')!;

  // Every session this test holds, read back by its holder, gives the ids of the caller's own sessions.
  for (const [kind, app] of [['super_admin', 'web-app'], ['parent', 'parent-app'], ['staff', 'teachers-app']] as const) {
    const sessions = await step(`${kind} sessions`, t.api.get(`/${app}/sessions`).set(bearer(tokens[kind]!)));
    ids[`session_${kind}`] = (sessions as Array<{ id: number; current: boolean }>).find((s) => s.current)!.id;
  }
}, 120_000);
afterAll(async () => t.close());

type Caller = 'super_admin' | 'admin' | 'it_contact' | 'parent' | 'staff' | 'public';

function callersOf(route: RegisteredRoute): Caller[] {
  if (route.spec.auth === false || !route.app) return ['public'];
  if (route.app === 'parent-app') return ['parent'];
  if (route.app === 'teachers-app') return ['staff'];
  return ['super_admin', 'admin', 'it_contact'];
}

/** An id of the caller's own record for a path parameter, found by the path segment before it. */
function pathFor(route: RegisteredRoute, caller: Caller): string | null {
  const segments = route.path.split('/');
  let mapped = true;
  const path = segments
    .map((segment, i) => {
      if (!segment.startsWith(':')) return segment;
      const name = segment.slice(1);
      const before = segments[i - 1]!;
      if (name === 'type') return 'activity';
      if (name === 'token.ics') return `${calendarToken}.ics`;
      if (name === 'token' && linkTokens[before!]) return linkTokens[before!]!;
      if (name === 'id' && before === ':type') return String(ids.activity);
      const byResource: Record<string, number | undefined> = {
        staff: ids.staff, designations: ids.designation, grades: ids.grade, students: ids.student, 'write-to': ids.writeTo,
        activities: ids.activity, noticeboard: ids.notice, diary: ids.diary, comments: ids.comment, admins: ids.admin_it_contact, groups: ids.group, webhooks: ids.webhook,
        parents: ids.parent,
        sessions: ids[`session_${caller}`], forms: ids.form, responses: ids.response,
      };
      const value = byResource[before];
      if (!['id', 'form_id'].includes(name) || value === undefined) mapped = false;
      return String(value);
    })
    .join('/');
  return mapped ? path : null;
}

/** Query values the route's schema names, from the caller's own school and records. */
function queryFor(route: RegisteredRoute): Record<string, string> {
  const shape = (route.spec.query as { shape?: Record<string, unknown> } | undefined)?.shape ?? {};
  const known: Record<string, string> = {
    school_id: a.schoolId, student_id: String(ids.student), date: today, from: '2000-01-01', to: '2100-01-01', grade: '5', admission_token: admissionToken,
    // A calendar takes at most 366 days.
    ...(route.path.endsWith('/calendar') ? { from: today, to: today } : {}),
  };
  return Object.fromEntries(Object.keys(shape).filter((k) => k in known).map((k) => [k, known[k]!]));
}

interface Visit {
  route: string;
  caller: Caller;
  status: number;
  /** A route reading one record answered that record: the walk read the caller's own data. */
  readOwn: boolean;
}

async function walk(): Promise<Visit[]> {
  const visited: Visit[] = [];
  unmapped = [];
  for (const route of t.routes.filter((r) => r.method === 'get')) {
    for (const caller of callersOf(route)) {
      const path = pathFor(route, caller);
      if (!path) {
        unmapped.push(`${route.method.toUpperCase()} ${route.path}`);
        continue;
      }
      let req = t.api.get(path).query(queryFor(route));
      if (caller !== 'public') req = req.set(bearer(tokens[caller]!));
      const res = record(`${caller} GET ${path}`, await req);
      const data = res.body?.data as { id?: unknown } | undefined;
      const readOwn = !route.path.endsWith('/:id') || route.path.includes(':type') || res.status !== 200 || path.endsWith(`/${data?.id}`);
      visited.push({ route: `GET ${route.path}`, caller, status: res.status, readOwn });
      // An id that is none of ours: the error body is scanned too.
      if (route.path.includes(':id')) {
        let other = t.api.get(path.replace(/\/\d+$/, '/2000000000')).query(queryFor(route));
        if (caller !== 'public') other = other.set(bearer(tokens[caller]!));
        record(`${caller} GET ${route.path} (unknown id)`, await other);
      }
    }
  }
  return visited;
}

async function storedSecrets(): Promise<string[]> {
  const values: string[] = [];
  for (const model of allModels as unknown as Array<{ getAttributes(): object; findAll(o: object): Promise<Array<Record<string, unknown>>> }>) {
    const columns = Object.keys(model.getAttributes()).filter((c) => c.endsWith('_hash'));
    if (!columns.length) continue;
    const rows = await model.findAll({ attributes: columns, raw: true });
    for (const row of rows) for (const c of columns) if (typeof row[c] === 'string' && row[c]) values.push(row[c] as string);
  }
  return values;
}

describe('no secrets in any answer', () => {
  let visited: Visit[];

  beforeAll(async () => {
    visited = await walk();
  }, 120_000);

  it('walks every GET route as each kind of user, reading their own records', () => {
    const gets = t.routes.filter((r) => r.method === 'get');
    expect(gets.length).toBeGreaterThan(20);
    expect(unmapped).toEqual([]);
    // Every kind of user reads what its app offers it: nothing in the walk is refused or broken,
    // except the routes a lesser admin role may not use.
    const failed = visited.filter((v) => !v.readOwn || (v.status >= 300 && !(['admin', 'it_contact'].includes(v.caller) && v.status === 403)));
    expect(failed).toEqual([]);
    expect(new Set(visited.map((v) => v.caller))).toEqual(new Set(['super_admin', 'admin', 'it_contact', 'parent', 'staff', 'public']));
  });

  it('never carries a bcrypt hash, a stored token hash, a raw session token, a device token or the signing secret', async () => {
    const sessionTokens = Object.values(tokens).map((token) => (jwt.decode(token) as { session_token: string }).session_token);
    const hashes = await storedSecrets();
    expect(hashes.length).toBeGreaterThan(10);
    expect(sessionTokens.length).toBe(5);
    const secrets = [...hashes, ...sessionTokens, ...deviceTokens, TEST_JWT_SECRET, t.ctx.config.adminCookieSecret];
    const leaks = seen.flatMap(({ what, text }) => [
      ...(/\$2[aby]\$\d\d\$/.test(text) ? [`${what}: bcrypt hash`] : []),
      ...secrets.filter((s) => text.includes(s)).map((s) => `${what}: ${s.slice(0, 12)}…`),
    ]);
    expect(leaks).toEqual([]);
  });

  it("shows the applicant's admission and PIN set-up tokens to the applicant only", () => {
    expect([admissionToken, pinSetupToken].every(Boolean)).toBe(true);
    const leaks = seen
      .filter(({ what }) => what !== 'admission form')
      .flatMap(({ what, text }) => [admissionToken, pinSetupToken].filter((s) => text.includes(s)).map((s) => `${what}: ${s.slice(0, 12)}…`));
    expect(leaks).toEqual([]);
  });

  it("shows a webhook's signing secret in the answer that created it only", () => {
    expect(webhookSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(seen.some(({ what }) => what.includes('/webhooks/'))).toBe(true);
    const leaks = seen.filter(({ what, text }) => what !== 'create webhook' && text.includes(webhookSecret)).map(({ what }) => what);
    expect(leaks).toEqual([]);
  });

  it('never carries a stack trace or SQL', () => {
    const insides = [
      /\n\s+at |\bat [^\s"]+ \(|[\w/-]+\.(ts|js):\d+|node_modules/,
      /\bSELECT\b.+\bFROM\b|\bINSERT INTO\b|\bUPDATE\s+`?\w+`?\s+SET\b|\bDELETE FROM\b/i,
      /SQLITE_|\bER_[A-Z_]+|Sequelize\w*Error/,
    ];
    const leaks = seen.flatMap(({ what, text }) => {
      // The diagnostics report names the database driver; anything else mentioning SQLite is an error's text.
      const scanned = text.replace(/"driver":"sqlite"/g, '');
      return [...insides, /sqlite/i].filter((re) => re.test(scanned)).map((re) => `${what}: ${re} in ${scanned.slice(0, 300)}`);
    });
    expect(leaks).toEqual([]);
    expect(seen.length).toBeGreaterThan(60);
  });
});
