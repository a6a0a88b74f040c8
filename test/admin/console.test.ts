import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import supertest from 'supertest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { ADMIN_PASSWORD, adminUser, bearer, parent, parentLogin, school, staffLogin, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';
import { AuditEvent, Grade, Notice, Notification, Session, Staff, Student, WriteToRequest } from '../../src/models/index.js';
import { consoleApi, ids, noticeOf, signInConsole, type ConsoleApi } from './console-client.js';

let t: TestApp;
let a: SchoolFixture;
let sa: ConsoleApi;

beforeAll(async () => {
  t = await startTestApp({ ADMIN_CONSOLE_ENABLED: 'true' });
  a = await school(t);
  sa = consoleApi(await signInConsole(t, a.adminEmail));
  // AdminJS's start-up (seconds, more on a loaded machine) is paid once per file, here.
}, 180_000);
afterAll(async () => t.close());

const consoleSessions = async (token: string) =>
  ((await t.api.get('/web-app/sessions').set(bearer(token))).body.data as Array<{ id: number; device_name: string }>).filter((s) => s.device_name === 'admin console');

describe('signing in to the console', () => {
  it('shows the login page to a stranger and sends every other page there', async () => {
    const login = await t.api.get('/admin/login');
    expect(login.status).toBe(200);
    expect(login.text).toContain('"action":"/admin/login"');
    for (const path of ['/admin', '/admin/resources/students', '/admin/api/resources/students/actions/list']) {
      const res = await t.api.get(path);
      expect({ path, status: res.status, location: res.headers.location }).toEqual({ path, status: 302, location: '/admin/login' });
    }
  });

  it('is a session row listed by GET /web-app/sessions, with an HttpOnly SameSite=Lax cookie', async () => {
    const before = (await consoleSessions(a.adminToken)).length;
    const res = await supertest(t.app).post('/admin/login').type('form').send({ email: a.adminEmail, password: ADMIN_PASSWORD });
    expect(res.status).toBe(302);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/admin/);
    expect(cookie).not.toMatch(/Secure/);
    expect((await consoleSessions(a.adminToken)).length).toBe(before + 1);
  });

  it('refuses a wrong password, then locks the account like /web-app/signin does', async () => {
    const locked = await adminUser(t, a.schoolId, 'admin');
    const bad = await supertest(t.app).post('/admin/login').type('form').send({ email: locked.email, password: 'wrong password' });
    expect(bad.status).toBe(401);
    expect(bad.text).toContain('Invalid email or password');
    for (let i = 0; i < 4; i++) await supertest(t.app).post('/admin/login').type('form').send({ email: locked.email, password: 'wrong password' });
    const right = await supertest(t.app).post('/admin/login').type('form').send({ email: locked.email, password: ADMIN_PASSWORD });
    expect(right.status).toBe(429);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    const api = await t.api.post('/web-app/signin').send({ email: locked.email, password: ADMIN_PASSWORD });
    expect(api.status).toBe(429);
  });

  it('sends a revoked console session to the login page on its next request', async () => {
    const agent = await signInConsole(t, a.adminEmail);
    expect((await agent.get('/admin/api/resources/students/actions/list')).status).toBe(200);
    const newest = (await consoleSessions(a.adminToken))[0]!;
    expect((await t.api.delete(`/web-app/sessions/${newest.id}`).set(bearer(a.adminToken))).status).toBe(200);
    const next = await agent.get('/admin/api/resources/students/actions/list');
    expect({ status: next.status, location: next.headers.location }).toEqual({ status: 302, location: '/admin/login' });
    expect((await agent.get('/admin')).headers.location).toBe('/admin/login');
  });

  it('logout ends the session row', async () => {
    const agent = await signInConsole(t, a.adminEmail);
    const newest = (await consoleSessions(a.adminToken))[0]!;
    expect((await agent.get('/admin/logout')).headers.location).toBe('/admin/login');
    expect((await Session.findByPk(newest.id))!.active).toBeFalsy();
    expect((await agent.get('/admin')).headers.location).toBe('/admin/login');
  });

  it("signs everyone out when the school is suspended", async () => {
    const other = await school(t);
    const agent = await signInConsole(t, other.adminEmail);
    await t.ctx.db.execute('UPDATE schools SET status = :s WHERE id = :id', { s: 'suspended', id: other.schoolId });
    expect((await agent.get('/admin')).headers.location).toBe('/admin/login');
  });

  it('refuses requests another site starts', async () => {
    const agent = await signInConsole(t, a.adminEmail);
    const res = await agent.get('/admin/api/resources/students/actions/list').set('Sec-Fetch-Site', 'cross-site');
    expect(res.status).toBe(403);
    const post = await agent.post('/admin/api/resources/notices/actions/new').set('Origin', 'https://evil.example').type('form').send({ notice_title: 'x' });
    expect(post.status).toBe(403);
    expect(await Notice.count({ where: { notice_title: 'x' } })).toBe(0);
  });
});

