import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuditEvent, Notification, WriteToReply, WriteToRequest } from '../../src/models/index.js';
import { operatorPrincipal } from '../../src/services/access/guards.js';
import { schoolReply, updateWriteTo } from '../../src/services/write-to/write-to.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { writeTo } from '../helpers/classroom.js';
import { adminUser, bearer, expectError, parent, school, staffLogin, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';

/** The web admin app's write-to queue: the school's admins work every request of the school, as staff with write_to.manage do. */
let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;
let admin: { id: number; token: string };
let family: { id: number; phone: string; pin: string; child: number };

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  b = await school(t);
  admin = await adminUser(t, a.schoolId, 'admin');
  const p = await parent(t.ctx, a.schoolId);
  family = { ...p, child: (await student(a.schoolId, p.id, { name: 'Asha Rao' })).id };
  // The parent's phone is signed in with a push token: a reply reaches it.
  const login = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: p.phone, pin: p.pin, school_id: a.schoolId, fcm_token: 'parent-phone' });
  expect(login.status).toBe(200);
});
afterAll(async () => t.close());

const thread = () => writeTo(a.schoolId, family.id, family.child);
const web = (token = a.adminToken) => ({
  get: (path: string) => t.api.get(path).set(bearer(token)),
  post: (path: string, body: object) => t.api.post(path).set(bearer(token)).send(body),
  put: (path: string, body: object) => t.api.put(path).set(bearer(token)).send(body),
});

