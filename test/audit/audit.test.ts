import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Op } from 'sequelize';
import { AdminUser, AuditEvent, Parent, School, Session } from '../../src/models/index.js';
import { pruneSessions } from '../../src/services/auth/sessions.js';
import { hashSecretValue } from '../../src/services/auth/passwords.js';
import { publishDue } from '../../src/services/audiences/scheduled.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { ADMIN_PASSWORD, adminUser, bearer, expectError, parent, parentLogin, school, staffLogin, staffMember, student, uniquePhone, type SchoolFixture } from '../helpers/fixtures.js';
import { consoleApi, noticeOf, signInConsole } from '../admin/console-client.js';

/**
 * The audit trail of CONTRACT.md section 21: each door's actor, `[before, after]` changes with
 * secrets redacted, sign-ins and lock-outs, and the log's reading (filters, roles, the school's own).
 */
let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;

beforeAll(async () => {
  t = await startTestApp({ ADMIN_CONSOLE_ENABLED: 'true' });
  a = await school(t);
  b = await school(t);
});
afterAll(async () => t.close());

const eventsAfter = async (id: number, where: Record<string, unknown> = {}) =>
  AuditEvent.findAll({ where: { id: { [Op.gt]: id }, ...where }, order: [['id', 'ASC']], raw: true });
const lastId = async () => (await AuditEvent.max<number, AuditEvent>('id')) ?? 0;
const log = (token: string, query: Record<string, string | number> = {}) => t.api.get('/web-app/audit-log').query(query).set(bearer(token));