describe('roles', () => {
  const listed = async (api: ConsoleApi, resource: string) => {
    const res = await api.list(resource);
    return res.body.notice?.type === 'error' ? 'refused' : 'listed';
  };

  it('admin: everything but admin users, and designations read only', async () => {
    const admin = consoleApi(await signInConsole(t, (await adminUser(t, a.schoolId, 'admin')).email));
    for (const r of ['students', 'parents', 'staff', 'grades', 'notices', 'activities', 'write_to_requests', 'sessions', 'notifications', 'designations']) {
      expect({ r, got: await listed(admin, r) }).toEqual({ r, got: 'listed' });
    }
    expect(await listed(admin, 'admin_users')).toBe('refused');
    expect(await listed(admin, 'schools')).toBe('refused');
    const designation = (await admin.list('designations')).body.records[0];
    expect(designation.recordActions.map((x: { name: string }) => x.name)).toEqual(['show']);
    const created = await admin.create('designations', { name: 'Librarian' });
    expect(noticeOf(created)?.type).toBe('error');
  });

  it('it_contact: sessions and notifications only', async () => {
    const it_ = consoleApi(await signInConsole(t, (await adminUser(t, a.schoolId, 'it_contact')).email));
    expect(await listed(it_, 'sessions')).toBe('listed');
    expect(await listed(it_, 'notifications')).toBe('listed');
    for (const r of ['students', 'parents', 'staff', 'grades', 'notices', 'admin_users', 'designations', 'write_to_requests', 'attendance']) {
      expect({ r, got: await listed(it_, r) }).toEqual({ r, got: 'refused' });
    }
    const dashboard = await it_.dashboard();
    expect(dashboard.body.students).toBeNull();
  });

  it('super_admin: admin users and designations of its school, but not the schools', async () => {
    expect(await listed(sa, 'admin_users')).toBe('listed');
    expect(await listed(sa, 'schools')).toBe('refused');
    const created = await sa.create('admin_users', { name: 'New Office', email: 'office@a.example.org', password: 'a long enough password', role: 'admin' });
    expect(noticeOf(created)).toMatchObject({ type: 'success' });
    const weak = await sa.create('admin_users', { name: 'Weak', email: 'weak@a.example.org', password: 'short', role: 'admin' });
    expect(weak.body.record.errors.password).toBeDefined();
  });
});

