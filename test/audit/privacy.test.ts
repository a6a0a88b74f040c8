import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Op, type Model, type ModelStatic } from 'sequelize';
import { Address, AuditEvent, Comment, LinkToken, LoginLockout, Parent, Session, Student, Webhook, WebhookDelivery, allModels } from '../../src/models/index.js';
import { maintenanceJobs, runJob } from '../../src/jobs/jobs.js';
import { eraseExpiredArchives } from '../../src/services/privacy/erasure.js';
import { up as backfillArchivedAt } from '../../migrations/0013-student-archived-at-backfill.js';
import { deliverDue } from '../../src/push/worker.js';
import { setChannel } from '../../src/services/delivery/opt-out.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { adminUser, bearer, expectError, school, staffMember, type SchoolFixture } from '../helpers/fixtures.js';
import { consoleApi, noticeOf, signInConsole } from '../admin/console-client.js';

/**
 * Access and deletion requests (CONTRACT.md section 21): the export of a student and of a parent's
 * family, without secrets; the erasure of an archived student, after which no personal field of the
 * erased people is left in any table; the retention job; the command line and the console.
 */
let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;
const dir = mkdtempSync(path.join(tmpdir(), 'sp-privacy-'));

beforeAll(async () => {
  t = await startTestApp({ ADMIN_CONSOLE_ENABLED: 'true', PUBLIC_APP_URL: 'https://apply.example' });
  a = await school(t);
  b = await school(t);
  // Every event of school a is queued for a receiver, so erasures meet the deliveries that name the family.
  await Webhook.create({ school_id: a.schoolId, url: 'https://sis.example.org/hooks', events: ['*'], secret: 'privacy-test-secret' });
});
afterAll(async () => t.close());