describe('what an event holds', () => {
  it('an API change: the actor, the door, the ip, the request id and each changed field as [before, after]', async () => {
    const s = await student(a.schoolId, null, { grade: '5' });
    const since = await lastId();
    const res = await t.api.put(`/web-app/students/${s.id}`).set(bearer(a.adminToken)).set('X-Request-Id', 'req-audit-1').send({ grade: '6', blood_group: 'O+' });
    expect(res.status).toBe(200);
    const [event] = await eventsAfter(since, { action: 'student.update' });
    expect(event).toMatchObject({
      school_id: a.schoolId, actor_type: 'admin', actor_id: String(a.adminId), actor_name: 'Head Admin', door: 'api', entity_type: 'student', entity_id: String(s.id),
      ip: expect.stringMatching(/127\.0\.0\.1/), request_id: 'req-audit-1',
    });
    expect(JSON.parse(event!.changes as unknown as string)).toEqual({ grade: ['5', '6'], blood_group: ['B+', 'O+'] });
  });

  it("a parent's and a staff member's changes carry their names, as the accounts have them now", async () => {
    const p = await parent(t.ctx, a.schoolId, { father_name: 'Arun Iyer' });
    const s = await student(a.schoolId, p.id);
    const m = await staffMember(a.schoolId, { name: 'Meera Nair' });
    const parentToken = await parentLogin(t, p.phone, p.pin, a.schoolId);
    const staffToken = await staffLogin(t, m.phone, m.pin, a.schoolId);
    const since = await lastId();
    expect((await t.api.post('/parent-app/write-to').set(bearer(parentToken)).send({ type: 'query', student_id: s.id, subject: 'Bus', message: 'Which stop?' })).status).toBe(201);
    expect((await t.api.post('/teachers-app/activities').set(bearer(staffToken)).send({ school_id: a.schoolId, title: 'Sports day', description: 'On Friday' })).status).toBe(201);
    // A rename shows in the next request's events: the name is read with the session, not kept from the sign-in.
    await Parent.update({ father_name: 'Arun K. Iyer' }, { where: { id: p.id } });
    expect((await t.api.post('/parent-app/write-to').set(bearer(parentToken)).send({ type: 'query', student_id: s.id, subject: 'Fees', message: 'When?' })).status).toBe(201);
    const events = await eventsAfter(since, { action: { [Op.in]: ['write_to.create', 'activity.create'] } });
    expect(events.map((e) => [e.action, e.actor_type, e.actor_id, e.actor_name])).toEqual([
      ['write_to.create', 'parent', String(p.id), 'Arun Iyer'],
      ['activity.create', 'staff', String(m.id), 'Meera Nair'],
      ['write_to.create', 'parent', String(p.id), 'Arun K. Iyer'],
    ]);
  });

  it('a JSON field is recorded as its value, and only when it changed', async () => {
    const created = await t.api.post('/web-app/designations').set(bearer(a.adminToken)).send({ name: 'Bursar', rbac: { students: 'view' } });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    const since = await lastId();
    expect((await t.api.put(`/web-app/designations/${id}`).set(bearer(a.adminToken)).send({ name: 'Chief Bursar' })).status).toBe(200);
    expect((await t.api.put(`/web-app/designations/${id}`).set(bearer(a.adminToken)).send({ rbac: { students: 'manage' } })).status).toBe(200);
    const events = await eventsAfter(since, { entity_type: 'designation', entity_id: String(id) });
    expect(events.map((e) => JSON.parse(e.changes as unknown as string))).toEqual([
      { name: ['Bursar', 'Chief Bursar'] },
      { rbac: [{ students: 'view' }, { students: 'manage' }] },
    ]);
  });

  it('a PIN set by someone else is pin.reset on the account, with the secret redacted, through every door', async () => {
    const m = await staffMember(a.schoolId);
    const since = await lastId();
    expect((await t.api.post(`/web-app/staff/${m.id}/reset-pin`).set(bearer(a.adminToken)).send({ pin: '8642' })).status).toBe(201);
    const [api] = await eventsAfter(since, { action: 'pin.reset' });
    expect(api).toMatchObject({ entity_type: 'staff', entity_id: String(m.id), door: 'api', actor_type: 'admin' });
    expect(JSON.parse(api!.changes as unknown as string)).toEqual({ pin_hash: ['[redacted]', '[redacted]'] });
    const cli = await runCli(cliEnv(t), ['pin', 'reset', '--school', a.schoolId, '--type', 'staff', '--phone', m.phone, '--pin', '4321', '--yes', '--json']);
    expect(cli.code).toBe(0);
    const [byCli] = await eventsAfter(api!.id, { action: 'pin.reset' });
    expect(byCli).toMatchObject({ entity_type: 'staff', entity_id: String(m.id), door: 'cli', actor_type: 'operator' });
    const all = JSON.stringify(await AuditEvent.findAll({ where: { school_id: a.schoolId }, raw: true }));
    expect(all).not.toMatch(/\$2[aby]\$/);
  });

  it('the console: its built-in edit and its actions, as the signed-in admin', async () => {
    const s = await student(a.schoolId, null, { grade: '5' });
    const api = consoleApi(await signInConsole(t, a.adminEmail));
    const since = await lastId();
    expect(noticeOf(await api.edit('students', s.id, { grade: '7' }))?.type).toBe('success');
    expect(noticeOf(await api.act('students', s.id, 'archive'))?.type).toBe('success');
    const events = await eventsAfter(since, { entity_type: 'student', entity_id: String(s.id) });
    expect(events.map((e) => [e.action, e.door, e.actor_type, e.actor_id, e.actor_name])).toEqual([
      ['student.update', 'console', 'admin', String(a.adminId), 'Head Admin'],
      ['student.archive', 'console', 'admin', String(a.adminId), 'Head Admin'],
    ]);
    // Each with the address it came from and its request's id, as the API's are.
    expect(events.map((e) => typeof e.ip === 'string' && /127\.0\.0\.1/.test(e.ip))).toEqual([true, true]);
    expect(events.map((e) => typeof e.request_id === 'string' && e.request_id.length > 0)).toEqual([true, true]);
    expect(events[0]!.request_id).not.toBe(events[1]!.request_id);
  });

  it("pruning sessions writes one event for each school, under that school, with its count", async () => {
    const [pa, pb] = [await parent(t.ctx, a.schoolId), await parent(t.ctx, b.schoolId)];
    for (const [p, s] of [[pa, a], [pa, a], [pb, b]] as const) await parentLogin(t, p.phone, p.pin, s.schoolId);
    const old = new Date(Date.now() - 400 * 86_400_000);
    await Session.update({ last_seen_at: old }, { where: { user_type: 'parent', user_id: [pa.id, pb.id] } });
    const since = await lastId();
    expect(await pruneSessions(t.ctx, 30)).toBeGreaterThanOrEqual(3);
    const events = await eventsAfter(since, { action: 'session.prune' });
    const counts = Object.fromEntries(events.map((e) => [e.school_id, JSON.parse(e.changes as unknown as string).sessions_ended[1]]));
    expect(counts[a.schoolId]).toBeGreaterThanOrEqual(2);
    expect(counts[b.schoolId]).toBeGreaterThanOrEqual(1);
    expect(events.every((e) => e.school_id !== null && e.door === 'job' && e.actor_type === 'system')).toBe(true);
  });

  it('a scheduled job: the system, through the job door', async () => {
    const created = await t.api.post('/web-app/noticeboard').set(bearer(a.adminToken))
      .send({ school_id: a.schoolId, notice_title: 'Later', publish_at: new Date(Date.now() + 60_000).toISOString() });
    const since = await lastId();
    await publishDue(t.ctx, new Date(Date.now() + 120_000));
    const [event] = await eventsAfter(since, { action: 'noticeboard.publish', entity_id: String(created.body.data.id) });
    expect(event).toMatchObject({ door: 'job', actor_type: 'system', actor_id: null, school_id: a.schoolId });
  });
});