describe('actions go through the services', () => {
  it('staff Archive ends their sessions; Restore lets them back in', async () => {
    const s = await staffMember(a.schoolId, { name: 'Archie' });
    const token = await staffLogin(t, s.phone, s.pin, a.schoolId);
    const res = await sa.act('staff', s.id, 'archive');
    expect(noticeOf(res)?.type).toBe('success');
    expect(res.body.record.params.status).toBe(0);
    expect((await t.api.get('/teachers-app/sessions').set(bearer(token))).status).toBe(403);
    expect(await Session.count({ where: { school_id: a.schoolId, user_type: 'staff', user_id: s.id, active: true } })).toBe(0);
    const again = await sa.act('staff', s.id, 'archive');
    expect(noticeOf(again)?.type).toBe('error');
    const restored = await sa.act('staff', s.id, 'restore');
    expect(restored.body.record.params.status).toBe(1);
    await staffLogin(t, s.phone, s.pin, a.schoolId);
  });

  it('staff Reset PIN shows a made-up PIN once, as a one-time secret, which works and ends the old sessions', async () => {
    const s = await staffMember(a.schoolId, { name: 'Pinny' });
    const token = await staffLogin(t, s.phone, s.pin, a.schoolId);
    const page = await sa.act('staff', s.id, 'resetPin');
    expect(page.body.secret).toBeUndefined();
    expect((await t.api.get('/teachers-app/sessions').set(bearer(token))).status).toBe(200);
    const res = await sa.perform('staff', s.id, 'resetPin', { pin: '' });
    expect(res.body.secret).toEqual({ label: 'New PIN for Pinny', value: expect.stringMatching(/^\d{6}$/) });
    const pin = res.body.secret.value as string;
    expect(JSON.stringify(noticeOf(res))).not.toContain(pin);
    expect(JSON.stringify(res.body.record)).not.toContain(pin);
    expect(JSON.stringify(await AuditEvent.findAll({ where: { school_id: a.schoolId }, raw: true }))).not.toContain(pin);
    expect((await t.api.get('/teachers-app/sessions').set(bearer(token))).status).toBe(401);
    await staffLogin(t, s.phone, pin, a.schoolId);
  });

  it('staff Reset PIN takes a PIN the admin chose, shown nowhere, and names a bad one on its field', async () => {
    const s = await staffMember(a.schoolId, { name: 'Chosen Pin' });
    const bad = await sa.perform('staff', s.id, 'resetPin', { pin: '12' });
    expect(bad.body.record.errors.pin.message).toMatch(/4 to 8 digits/);
    expect(noticeOf(bad)?.type).toBe('error');
    const res = await sa.perform('staff', s.id, 'resetPin', { pin: '482913' });
    expect(res.body.secret).toBeUndefined();
    expect(noticeOf(res)).toEqual({ type: 'success', message: 'PIN changed for Chosen Pin; they are signed out of every device.' });
    await staffLogin(t, s.phone, '482913', a.schoolId);
  });

  it('student Archive / Restore and Reset parent PIN', async () => {
    const p = await parent(t.ctx, a.schoolId);
    const st = await student(a.schoolId, p.id, { status: 'active' });
    const parentToken = await parentLogin(t, p.phone, p.pin, a.schoolId);
    expect((await sa.act('students', st.id, 'archive')).body.record.params.status).toBe('archived');
    expect((await sa.act('students', st.id, 'restore')).body.record.params.status).toBe('inactive');
    const reset = await sa.perform('students', st.id, 'resetParentPin');
    const pin = reset.body.secret.value as string;
    expect(reset.body.secret.label).toBe(`New PIN for the parent of ${st.student_full_name}`);
    expect((await t.api.get('/parent-app/sessions').set(bearer(parentToken))).status).toBe(401);
    await parentLogin(t, p.phone, pin, a.schoolId);
  });

  it('session Revoke signs the device out', async () => {
    const p = await parent(t.ctx, a.schoolId);
    const token = await parentLogin(t, p.phone, p.pin, a.schoolId);
    const row = (await Session.findOne({ where: { school_id: a.schoolId, user_type: 'parent', user_id: p.id } }))!;
    const res = await sa.act('sessions', row.id, 'revoke');
    expect(noticeOf(res)?.type).toBe('success');
    expect((await t.api.get('/parent-app/sessions').set(bearer(token))).status).toBe(401);
  });

  it('write-to Resolve resolves the request', async () => {
    const p = await parent(t.ctx, a.schoolId);
    const st = await student(a.schoolId, p.id);
    const thread = await WriteToRequest.create({ school_id: a.schoolId, parent_id: p.id, student_id: st.id, type: 'query', subject: 'Bus timing', message: 'When?' });
    const res = await sa.act('write_to_requests', thread.id, 'resolve');
    expect(noticeOf(res)?.type).toBe('success');
    expect((await thread.reload()).status).toBe('resolved');
    expect(noticeOf(await sa.act('write_to_requests', thread.id, 'resolve'))?.type).toBe('error');
  });

  it('Send test push reaches the device, for super_admin and it_contact but not admin', async () => {
    const p = await parent(t.ctx, a.schoolId);
    const login = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: p.phone, pin: p.pin, school_id: a.schoolId, fcm_token: 'device-token-123' });
    expect(login.status).toBe(200);
    const row = (await Session.findOne({ where: { school_id: a.schoolId, user_type: 'parent', user_id: p.id } }))!;
    const it_ = consoleApi(await signInConsole(t, (await adminUser(t, a.schoolId, 'it_contact')).email));
    const res = await it_.act('sessions', row.id, 'testPush');
    expect(noticeOf(res)).toMatchObject({ type: 'success', message: expect.stringContaining('1 sent') });
    expect(await Notification.count({ where: { school_id: a.schoolId, event: 'test_push', status: 'sent' } })).toBe(1);
    const admin = consoleApi(await signInConsole(t, (await adminUser(t, a.schoolId, 'admin')).email));
    expect(noticeOf(await admin.act('sessions', row.id, 'testPush'))?.type).toBe('error');
    expect(await Notification.count({ where: { school_id: a.schoolId, event: 'test_push' } })).toBe(1);
  });

  it("shows a service's refusals as notices: duplicates, bad transitions, grades in use", async () => {
    const s = await staffMember(a.schoolId);
    const dup = await sa.create('staff', { name: 'Copy', phone_no: s.phone });
    expect(dup.status).toBe(200);
    expect(noticeOf(dup)?.type).toBe('error');
    expect(await Staff.count({ where: { school_id: a.schoolId, phone_no: s.phone } })).toBe(1);

    const st = await student(a.schoolId, null, { status: 'registered' });
    const bad = await sa.edit('students', st.id, { status: 'inactive' });
    expect(noticeOf(bad)?.type).toBe('error');
    expect((await st.reload()).status).toBe('registered');

    const grade = (await Grade.findOne({ where: { school_id: a.schoolId, name: st.grade } }))!;
    const inUse = await sa.remove('grades', grade.id);
    expect(noticeOf(inUse)).toMatchObject({ type: 'error', message: expect.stringMatching(/still in this grade/) });
    expect(await Grade.findByPk(grade.id)).not.toBeNull();
  });

  it('edits send only the fields that changed, through the service', async () => {
    const st = await student(a.schoolId, null, { status: 'active', name: 'Old Name' });
    const form = (await sa.editForm('students', st.id)).body.record.params;
    const res = await sa.edit('students', st.id, { ...form, student_full_name: 'New Name' });
    expect(noticeOf(res)?.type).toBe('success');
    expect((await Student.findByPk(st.id))!.student_full_name).toBe('New Name');
  });

  it('deleting a notice soft-deletes it: hidden, but a super_admin can filter for it', async () => {
    const created = await sa.create('notices', { notice_title: 'Sports day', notice_type: 'event', is_important: 'true' });
    const id = Number(created.body.record.id);
    expect((await Notice.findByPk(id))!.is_important).toBe(true);
    expect(noticeOf(await sa.remove('notices', id))?.type).toBe('success');
    expect((await Notice.findByPk(id))!.notice_deleted).toBe(1);
    expect(ids(await sa.list('notices'))).not.toContain(id);
    expect(ids(await sa.list('notices', { 'filters.notice_deleted': 1 }))).toContain(id);
    const admin = consoleApi(await signInConsole(t, (await adminUser(t, a.schoolId, 'admin')).email));
    expect(ids(await admin.list('notices', { 'filters.notice_deleted': 1 }))).not.toContain(id);
  });
});

