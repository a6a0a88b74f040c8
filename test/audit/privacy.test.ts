import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Model, ModelStatic } from 'sequelize';
import { Address, AuditEvent, Parent, Session, Student, allModels } from '../../src/models/index.js';
import { maintenanceJobs, runJob } from '../../src/jobs/jobs.js';
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
  const login = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: names.phone, pin: '482913', school_id: a.schoolId, fcm_token: `device-${seq}` });
  const parentToken = login.body.data.access_token as string;
  const m = await staffMember(a.schoolId, { rbac: { activities: 'manage' } });
  const activity = await t.api.post('/web-app/noticeboard').set(bearer(a.adminToken)).send({ school_id: a.schoolId, notice_title: 'Sports day' });
  await t.api.post('/parent-app/engagement/comment').set(bearer(parentToken)).send({ entity_type: 'noticeboard', entity_id: activity.body.data.id, content: `${names.father} will come` });
  await t.api.post('/parent-app/write-to').set(bearer(parentToken)).send({ student_id: studentId, type: 'leave', message: `${names.child} has a fever`, leave_from: '2026-12-03', leave_to: '2026-12-04' });
  expect(m.id).toBeGreaterThan(0);
  return { studentId: Number(studentId), parentId: Number(parentId), roll: String(roll), parentToken };
}

describe('export', () => {
  it("a student's export holds every record about the student and their parent, and no secret", async () => {
    const f = await family({ child: 'Tara Export', father: 'Vikram Export', phone: '9811100001' });
    const res = await t.api.get(`/web-app/students/${f.studentId}/export`).set(bearer(a.adminToken));
    expect(res.status).toBe(200);
    const doc = res.body.data;
    expect(doc.school).toEqual({ id: a.schoolId, name: expect.any(String) });
    expect(doc.students.map((s: { id: number }) => s.id)).toEqual([f.studentId]);
    expect(doc.parents.map((p: { id: number }) => p.id)).toEqual([f.parentId]);
    expect(doc.addresses.length).toBeGreaterThan(0);
    expect(doc.admissions).toHaveLength(1);
    expect(doc.write_to).toHaveLength(1);
    expect(doc.write_to[0].replies).toEqual([]);
    expect(doc.comments).toHaveLength(1);
    expect(doc.sessions.length).toBeGreaterThan(0);
    expect(doc.notifications.length).toBeGreaterThan(0);
    expect(doc.audit_events.some((e: { action: string }) => e.action === 'login.success')).toBe(true);
    const text = JSON.stringify(doc);
    for (const secret of ['device-', '$2b$', 'set-pin?token', '"pin_hash":"', '"token_hash":', '"fcm_token":']) expect({ secret, found: text.includes(secret) }).toEqual({ secret, found: false });
    expect(Object.keys(doc.parents[0])).not.toContain('pin_hash');
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
    await t.api.post(`/web-app/students/${f.studentId}/archive`).set(bearer(a.adminToken));
    const eventsBefore = await AuditEvent.count({ where: { school_id: a.schoolId } });
    const res = await t.api.post(`/web-app/students/${f.studentId}/erase`).set(bearer(a.adminToken)).send({ confirm: f.roll });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ erased: { students: 1, parents: 1, comments: 1, addresses: 1 } });
    expect(await traces(['Zoya Erasable', 'Kabir Erasable', '9811100004', '2016-05-13', 'Zoya', 'Kabir'])).toEqual([]);
    expect(await Student.findByPk(f.studentId, { raw: true })).toMatchObject({ student_full_name: `Erased student ${f.studentId}`, date_of_birth: null, blood_group: null, phone_no: null, gender: null });
    expect(await Parent.findByPk(f.parentId, { raw: true })).toMatchObject({ pin_hash: null, email: null });
    expect(await Session.count({ where: { user_type: 'parent', user_id: f.parentId, active: true } })).toBe(0);
    expect(await Address.count({ where: { school_id: a.schoolId, owner_type: 'student', owner_id: f.studentId } })).toBe(0);
    expect(await AuditEvent.count({ where: { school_id: a.schoolId } })).toBe(eventsBefore + 1);
    expect(await AuditEvent.findOne({ where: { action: 'student.erase', entity_id: String(f.studentId) }, raw: true })).toMatchObject({ actor_type: 'admin', door: 'api' });
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
    expect(await traces(['Mira Sibling'])).toEqual([]);
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
    expect(erased.json).toEqual({ erased: { students: 1, parents: 1, comments: 1, addresses: 1 } });
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