describe('sign-ins', () => {
  it('records success and failure under the account named, and one with no account under no school', async () => {
    const p = await parent(t.ctx, a.schoolId);
    const since = await lastId();
    await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: p.phone, pin: '0000', school_id: a.schoolId });
    await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: p.phone, pin: p.pin, school_id: a.schoolId });
    await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: '9000000001', pin: '1234' });
    const events = await eventsAfter(since, { action: { [Op.like]: 'login.%' } });
    expect(events.map((e) => [e.action, e.school_id, e.actor_type, e.actor_id, e.entity_type])).toEqual([
      ['login.failure', a.schoolId, 'parent', String(p.id), 'parent'],
      ['login.success', a.schoolId, 'parent', String(p.id), 'parent'],
      ['login.failure', null, 'parent', null, 'parent'],
    ]);
  });

  it('the fifth failure locks the account out and says so once', async () => {
    const m = await staffMember(a.schoolId);
    const since = await lastId();
    for (let i = 0; i < 5; i++) await t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: m.phone, pin: '0000', school_id: a.schoolId });
    const events = await eventsAfter(since, { entity_type: 'staff', entity_id: String(m.id) });
    expect(events.filter((e) => e.action === 'login.failure')).toHaveLength(5);
    expect(events.filter((e) => e.action === 'login.lockout')).toHaveLength(1);
  });

  it('records a sign-in refused with the right secret as a failure: locked out, a suspended school, a disabled account, a phone at two schools, the operator on the web app', async () => {
    const since = await lastId();
    const failuresOf = async (entity: string, id: number) =>
      (await eventsAfter(since, { entity_type: entity, entity_id: String(id), action: 'login.failure' })).map((e) => [e.school_id, e.actor_id, e.actor_name]);

    const locked = await staffMember(a.schoolId, { name: 'Locked Out' });
    for (let i = 0; i < 5; i++) await t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: locked.phone, pin: '0000', school_id: a.schoolId });
    expectError(await t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: locked.phone, pin: locked.pin, school_id: a.schoolId }), 429, 'TOO_MANY_REQUESTS');
    expect(await failuresOf('staff', locked.id)).toHaveLength(6);

    const disabled = await staffMember(a.schoolId, { name: 'Gone Away', status: 0 });
    expectError(await t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: disabled.phone, pin: disabled.pin, school_id: a.schoolId }), 403, 'FORBIDDEN');
    expect(await failuresOf('staff', disabled.id)).toEqual([[a.schoolId, String(disabled.id), 'Gone Away']]);

    const phone = uniquePhone();
    const [inA, inB] = [await parent(t.ctx, a.schoolId, { phone }), await parent(t.ctx, b.schoolId, { phone })];
    expectError(await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: phone, pin: inA.pin }), 400, 'BAD_REQUEST');
    expect([...await failuresOf('parent', inA.id), ...await failuresOf('parent', inB.id)]).toEqual([[a.schoolId, String(inA.id), 'Ravi Rao'], [b.schoolId, String(inB.id), 'Ravi Rao']]);

    const suspended = await school(t);
    const p = await parent(t.ctx, suspended.schoolId);
    await School.update({ status: 'suspended' }, { where: { id: suspended.schoolId } });
    expectError(await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: p.phone, pin: p.pin, school_id: suspended.schoolId }), 403, 'FORBIDDEN');
    expect(await failuresOf('parent', p.id)).toEqual([[suspended.schoolId, String(p.id), 'Ravi Rao']]);

    const operator = await AdminUser.create({ school_id: null, name: 'Operator', email: `operator-${Date.now()}@platform.example`, password_hash: await hashSecretValue(ADMIN_PASSWORD), role: 'platform_admin' });
    expectError(await t.api.post('/web-app/signin').send({ email: operator.email, password: ADMIN_PASSWORD }), 403, 'FORBIDDEN');
    expect(await failuresOf('admin_user', operator.id)).toEqual([[null, String(operator.id), 'Operator']]);
  });

  it('console sign-ins go through the console door', async () => {
    const since = await lastId();
    await signInConsole(t, a.adminEmail);
    const [event] = await eventsAfter(since, { action: 'login.success' });
    expect(event).toMatchObject({ door: 'console', actor_type: 'admin', actor_id: String(a.adminId), school_id: a.schoolId });
  });
});