describe('bad input', () => {
  it('never gets a server error from the console', async () => {
    const queries: Array<Record<string, string | number>> = [
      { page: -1 }, { perPage: 'abc' }, { page: 'x', sortBy: 'no_such_column', direction: 'sideways' }, { 'filters.id': 'abc' },
      { 'filters.status': 'x' }, { 'filters.created_at~~from': 'not a date', 'filters.created_at~~to': '2026-13-45' }, { 'filters.name': "%_'\\" },
    ];
    for (const query of queries) {
      const res = await sa.list('staff', query);
      expect({ query, status: res.status }).toEqual({ query, status: 200 });
    }
    for (const id of ['abc', '99999999999999', '-1']) expect((await sa.show('staff', id)).status).toBeLessThan(500);
    expect((await sa.search('students', "'; DROP TABLE students; --")).status).toBe(200);
    expect(await Student.count()).toBeGreaterThan(0);
  });
});

describe('the dashboard', () => {
  it("counts the school's students by status, active staff, open requests and failed notifications", async () => {
    const fresh = await school(t);
    await student(fresh.schoolId, null, { status: 'active' });
    await student(fresh.schoolId, null, { status: 'active' });
    await student(fresh.schoolId, null, { status: 'registered' });
    await staffMember(fresh.schoolId);
    await staffMember(fresh.schoolId, { status: 0 });
    const p = await parent(t.ctx, fresh.schoolId);
    await WriteToRequest.create({ school_id: fresh.schoolId, parent_id: p.id, student_id: null, type: 'query', subject: 'Open', message: 'x' });
    await Notification.create({ school_id: fresh.schoolId, event: 'x', target_type: 'parent', target_id: p.id, title: 't', body: 'b', status: 'failed' });
    const api = consoleApi(await signInConsole(t, fresh.adminEmail));
    const res = await api.dashboard();
    expect(res.body).toEqual({
      scope: `School ${fresh.schoolId}`,
      students: { registered: 1, active: 2, inactive: 0, archived: 0 },
      active_staff: 1,
      open_write_to: 1,
      failed_notifications_24h: 1,
    });
  });
});