describe('GET /web-app/write-to and /web-app/write-to/:id', () => {
  it("lists every request of the school, newest first, with the student's and the parent's names; archived ones only when asked", async () => {
    const first = await thread();
    const second = await thread();
    const archived = await thread();
    await WriteToRequest.update({ status: 'archived' }, { where: { id: archived } });
    const theirs = await writeTo(b.schoolId, (await parent(t.ctx, b.schoolId)).id, (await student(b.schoolId, null)).id);
    const res = await web().get('/web-app/write-to');
    expect(res.status).toBe(200);
    const ids = res.body.data.map((r: { id: number }) => r.id);
    expect(ids).toEqual(expect.arrayContaining([second, first]));
    expect(ids.indexOf(second)).toBeLessThan(ids.indexOf(first));
    expect(ids).not.toContain(archived);
    expect(ids).not.toContain(theirs);
    expect(res.body.data.find((r: { id: number }) => r.id === first)).toMatchObject({ student_name: 'Asha Rao', parent_name: 'Ravi Rao', status: 'open', type: 'query' });
    expect(res.headers['x-total-count']).toBe(String(ids.length));
    expect((await web().get('/web-app/write-to?status=archived')).body.data.map((r: { id: number }) => r.id)).toContain(archived);
    expectError(await web().get('/web-app/write-to?status=closed'), 400, 'BAD_REQUEST');
  });

  it("answers one request with its replies oldest first; another school's is 404", async () => {
    const id = await thread();
    await web().post(`/web-app/write-to/${id}/reply`, { message: 'First' });
    await web(admin.token).post(`/web-app/write-to/${id}/reply`, { message: 'Second' });
    const res = await web().get(`/web-app/write-to/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.replies.map((r: { message: string }) => r.message)).toEqual(['First', 'Second']);
    const theirs = await writeTo(b.schoolId, (await parent(t.ctx, b.schoolId)).id, (await student(b.schoolId, null)).id);
    expectError(await web().get(`/web-app/write-to/${theirs}`), 404, 'NOT_FOUND');
  });

  it('is for super_admin and admin: an it_contact and a staff token get 403', async () => {
    const id = await thread();
    const itContact = await adminUser(t, a.schoolId, 'it_contact');
    for (const call of [web(itContact.token).get('/web-app/write-to'), web(itContact.token).get(`/web-app/write-to/${id}`),
      web(itContact.token).post(`/web-app/write-to/${id}/reply`, { message: 'x' }), web(itContact.token).put(`/web-app/write-to/${id}`, { status: 'resolved' })]) {
      expectError(await call, 403, 'FORBIDDEN');
    }
    const s = await staffMember(a.schoolId, { rbac: { write_to: 'manage' } });
    expectError(await web(await staffLogin(t, s.phone, s.pin, a.schoolId)).get('/web-app/write-to'), 403, 'FORBIDDEN');
    expect(await WriteToReply.count({ where: { write_to_id: id } })).toBe(0);
  });
});

describe('POST /web-app/write-to/:id/reply', () => {
  it('records an admin reply with their id and name; the first moves open to in_progress and notifies the parent', async () => {
    const id = await thread();
    const res = await web(admin.token).post(`/web-app/write-to/${id}/reply`, { message: 'The bus leaves at 7:40.' });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number), write_to_id: id, author_type: 'admin', author_id: admin.id, author_name: 'admin user', message: 'The bus leaves at 7:40.', created_at: expect.any(String),
      attachments: [],
    });
    expect(await WriteToRequest.findByPk(id, { attributes: ['status', 'replies_count'], raw: true })).toEqual({ status: 'in_progress', replies_count: 1 });
    const pushes = await Notification.findAll({ where: { school_id: a.schoolId, event: 'write_to_reply', entity_id: id }, raw: true });
    expect(pushes).toEqual([expect.objectContaining({ target_type: 'parent', target_id: family.id, address: 'parent-phone' })]);
    expect(await AuditEvent.count({ where: { school_id: a.schoolId, action: 'write_to.reply', entity_id: String(id), actor_type: 'admin', actor_id: String(admin.id) } })).toBe(1);
    // The parent reads the admin's reply in their thread.
    const seen = await t.api.get(`/parent-app/write-to/${id}`).set(bearer((await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: family.phone, pin: family.pin, school_id: a.schoolId })).body.data.access_token));
    expect(seen.body.data.replies).toEqual([expect.objectContaining({ author_type: 'admin', author_name: 'admin user' })]);
  });

  it('refuses an archived request with 409, a bad message with 400, and another school\'s request with 404', async () => {
    const id = await thread();
    await WriteToRequest.update({ status: 'archived' }, { where: { id } });
    expectError(await web().post(`/web-app/write-to/${id}/reply`, { message: 'Too late' }), 409, 'CONFLICT');
    const open = await thread();
    for (const message of ['', ' ', 'x'.repeat(10_001)]) expectError(await web().post(`/web-app/write-to/${open}/reply`, { message }), 400, 'BAD_REQUEST');
    const theirs = await writeTo(b.schoolId, (await parent(t.ctx, b.schoolId)).id, (await student(b.schoolId, null)).id);
    expectError(await web().post(`/web-app/write-to/${theirs}/reply`, { message: 'Hello' }), 404, 'NOT_FOUND');
    expectError(await web().post(`/web-app/write-to/${theirs}/reply`, { message: '' }), 404, 'NOT_FOUND');
    expectError(await web().post('/web-app/write-to/999999/reply', {}), 404, 'NOT_FOUND');
    expect(await WriteToReply.count({ where: { write_to_id: [id, open, theirs] } })).toBe(0);
  });

  it('is the same service the console calls', async () => {
    const id = await thread();
    const reply = await schoolReply(t.ctx, { type: 'admin', userId: a.adminId, schoolId: a.schoolId, sessionId: 0, role: 'super_admin' }, id, { message: 'From the console' });
    expect(reply).toMatchObject({ author_type: 'admin', author_id: a.adminId, author_name: 'Head Admin' });
    await expect(schoolReply(t.ctx, operatorPrincipal(b.schoolId), id, { message: 'x' })).rejects.toMatchObject({ status: 404 });
  });
});

describe('PUT /web-app/write-to/:id', () => {
  it('assigns to an active staff member of the school, unassigns, and resolves', async () => {
    const id = await thread();
    const s = await staffMember(a.schoolId);
    const assigned = await web().put(`/web-app/write-to/${id}`, { assigned_staff_id: s.id });
    expect(assigned.status).toBe(200);
    expect(assigned.body.data).toMatchObject({ id, assigned_staff_id: s.id, status: 'open' });
    // The assigned staff member now sees it in their own queue.
    const queue = await t.api.get('/teachers-app/write-to').query({ school_id: a.schoolId }).set(bearer(await staffLogin(t, s.phone, s.pin, a.schoolId)));
    expect(queue.body.data.map((r: { id: number }) => r.id)).toContain(id);
    expect((await web().put(`/web-app/write-to/${id}`, { assigned_staff_id: null })).body.data.assigned_staff_id).toBeNull();
    const resolved = await web(admin.token).put(`/web-app/write-to/${id}`, { status: 'resolved' });
    expect(resolved.status).toBe(200);
    expect(resolved.body.data).toMatchObject({ status: 'resolved', resolved_at: expect.any(String) });
    expectError(await web().put(`/web-app/write-to/${id}`, { status: 'resolved' }), 409, 'CONFLICT');
    expect(await AuditEvent.count({ where: { action: 'write_to.resolve', entity_id: String(id), actor_type: 'admin' } })).toBe(1);
  });

  it("refuses another school's staff (404), an archived staff member (409), a bad status (400) and an empty change (400)", async () => {
    const id = await thread();
    expectError(await web().put(`/web-app/write-to/${id}`, { assigned_staff_id: (await staffMember(b.schoolId)).id }), 404, 'NOT_FOUND');
    expectError(await web().put(`/web-app/write-to/${id}`, { assigned_staff_id: (await staffMember(a.schoolId, { status: 0 })).id }), 409, 'CONFLICT');
    expectError(await web().put(`/web-app/write-to/${id}`, { status: 'open' }), 400, 'BAD_REQUEST');
    expectError(await web().put(`/web-app/write-to/${id}`, {}), 400, 'BAD_REQUEST');
    expect(await WriteToRequest.findByPk(id, { attributes: ['status', 'assigned_staff_id'], raw: true })).toEqual({ status: 'open', assigned_staff_id: null });
  });

  it("is 404 for another school's or an unknown request before the body is judged, and changes nothing there", async () => {
    const theirs = await writeTo(b.schoolId, (await parent(t.ctx, b.schoolId)).id, (await student(b.schoolId, null)).id);
    for (const id of [theirs, 999_999]) {
      for (const body of [{ status: 'resolved' }, { status: 'closed' }, {}]) expectError(await web().put(`/web-app/write-to/${id}`, body), 404, 'NOT_FOUND');
    }
    expect((await WriteToRequest.findByPk(theirs))!.status).toBe('open');
    await expect(updateWriteTo(t.ctx, operatorPrincipal(b.schoolId), await thread(), { status: 'resolved' })).rejects.toMatchObject({ status: 404 });
  });
});