let seq = 0;
/** A family that came in through the admission form, has signed in, commented, written to the school and been marked present. */
async function family(names: { child: string; father: string; phone: string }) {
  seq++;
  const admitted = await t.api.post('/web-app/admission-form').send({
    school_id: a.schoolId,
    student: { student_full_name: names.child, gender: 'female', grade: '5', date_of_birth: `2016-04-${10 + seq}`, blood_group: 'B+', roll_no: `PRV-${seq}-${Date.now() % 100000}` },
    parent: { father_name: names.father, mother_name: `${names.father} Mother`, phone_no: names.phone, email: `family${seq}@example.org` },
    addresses: [{ address_type: 'current', address: `${seq} ${names.father} Lane`, city: 'Pune', pincode: 411001 }],
  });
  expect(admitted.status).toBe(201);
  const { student_id: studentId, parent_id: parentId, roll_no: roll } = admitted.body.data;
  const token = new URL(admitted.body.data.pin_setup.url).searchParams.get('token')!;
  expect((await t.api.post('/parent-app/set-pin').send({ token, pin: '482913' })).status).toBe(200);
  const login = await t.api.post('/parent-app/parent-auth-verification').set('User-Agent', `${names.father} browser`)
    .send({ phone_no: names.phone, pin: '482913', school_id: a.schoolId, fcm_token: `device-${seq}`, device_id: `id-${names.phone}`, device_name: `${names.father} phone` });
  const parentToken = login.body.data.access_token as string;
  const m = await staffMember(a.schoolId, { rbac: { activities: 'manage' } });
  const activity = await t.api.post('/web-app/noticeboard').set(bearer(a.adminToken)).send({ school_id: a.schoolId, notice_title: 'Sports day' });
  await t.api.post('/parent-app/engagement/comment').set(bearer(parentToken)).send({ entity_type: 'noticeboard', entity_id: activity.body.data.id, content: `${names.father} will come` });
  await t.api.post('/parent-app/write-to').set(bearer(parentToken)).send({ student_id: studentId, type: 'leave', message: `${names.child} has a fever`, leave_from: '2026-12-03', leave_to: '2026-12-04' });
  expect(m.id).toBeGreaterThan(0);
  return { studentId: Number(studentId), parentId: Number(parentId), roll: String(roll), parentToken };
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Every timestamp of an export document (a field named `at` or `*_at`), with where it was found. */
function timestampsOf(value: unknown, where = ''): Array<[string, unknown]> {
  if (Array.isArray(value)) return value.flatMap((v, i) => timestampsOf(v, `${where}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]): Array<[string, unknown]> =>
    ((k === 'at' || k.endsWith('_at')) && typeof v === 'string' ? [[`${where}.${k}`, v]] : timestampsOf(v, `${where}.${k}`)));
}

describe('export', () => {
  it("a student's export holds every record about the student and their parent, and no secret", async () => {
    const f = await family({ child: 'Tara Export', father: 'Vikram Export', phone: '9811100001' });
    // SMS turned off for them by the system (a carrier's 21610): still the parent's own record.
    await setChannel(t.ctx, [{ schoolId: a.schoolId, parentId: f.parentId }], 'sms', false, 'system');
    const res = await t.api.get(`/web-app/students/${f.studentId}/export`).set(bearer(a.adminToken));
    expect(res.status).toBe(200);
    const doc = res.body.data;
    expect(doc.school).toEqual({ id: a.schoolId, name: expect.any(String) });
    expect(doc.students.map((s: { id: number }) => s.id)).toEqual([f.studentId]);
    expect(doc.parents.map((p: { id: number }) => p.id)).toEqual([f.parentId]);
    expect(doc.addresses.length).toBeGreaterThan(0);
    expect(doc.admissions).toHaveLength(1);
    // The form as submitted, a document rather than its stored text.
    expect(doc.admissions[0].submitted).toMatchObject({ student: expect.objectContaining({ student_full_name: 'Tara Export' }) });
    expect(doc.write_to).toHaveLength(1);
    expect(doc.write_to[0].replies).toEqual([]);
    expect(doc.comments).toHaveLength(1);
    expect(doc.sessions.length).toBeGreaterThan(0);
    expect(doc.notifications.length).toBeGreaterThan(0);
    expect(doc.audit_events.some((e: { action: string }) => e.action === 'login.success')).toBe(true);
    expect(doc.audit_events.filter((e: { action: string }) => e.action === 'preference.update')).toEqual([
      expect.objectContaining({ entity_type: 'preference', entity_id: String(f.parentId), actor_type: 'system' }),
    ]);
    const text = JSON.stringify(doc);
    for (const secret of ['device-', '$2b$', 'set-pin?token', '"pin_hash":"', '"token_hash":', '"fcm_token":']) expect({ secret, found: text.includes(secret) }).toEqual({ secret, found: false });
    expect(Object.keys(doc.parents[0])).not.toContain('pin_hash');
  });

  it('gives every timestamp as ISO 8601 in UTC and every date as YYYY-MM-DD, on either database', async () => {
    const f = await family({ child: 'Rhea Clock', father: 'Neel Clock', phone: '9811100008' });
    const docs = [
      (await t.api.get(`/web-app/students/${f.studentId}/export`).set(bearer(a.adminToken))).body.data,
      (await t.api.get('/parent-app/my-data').set(bearer(f.parentToken))).body.data,
    ];
    for (const doc of docs) {
      for (const list of ['students', 'parents', 'addresses', 'admissions', 'write_to', 'comments', 'notifications', 'sessions']) {
        expect({ list, created_at: doc[list][0].created_at }).toEqual({ list, created_at: expect.stringMatching(ISO) });
      }
      const stamps = timestampsOf(doc);
      expect(stamps.length).toBeGreaterThan(20);
      expect(stamps.filter(([, v]) => !ISO.test(String(v)))).toEqual([]);
      expect(doc.students[0].date_of_birth).toMatch(/^\d{4}-\d\d-\d\d$/);
      expect(doc.write_to[0]).toMatchObject({ leave_from: '2026-12-03', leave_to: '2026-12-04' });
    }
  });

  it("my-data answers the parent's own family, and only super_admin exports a student", async () => {
    const f = await family({ child: 'Ila Mine', father: 'Arun Mine', phone: '9811100002' });
    const mine = await t.api.get('/parent-app/my-data').set(bearer(f.parentToken));
    expect(mine.status).toBe(200);
    expect(mine.body.data.parents.map((p: { id: number }) => p.id)).toEqual([f.parentId]);
    expect(mine.body.data.students.map((s: { id: number }) => s.id)).toEqual([f.studentId]);
    const plain = await adminUser(t, a.schoolId, 'admin');
    expectError(await t.api.get(`/web-app/students/${f.studentId}/export`).set(bearer(plain.token)), 403, 'FORBIDDEN');
    expectError(await t.api.get(`/web-app/students/${f.studentId}/export`).set(bearer(b.adminToken)), 404, 'NOT_FOUND');
  });
});

/** Every text column of every table, searched for what an erasure must remove. */
async function traces(values: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const model of allModels as unknown as ModelStatic<Model>[]) {
    const rows = (await model.findAll({ raw: true })) as unknown as Array<Record<string, unknown>>;
    for (const row of rows) {
      const text = JSON.stringify(row);
      for (const v of values) if (text.includes(v)) found.push(`${model.getTableName()}: ${v}`);
    }
  }
  return [...new Set(found)];
}

describe('erasure', () => {
  it('refuses a student not archived (409), a wrong confirmation (400), another role (403) and another school (404)', async () => {
    const f = await family({ child: 'Noor Guard', father: 'Sami Guard', phone: '9811100003' });
    const erase = (token: string, confirm: string) => t.api.post(`/web-app/students/${f.studentId}/erase`).set(bearer(token)).send({ confirm });
    expectError(await erase(a.adminToken, f.roll), 409, 'CONFLICT');
    await t.api.post(`/web-app/students/${f.studentId}/archive`).set(bearer(a.adminToken));
    expectError(await erase(a.adminToken, 'nope'), 400, 'BAD_REQUEST');
    expectError(await erase((await adminUser(t, a.schoolId, 'admin')).token, f.roll), 403, 'FORBIDDEN');
    expectError(await erase(b.adminToken, f.roll), 404, 'NOT_FOUND');
    expect((await Student.findByPk(f.studentId, { raw: true }))!.student_full_name).toBe('Noor Guard');
  });

  it('leaves no personal field of the student or their only-child parent anywhere, and keeps ids, counts and the trail', async () => {
    const f = await family({ child: 'Zoya Erasable', father: 'Kabir Erasable', phone: '9811100004' });
    await t.api.put(`/web-app/students/${f.studentId}`).set(bearer(a.adminToken)).send({ date_of_birth: '2016-05-13' });
    // An address given in the app and not yet confirmed: its confirmation link holds it too.
    expect((await t.api.put('/parent-app/profile').set(bearer(f.parentToken)).send({ email: 'kabir.erasable@example.org' })).status).toBe(200);
    await deliverDue(t.ctx);
    expect(await LinkToken.count({ where: { school_id: a.schoolId, parent_id: f.parentId } })).toBeGreaterThan(0);
    await t.api.post(`/web-app/students/${f.studentId}/archive`).set(bearer(a.adminToken));
    // A wrong PIN in the school and across schools: both count on the account, which keeps the phone.
    for (const where of [{ school_id: a.schoolId }, {}]) await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: '9811100004', pin: '000000', ...where });
    expect(await LoginLockout.findAll({ where: { account_key: 'parent:9811100004' }, attributes: ['school_id', 'failures'], raw: true })).toEqual([{ school_id: a.schoolId, failures: 2 }]);
    const deliveries = await WebhookDelivery.count({ where: { school_id: a.schoolId } });
    const eventsBefore = await AuditEvent.count({ where: { school_id: a.schoolId } });
    const res = await t.api.post(`/web-app/students/${f.studentId}/erase`).set(bearer(a.adminToken)).send({ confirm: f.roll });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ erased: { students: 1, parents: 1, comments: 1, addresses: 1, attachments: 0 } });
    expect(await traces(['Zoya Erasable', 'Kabir Erasable', '9811100004', '2016-05-13', 'Zoya', 'Kabir', 'kabir.erasable@example.org'])).toEqual([]);
    expect(await LinkToken.count({ where: { school_id: a.schoolId, parent_id: f.parentId } })).toBe(0);
    expect(await Student.findByPk(f.studentId, { raw: true })).toMatchObject({ student_full_name: `Erased student ${f.studentId}`, date_of_birth: null, blood_group: null, phone_no: null, gender: null });
    expect(await Parent.findByPk(f.parentId, { raw: true })).toMatchObject({ pin_hash: null, email: null });
    expect(await Session.count({ where: { user_type: 'parent', user_id: f.parentId, active: true } })).toBe(0);
    expect(await Address.count({ where: { school_id: a.schoolId, owner_type: 'student', owner_id: f.studentId } })).toBe(0);
    expect(await AuditEvent.count({ where: { school_id: a.schoolId } })).toBe(eventsBefore + 1);
    expect(await AuditEvent.findOne({ where: { action: 'student.erase', entity_id: String(f.studentId) }, raw: true })).toMatchObject({ actor_type: 'admin', door: 'api' });
    expect(await AuditEvent.count({ where: { actor_type: 'parent', actor_id: String(f.parentId), ip: { [Op.ne]: null } } })).toBe(0);
    expect(await Session.findAll({ where: { user_type: 'parent', user_id: f.parentId }, attributes: ['fcm_token', 'device_id', 'device_name', 'user_agent', 'ip'], raw: true }))
      .toEqual([{ fcm_token: null, device_id: null, device_name: null, user_agent: null, ip: null }]);
    expect(await LoginLockout.count({ where: { account_key: 'parent:9811100004' } })).toBe(0);
    expect(await WebhookDelivery.count({ where: { school_id: a.schoolId } })).toBe(deliveries);
    const archivedEvent = await WebhookDelivery.findOne({ where: { school_id: a.schoolId, event: 'student.archived' }, order: [['id', 'DESC']], raw: true });
    const { data } = JSON.parse(archivedEvent!.payload);
    expect(data).toMatchObject({ entity_type: 'student', entity_id: f.studentId, erased: true });
    expect(Object.keys(data).filter((k) => !['entity_type', 'erased', 'id'].includes(k) && !k.endsWith('_id'))).toEqual([]);
    const after = await t.api.get(`/web-app/students/${f.studentId}/export`).set(bearer(a.adminToken));
    expect(after.status).toBe(200);
    expect(after.body.data.students).toHaveLength(1);
    expect(after.body.data.comments).toHaveLength(1);
    expectError(await t.api.get('/parent-app/my-data').set(bearer(f.parentToken)), 401, 'UNAUTHORIZED');
  });

  it("keeps a parent who has another child, blanking only their comments", async () => {
    const f = await family({ child: 'Mira Sibling', father: 'Dev Sibling', phone: '9811100005' });
    const sibling = await Student.create({ school_id: a.schoolId, parent_id: f.parentId, student_full_name: 'Ravi Sibling', grade: '6', roll_no: `SIB-${Date.now()}` });
    await t.api.post(`/web-app/students/${f.studentId}/archive`).set(bearer(a.adminToken));
    const res = await t.api.post(`/web-app/students/${f.studentId}/erase`).set(bearer(a.adminToken)).send({ confirm: f.roll });
    expect(res.body.data.erased).toMatchObject({ students: 1, parents: 0, comments: 1 });
    expect((await Parent.findByPk(f.parentId, { raw: true }))!.father_name).toBe('Dev Sibling');
    expect((await Student.findByPk(sibling.id, { raw: true }))!.student_full_name).toBe('Ravi Sibling');
    // The comment's text goes from its `comment.create` event too, though its author stays.
    const [comment] = await Comment.findAll({ where: { parent_id: f.parentId }, raw: true });
    expect(await AuditEvent.findOne({ where: { entity_type: 'comment', entity_id: String(comment!.id), action: 'comment.create' }, raw: true })).toMatchObject({ changes: null });
    expect(await traces(['Mira Sibling', 'Dev Sibling will come'])).toEqual([]);
  });

  it('erases the parent with their last child: an erased sibling does not keep them', async () => {
    const f = await family({ child: 'Anya Last', father: 'Farid Last', phone: '9811100009' });
    const { email } = (await Parent.findByPk(f.parentId, { raw: true }))!;
    const second = await Student.create({ school_id: a.schoolId, parent_id: f.parentId, student_full_name: 'Bela Last', grade: '6', roll_no: `LAST-${Date.now()}`, phone_no: '9811100009' });
    const erase = async (id: number, roll: string) => {
      expect((await t.api.post(`/web-app/students/${id}/archive`).set(bearer(a.adminToken))).status).toBe(200);
      const res = await t.api.post(`/web-app/students/${id}/erase`).set(bearer(a.adminToken)).send({ confirm: roll });
      expect(res.status).toBe(200);
      return res.body.data.erased;
    };
    expect(await erase(f.studentId, f.roll)).toMatchObject({ students: 1, parents: 0 });
    expect((await Parent.findByPk(f.parentId, { raw: true }))!.father_name).toBe('Farid Last');
    expect(await erase(second.id, second.roll_no)).toMatchObject({ students: 1, parents: 1 });
    expect(await Parent.findByPk(f.parentId, { raw: true })).toMatchObject({
      father_name: `Erased parent ${f.parentId}`, mother_name: null, phone_no: `erased-${f.parentId}`, email: null, pin_hash: null,
    });
    expect(await Session.count({ where: { user_type: 'parent', user_id: f.parentId, active: true } })).toBe(0);
    expect(await traces(['Anya Last', 'Bela Last', 'Farid Last', '9811100009', email!, 'Farid'])).toEqual([]);
  });

  it('the retention job erases students archived longer than RETENTION_ARCHIVED_DAYS, as the system', async () => {
    const old = await Student.create({ school_id: a.schoolId, parent_id: null, student_full_name: 'Old Leaver', grade: '5', roll_no: `OLD-${Date.now()}`, status: 'archived' });
    const recent = await Student.create({ school_id: a.schoolId, parent_id: null, student_full_name: 'Recent Leaver', grade: '5', roll_no: `NEW-${Date.now()}`, status: 'archived' });
    await Student.update({ archived_at: new Date(Date.now() - 400 * 86_400_000) }, { where: { id: old.id }, hooks: false });
    const job = maintenanceJobs.find((j) => j.name === 'retention_erase')!;
    expect((await runJob(t.ctx, job)).result).toBe(0);
    t.ctx.config.retentionArchivedDays = 365;
    try {
      expect((await runJob(t.ctx, job)).result).toBe(1);
    } finally {
      t.ctx.config.retentionArchivedDays = 0;
    }
    expect((await Student.findByPk(old.id, { raw: true }))!.student_full_name).toBe(`Erased student ${old.id}`);
    expect((await Student.findByPk(recent.id, { raw: true }))!.student_full_name).toBe('Recent Leaver');
    expect(await AuditEvent.findOne({ where: { action: 'student.erase', entity_id: String(old.id) }, raw: true })).toMatchObject({ actor_type: 'system', door: 'job' });
  });

  it('retention counts from the day a student was archived, through whichever door, and forgets it on a restore', async () => {
    const make = (name: string) => Student.create({ school_id: a.schoolId, parent_id: null, student_full_name: name, grade: '5', roll_no: `RET-${name.split(' ')[0]}-${Date.now()}`, status: 'active' });
    const viaApi = await make('Api Leaver');
    const viaConsole = await make('Console Leaver');
    const viaModel = await make('Model Leaver');
    const restored = await make('Restored Pupil');
    expect((await t.api.post(`/web-app/students/${viaApi.id}/archive`).set(bearer(a.adminToken))).status).toBe(200);
    expect((await consoleApi(await signInConsole(t, a.adminEmail)).act('students', viaConsole.id, 'archive')).body.record.params.status).toBe('archived');
    await Student.update({ status: 'archived' }, { where: { id: viaModel.id } });
    expect((await t.api.post(`/web-app/students/${restored.id}/archive`).set(bearer(a.adminToken))).status).toBe(200);
    expect((await Student.findByPk(restored.id, { raw: true }))!.archived_at).not.toBeNull();
    expect((await t.api.post(`/web-app/students/${restored.id}/restore`).set(bearer(a.adminToken))).body.data.status).toBe('inactive');
    const stamps = await Student.findAll({ where: { id: [viaApi.id, viaConsole.id, viaModel.id, restored.id] }, order: [['id', 'ASC']], raw: true });
    expect(stamps.map((s) => s.archived_at === null)).toEqual([false, false, false, true]);

    const day = 86_400_000;
    t.ctx.config.retentionArchivedDays = 30;
    try {
      expect(await eraseExpiredArchives(t.ctx, new Date(Date.now() + 29 * day))).toBe(0);
      expect(await eraseExpiredArchives(t.ctx, new Date(Date.now() + 31 * day))).toBeGreaterThanOrEqual(3);
    } finally {
      t.ctx.config.retentionArchivedDays = 0;
    }
    const names = (await Student.findAll({ where: { id: [viaApi.id, viaConsole.id, viaModel.id, restored.id] }, order: [['id', 'ASC']], raw: true })).map((s) => s.student_full_name);
    expect(names).toEqual([`Erased student ${viaApi.id}`, `Erased student ${viaConsole.id}`, `Erased student ${viaModel.id}`, 'Restored Pupil']);
  });

  it('migration 0013 dates the students archived before archived_at was kept by their last change, and clears a restored one', async () => {
    const make = (name: string, status: 'archived' | 'inactive') =>
      Student.create({ school_id: a.schoolId, parent_id: null, student_full_name: name, grade: '5', roll_no: `MIG-${name.split(' ')[0]}-${Date.now()}`, status });
    const [archived, restored] = await Promise.all([make('Undated Leaver', 'archived'), make('Stale Pupil', 'inactive')]);
    await Student.update({ archived_at: null }, { where: { id: archived.id }, hooks: false });
    await Student.update({ archived_at: new Date('2020-01-01T00:00:00Z') }, { where: { id: restored.id }, hooks: false });
    await backfillArchivedAt(t.ctx.db.sequelize);
    const [a1, r1] = await Promise.all([Student.findByPk(archived.id), Student.findByPk(restored.id)]);
    expect(a1!.archived_at?.toISOString()).toBe(a1!.updated_at.toISOString());
    expect(r1!.archived_at).toBeNull();
  });
});

describe('the command line and the console', () => {
  it('data export writes the document; data erase asks for the roll number', async () => {
    const f = await family({ child: 'Asha Cli', father: 'Ravi Cli', phone: '9811100006' });
    const env = cliEnv(t);
    const out = path.join(dir, 'export.json');
    const exported = await runCli(env, ['data', 'export', '--school', a.schoolId, '--student-id', String(f.studentId), '--out', out]);
    expect(exported.code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).students[0].student_full_name).toBe('Asha Cli');
    await t.api.post(`/web-app/students/${f.studentId}/archive`).set(bearer(a.adminToken));
    const wrong = await runCli(env, ['data', 'erase', '--school', a.schoolId, '--student-id', String(f.studentId), '--confirm', 'nope']);
    expect(wrong.code).toBe(1);
    const erased = await runCli(env, ['data', 'erase', '--school', a.schoolId, '--student-id', String(f.studentId), '--confirm', f.roll, '--json']);
    expect(erased.code).toBe(0);
    expect(erased.json).toEqual({ erased: { students: 1, parents: 1, comments: 1, addresses: 1, attachments: 0 } });
    expect(await AuditEvent.findOne({ where: { action: 'student.erase', entity_id: String(f.studentId) }, raw: true })).toMatchObject({ actor_type: 'operator', door: 'cli' });
  });

  it("the Student page's Export data and Erase (super_admin only; Erase needs the roll number)", async () => {
    const f = await family({ child: 'Lila Console', father: 'Omar Console', phone: '9811100007' });
    const api = consoleApi(await signInConsole(t, a.adminEmail));
    const exported = await api.act('students', f.studentId, 'exportData');
    expect(exported.body.export.students[0].student_full_name).toBe('Lila Console');
    await t.api.post(`/web-app/students/${f.studentId}/archive`).set(bearer(a.adminToken));
    const agent = await signInConsole(t, a.adminEmail);
    const wrong = await agent.post(`/admin/api/resources/students/records/${f.studentId}/erase`).type('form').send({ confirm: 'nope' });
    expect(noticeOf(wrong)?.type).toBe('error');
    const done = await agent.post(`/admin/api/resources/students/records/${f.studentId}/erase`).type('form').send({ confirm: f.roll });
    expect(noticeOf(done)).toMatchObject({ type: 'success', message: expect.stringContaining('Erased: 1 student, 1 parent') });
    expect(await AuditEvent.findOne({ where: { action: 'student.erase', entity_id: String(f.studentId) }, raw: true })).toMatchObject({ actor_type: 'admin', door: 'console' });
    const plain = consoleApi(await signInConsole(t, (await adminUser(t, a.schoolId, 'admin')).email));
    expect(noticeOf(await plain.act('students', f.studentId, 'exportData'))?.type).toBe('error');
  });
});