describe('GET /web-app/audit-log', () => {
  it('newest first, filtered, for super_admin and it_contact only, and only of their school', async () => {
    const s = await student(a.schoolId, null, { grade: '5' });
    await t.api.put(`/web-app/students/${s.id}`).set(bearer(a.adminToken)).send({ grade: '6' });
    await t.api.put(`/web-app/students/${s.id}`).set(bearer(a.adminToken)).send({ grade: '7' });
    const res = await log(a.adminToken, { entity_type: 'student', entity_id: String(s.id), action: 'student.update' });
    expect(res.status).toBe(200);
    expect(res.body.data.pagination).toMatchObject({ total: 2, page: 1 });
    expect(res.body.data.events.map((e: { changes: unknown }) => e.changes)).toEqual([{ grade: ['6', '7'] }, { grade: ['5', '6'] }]);
    const it = await adminUser(t, a.schoolId, 'it_contact');
    expect((await log(it.token, { actor_type: 'admin', actor_id: String(a.adminId) })).body.data.events.length).toBeGreaterThan(0);
    const plain = await adminUser(t, a.schoolId, 'admin');
    expectError(await log(plain.token), 403, 'FORBIDDEN');
    const theirs = await log(b.adminToken, { entity_type: 'student', entity_id: String(s.id) });
    expect(theirs.body.data.events).toEqual([]);
    const window = await log(a.adminToken, { from: new Date(Date.now() + 60_000).toISOString() });
    expect(window.body.data.events).toEqual([]);
    // A time without an offset is UTC, as every time in the API.
    const local = new Date(Date.now() - 3_600_000).toISOString().slice(0, 19);
    const [withZ, without] = [await log(a.adminToken, { from: `${local}Z`, entity_type: 'student', entity_id: String(s.id) }), await log(a.adminToken, { from: local, entity_type: 'student', entity_id: String(s.id) })];
    expect(without.status).toBe(200);
    expect(without.body.data.events).toEqual(withZ.body.data.events);
    expect(withZ.body.data.events.map((e: { action: string }) => e.action)).toEqual(['student.update', 'student.update', 'student.create']);
    expectError(await log(a.adminToken, { from: 'yesterday' }), 400, 'BAD_REQUEST');
    expectError(await log(a.adminToken, { entity_type: 'spaceship' }), 400, 'BAD_REQUEST');
  });

  it('the console shows the trail read-only and scoped', async () => {
    const api = consoleApi(await signInConsole(t, a.adminEmail));
    const list = await api.list('audit_events');
    expect(list.status).toBe(200);
    const records = list.body.records as Array<{ id: string; params: Record<string, unknown>; recordActions: Array<{ name: string }> }>;
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((r) => r.params.school_id === a.schoolId)).toBe(true);
    expect(records.flatMap((r) => r.recordActions.map((x) => x.name))).not.toContain('edit');
    expect(records.flatMap((r) => r.recordActions.map((x) => x.name))).not.toContain('delete');
    const foreign = await AuditEvent.findOne({ where: { school_id: b.schoolId }, raw: true });
    expect((await api.show('audit_events', foreign!.id)).body.record?.params ?? {}).toEqual({});
    const plain = await adminUser(t, a.schoolId, 'admin');
    const refused = await consoleApi(await signInConsole(t, plain.email)).list('audit_events');
    expect(refused.body.notice?.type).toBe('error');
    expect(refused.body.records ?? []).toEqual([]);
  });

  it('nothing in the API changes or deletes an event', async () => {
    const doc = (await t.api.get('/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(doc.paths).filter(([p]) => p.includes('audit'));
    expect(routes.map(([p, ops]) => [p, Object.keys(ops)])).toEqual([['/web-app/audit-log', ['get']]]);
  });
});
