import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import jwt from 'jsonwebtoken';
import { School, Session } from '../../src/models/index.js';
import { startTestApp, TEST_JWT_SECRET, type TestApp } from '../helpers/app.js';
import { bearer, expectError, parent, parentLogin, school, staffLogin, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';

let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  b = await school(t);
});
afterAll(async () => t.close());

describe('envelope and framework errors', () => {
  it('answers an unknown route with the 404 error body', async () => {
    const res = await t.api.get('/no/such/route');
    expectError(res, 404, 'NOT_FOUND');
  });

  it('answers malformed JSON with 400', async () => {
    const res = await t.api.post('/web-app/signin').set('Content-Type', 'application/json').send('{"email": ');
    expectError(res, 400, 'BAD_REQUEST');
  });

  it('answers a body over 1 MiB with 413', async () => {
    const res = await t.api.post('/web-app/signin').send({ email: 'a@b.org', password: 'x'.repeat(1_100_000) });
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('answers a NUL byte with 400 naming the field, and a deeply nested body with 400, not 500', async () => {
    const nul = await t.api.post('/web-app/signin').send({ email: 'a@b.org', password: { inner: ['ok', 'x\u0000y'] } });
    expectError(nul, 400, 'BAD_REQUEST');
    expect(nul.body.error.details).toEqual([{ field: 'password.inner.1', message: 'must not contain NUL characters' }]);
    const deep = `{"email":"a@b.org","password":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    expectError(await t.api.post('/web-app/signin').set('Content-Type', 'application/json').send(deep), 400, 'BAD_REQUEST');
  });

  it('answers a path that is not validly percent-encoded with 400', async () => {
    expectError(await t.api.get('/web-app/students/%E0').set(bearer(a.adminToken)), 400, 'BAD_REQUEST');
    expectError(await t.api.get('/parent-app/write-to/%E0'), 400, 'BAD_REQUEST');
  });

  it('names each invalid field in details', async () => {
    const res = await t.api.post('/web-app/signup').send({ name: '', email: 'not-an-email', password: 'short' });
    expectError(res, 400, 'BAD_REQUEST');
    const fields = res.body.error.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'email', 'password', 'school_id']));
  });

  it('serves liveness, readiness, the OpenAPI document and the reference page', async () => {
    expect((await t.api.get('/healthz')).body.status).toBe('ok');
    expect((await t.api.get('/readyz')).status).toBe(200);
    const doc = await t.api.get('/openapi.json');
    expect(doc.body.openapi).toBe('3.1.0');
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/parent-app/parent-auth-verification', '/web-app/signin', '/web-app/sessions/{id}']));
    const page = await t.api.get('/docs');
    expect(page.status).toBe(200);
    expect(page.text).toContain('swagger-ui');
    expect((await t.api.get('/docs/assets/swagger-ui-bundle.js')).status).toBe(200);
  });
});

describe('signup and admin sign-in', () => {
  it('registers a school with its first super_admin, its grades and designations', async () => {
    const res = await t.api.post('/web-app/signup').send({ name: 'Meena', email: 'Meena@Lake.example', password: 'a long password', school_id: 'lakeview' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, data: { school_id: 'lakeview', user_id: expect.any(Number) } });
    const signin = await t.api.post('/web-app/signin').send({ email: 'meena@lake.example', password: 'a long password' });
    expect(signin.status).toBe(200);
    expect(signin.body.data).toMatchObject({ token_type: 'Bearer', user: { email: 'meena@lake.example', role: 'super_admin', school_id: 'lakeview' } });
    expect(signin.headers['set-cookie']?.[0]).toMatch(/access_token=.*HttpOnly.*SameSite=Lax/i);
    const claims = jwt.decode(signin.body.data.access_token) as Record<string, unknown>;
    expect(claims).toMatchObject({ sub: String(res.body.data.user_id), school_id: 'lakeview', type: 'admin', session_token: expect.any(String) });
  });

  it('refuses a school id that exists with 409', async () => {
    const res = await t.api.post('/web-app/signup').send({ name: 'X', email: 'other@x.example', password: 'a long password', school_id: a.schoolId });
    expectError(res, 409, 'CONFLICT');
  });

  it('gives the same 401 for an unknown e-mail and a wrong password', async () => {
    const unknown = await t.api.post('/web-app/signin').send({ email: 'nobody@x.example', password: 'whatever1' });
    const wrong = await t.api.post('/web-app/signin').send({ email: a.adminEmail, password: 'wrong password' });
    expectError(unknown, 401, 'UNAUTHORIZED');
    expectError(wrong, 401, 'UNAUTHORIZED');
    expect(unknown.body).toEqual(wrong.body);
  });
});

describe('parent and staff logins', () => {
  it('logs a parent in with every non-archived child', async () => {
    const p = await parent(t.ctx, a.schoolId, { pin: '2468' });
    const s1 = await student(a.schoolId, p.id, { name: 'Asha' });
    const s2 = await student(a.schoolId, p.id, { name: 'Kiran', status: 'registered' });
    await student(a.schoolId, p.id, { name: 'Old', status: 'archived' });
    const res = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: p.phone, pin: '2468', fcm_token: 'tok-1' });
    expect(res.status).toBe(200);
    expect(res.body.data.parent).toEqual({ id: p.id, father_name: 'Ravi Rao', school_id: a.schoolId });
    expect(res.body.data.children.map((c: { id: number }) => c.id)).toEqual([s1.id, s2.id]);
    expect(res.body.data.children[0]).toMatchObject({ name: 'Asha', roll_no: s1.roll_no, grade: '5', status: 'active' });
    const session = await Session.findOne({ where: { user_type: 'parent', user_id: p.id } });
    expect(session?.fcm_token).toBe('tok-1');
    expect(session?.token_hash).not.toContain(jwt.decode(res.body.data.access_token as string)!.toString());
  });

  it('gives the same 401 for an unknown phone and a wrong PIN', async () => {
    const p = await parent(t.ctx, a.schoolId);
    const wrong = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: p.phone, pin: '0000' });
    const unknown = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: '9000000001', pin: '0000' });
    expectError(wrong, 401, 'UNAUTHORIZED');
    expect(unknown.body).toEqual(wrong.body);
  });

  it('asks which school when the PIN matches the phone in several', async () => {
    const phone = '9111122223';
    await parent(t.ctx, a.schoolId, { phone, pin: '1111' });
    await parent(t.ctx, b.schoolId, { phone, pin: '1111' });
    const res = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: phone, pin: '1111' });
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.body.error.details.schools.map((s: { school_id: string }) => s.school_id).sort()).toEqual([a.schoolId, b.schoolId].sort());
    const picked = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: phone, pin: '1111', school_id: b.schoolId });
    expect(picked.body.data.parent.school_id).toBe(b.schoolId);
  });

  it('needs school_id for a staff login and returns the effective rbac', async () => {
    const s = await staffMember(a.schoolId, { designation: 'Class Teacher', rbac: { diary: 'manage' } });
    const missing = await t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: s.phone, pin: s.pin });
    expectError(missing, 400, 'BAD_REQUEST');
    expect(missing.body.error.details[0].field).toBe('school_id');
    const res = await t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: s.phone, pin: s.pin, school_id: a.schoolId });
    expect(res.status).toBe(200);
    expect(res.body.data.staff).toMatchObject({ id: s.id, designation: 'Class Teacher', school_id: a.schoolId });
    expect(res.body.data.staff.rbac).toMatchObject({ attendance: 'manage', diary: 'manage', activities: 'create' });
  });

  it('refuses an archived staff member with 403, and a suspended school with 403, checked before the session', async () => {
    const archived = await staffMember(a.schoolId, { status: 0 });
    const res = await t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: archived.phone, pin: archived.pin, school_id: a.schoolId });
    expectError(res, 403, 'FORBIDDEN');

    const c = await school(t);
    const p = await parent(t.ctx, c.schoolId);
    const token = await parentLogin(t, p.phone, p.pin);
    await School.update({ status: 'suspended' }, { where: { id: c.schoolId } });
    expectError(await t.api.get('/parent-app/sessions').set(bearer(token)), 403, 'FORBIDDEN');
    expectError(await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: p.phone, pin: p.pin }), 403, 'FORBIDDEN');
    // An ended session of a suspended school's account is still the suspension's 403, not a 401.
    await Session.update({ active: false, revoked_at: new Date() }, { where: { school_id: c.schoolId } });
    expectError(await t.api.get('/parent-app/sessions').set(bearer(token)), 403, 'FORBIDDEN');
  });

  it('forgets earlier failures after a successful login', async () => {
    const s = await staffMember(a.schoolId, { pin: '6666' });
    const attempt = (pin: string) => t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: s.phone, pin, school_id: a.schoolId });
    for (let i = 0; i < 4; i++) expect((await attempt('0000')).status).toBe(401);
    expect((await attempt('6666')).status).toBe(200);
    for (let i = 0; i < 4; i++) expect((await attempt('0000')).status).toBe(401);
    expect((await attempt('6666')).status).toBe(200);
  });

  it('locks an account for 15 minutes after 5 failures, even for the right PIN', async () => {
    const s = await staffMember(a.schoolId, { pin: '5555' });
    for (let i = 0; i < 5; i++) {
      const res = await t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: s.phone, pin: '0000', school_id: a.schoolId });
      expect(res.status).toBe(401);
    }
    const locked = await t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: s.phone, pin: '5555', school_id: a.schoolId });
    expectError(locked, 429, 'TOO_MANY_REQUESTS');
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(800);
    expect(Number(locked.headers['retry-after'])).toBeLessThanOrEqual(900);
  });

  it('counts a parent\'s wrong PINs on their account whether or not the app sends school_id', async () => {
    const login = (phone: string, pin: string, schoolId?: string) =>
      t.api.post('/parent-app/parent-auth-verification').send({ phone_no: phone, pin, ...(schoolId ? { school_id: schoolId } : {}) });
    const p = await parent(t.ctx, a.schoolId, { pin: '2468' });
    for (let i = 0; i < 5; i++) expect((await login(p.phone, '0000', a.schoolId)).status).toBe(401);
    expectError(await login(p.phone, '2468', a.schoolId), 429, 'TOO_MANY_REQUESTS');
    expectError(await login(p.phone, '2468'), 429, 'TOO_MANY_REQUESTS');
    // Alternating the two forms is no second set of guesses: the fifth failure locks.
    const q = await parent(t.ctx, a.schoolId, { pin: '1357' });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await login(q.phone, '0000', i % 2 ? a.schoolId : undefined)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });

  it('judges a burst of guesses sent at once one after another: five are judged, the rest and the right PIN in it are refused', async () => {
    const p = await parent(t.ctx, a.schoolId, { pin: '7391' });
    const pins = [...Array.from({ length: 12 }, (_, i) => String(1000 + i)), '7391'];
    const statuses = (await Promise.all(pins.map((pin) => t.api.post('/parent-app/parent-auth-verification').send({ phone_no: p.phone, pin, school_id: a.schoolId })))).map((r) => r.status);
    expect({ judged: statuses.filter((s) => s === 401).length, locked: statuses.filter((s) => s === 429).length, rightPin: statuses.at(-1) }).toEqual({ judged: 5, locked: 8, rightPin: 429 });
  });
});

describe('tokens and sessions', () => {
  it('accepts the token as Bearer, access_token query parameter or cookie', async () => {
    const p = await parent(t.ctx, a.schoolId);
    const token = await parentLogin(t, p.phone, p.pin);
    expect((await t.api.get('/parent-app/sessions').set(bearer(token))).status).toBe(200);
    expect((await t.api.get(`/parent-app/sessions?access_token=${token}`)).status).toBe(200);
    expect((await t.api.get('/parent-app/sessions').set('Cookie', `access_token=${token}`)).status).toBe(200);
    expectError(await t.api.get('/parent-app/sessions'), 401, 'UNAUTHORIZED');
  });

  it('refuses tampered, alg none, expired and wrongly signed tokens', async () => {
    const p = await parent(t.ctx, a.schoolId);
    const token = await parentLogin(t, p.phone, p.pin);
    const claims = jwt.decode(token) as Record<string, unknown>;
    const [h, , s] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: '999' })).toString('base64url');
    const none = jwt.sign({ ...claims }, '', { algorithm: 'none' });
    const expired = jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 10 }, TEST_JWT_SECRET, { algorithm: 'HS256' });
    const otherKey = jwt.sign({ ...claims }, 'another-secret-another-secret-another-secret', { algorithm: 'HS256' });
    for (const bad of [`${h}.${forged}.${s}`, none, expired, otherKey, 'not.a.token']) {
      expectError(await t.api.get('/parent-app/sessions').set(bearer(bad)), 401, 'UNAUTHORIZED');
    }
  });

  it('refuses a logged-out token on its very next call', async () => {
    const p = await parent(t.ctx, a.schoolId);
    const token = await parentLogin(t, p.phone, p.pin);
    expect((await t.api.post('/parent-app/logout').set(bearer(token))).status).toBe(200);
    expectError(await t.api.get('/parent-app/sessions').set(bearer(token)), 401, 'UNAUTHORIZED');
  });

  it('lists sessions newest first and ends one or all the others', async () => {
    const p = await parent(t.ctx, a.schoolId);
    const first = await parentLogin(t, p.phone, p.pin);
    const second = await parentLogin(t, p.phone, p.pin);
    const third = await parentLogin(t, p.phone, p.pin);
    const list = await t.api.get('/parent-app/sessions').set(bearer(third));
    expect(list.body.data).toHaveLength(3);
    expect(list.body.data[0].current).toBe(true);
    expect(JSON.stringify(list.body)).not.toMatch(/token_hash|session_token/);
    const secondId = list.body.data[1].id;
    expect((await t.api.delete(`/parent-app/sessions/${secondId}`).set(bearer(third))).status).toBe(200);
    expectError(await t.api.get('/parent-app/sessions').set(bearer(second)), 401, 'UNAUTHORIZED');
    const all = await t.api.delete('/parent-app/sessions').set(bearer(third));
    expect(all.body.data).toEqual({ terminated: 1 });
    expectError(await t.api.get('/parent-app/sessions').set(bearer(first)), 401, 'UNAUTHORIZED');
    expect((await t.api.get('/parent-app/sessions').set(bearer(third))).status).toBe(200);
  });

  it('records the device, the times and the 30-day expiry of a login in its session', async () => {
    const p = await parent(t.ctx, a.schoolId);
    const before = Date.now();
    const login = await t.api.post('/parent-app/parent-auth-verification').set('User-Agent', 'ParentApp/3.1')
      .send({ phone_no: p.phone, pin: p.pin, device_id: 'device-7', device_name: "Asha's phone" });
    expect(login.status).toBe(200);
    const [session] = (await t.api.get('/parent-app/sessions').set(bearer(login.body.data.access_token))).body.data;
    expect(session).toMatchObject({ current: true, device_id: 'device-7', device_name: "Asha's phone", user_agent: 'ParentApp/3.1', expires_at: login.body.data.expires_at });
    const created = Date.parse(session.created_at);
    expect(created).toBeGreaterThanOrEqual(before - 1000);
    expect(created).toBeLessThanOrEqual(Date.now() + 1000);
    expect(Date.parse(session.last_seen_at)).toBe(created);
    expect(Date.parse(session.expires_at) - created).toBe(30 * 86_400_000);
  });

  it("answers 404 for someone else's session", async () => {
    const p1 = await parent(t.ctx, a.schoolId);
    const p2 = await parent(t.ctx, a.schoolId);
    const t1 = await parentLogin(t, p1.phone, p1.pin);
    const t2 = await parentLogin(t, p2.phone, p2.pin);
    const [own] = (await t.api.get('/parent-app/sessions').set(bearer(t2))).body.data;
    expectError(await t.api.delete(`/parent-app/sessions/${own.id}`).set(bearer(t1)), 404, 'NOT_FOUND');
    expect((await t.api.get('/parent-app/sessions').set(bearer(t2))).status).toBe(200);
  });

  it('keeps each app to its own token type', async () => {
    const p = await parent(t.ctx, a.schoolId);
    const parentToken = await parentLogin(t, p.phone, p.pin);
    const s = await staffMember(a.schoolId);
    const staffToken = await staffLogin(t, s.phone, s.pin, a.schoolId);
    expectError(await t.api.get('/web-app/sessions').set(bearer(parentToken)), 403, 'FORBIDDEN');
    expectError(await t.api.get('/parent-app/sessions').set(bearer(staffToken)), 403, 'FORBIDDEN');
    expectError(await t.api.get('/teachers-app/sessions').set(bearer(a.adminToken)), 403, 'FORBIDDEN');
    expect((await t.api.get('/teachers-app/sessions').set(bearer(staffToken))).status).toBe(200);
  });

  it("refuses a school_id that is not the token's", async () => {
    const res = await t.api.get(`/web-app/sessions?school_id=${b.schoolId}`).set(bearer(a.adminToken));
    expectError(res, 403, 'FORBIDDEN');
    expect((await t.api.get(`/web-app/sessions?school_id=${a.schoolId}`).set(bearer(a.adminToken))).status).toBe(200);
  });

  it('refuses a cookie-only write without an allowed Origin', async () => {
    const noOrigin = await t.api.post('/web-app/logout').set('Cookie', `access_token=${a.adminToken}`);
    expectError(noOrigin, 403, 'FORBIDDEN');
    const withBearer = await t.api.get('/web-app/sessions').set('Cookie', `access_token=${a.adminToken}`);
    expect(withBearer.status).toBe(200);
  });
});

describe('admin users and roles', () => {
  it('lets a super_admin manage admin users and keeps one super_admin', async () => {
    const created = await t.api.post('/web-app/admins').set(bearer(a.adminToken)).send({ name: 'IT', email: `it-${a.schoolId}@x.example`, password: 'a long password', role: 'it_contact' });
    expect(created.status).toBe(201);
    expect(JSON.stringify(created.body)).not.toMatch(/password/);
    const dup = await t.api.post('/web-app/admins').set(bearer(a.adminToken)).send({ name: 'IT', email: `it-${a.schoolId}@x.example`, password: 'a long password', role: 'admin' });
    expectError(dup, 409, 'CONFLICT');
    const itToken = (await t.api.post('/web-app/signin').send({ email: `it-${a.schoolId}@x.example`, password: 'a long password' })).body.data.access_token;
    expectError(await t.api.get('/web-app/admins').set(bearer(itToken)), 403, 'FORBIDDEN');
    expectError(await t.api.delete(`/web-app/admins/${a.adminId}`).set(bearer(a.adminToken)), 409, 'CONFLICT');
    expectError(await t.api.put(`/web-app/admins/${created.body.data.id}`).set(bearer(b.adminToken)).send({ name: 'x' }), 404, 'NOT_FOUND');
    const reset = await t.api.put(`/web-app/admins/${created.body.data.id}`).set(bearer(a.adminToken)).send({ password: 'another long one' });
    expect(reset.status).toBe(200);
    expectError(await t.api.get('/web-app/sessions').set(bearer(itToken)), 401, 'UNAUTHORIZED');
  });
});

describe('database constraint errors', () => {
  it('answers a unique-key violation no service caught with 409 naming the field', async () => {
    const { toAppError } = await import('../../src/api/middleware/errors.js');
    const { Parent } = await import('../../src/models/index.js');
    await Parent.create({ school_id: a.schoolId, father_name: 'X', phone_no: '9222233334' });
    const err = await Parent.create({ school_id: a.schoolId, father_name: 'Y', phone_no: '9222233334' }).catch((e: unknown) => e);
    const mapped = toAppError(err);
    expect(mapped.status).toBe(409);
    expect(mapped.details).toEqual([{ field: 'phone_no', message: 'already exists' }]);
  });
});
