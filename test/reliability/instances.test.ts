import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { closeContext, createContext } from '../../src/bootstrap.js';
import { Notification } from '../../src/models/index.js';
import { enqueue } from '../../src/push/outbox.js';
import { testConfig } from '../helpers/app.js';
import { freshDatabase, mysqlUrl, type TestDatabase } from '../helpers/database.js';
import { redisUrl } from '../helpers/redis.js';
import { post, startServer, type ServerProcess } from '../helpers/server-process.js';
import { fetchChecked } from '../helpers/openapi-check.js';

/**
 * Several instances behind a load balancer share nothing but the database and Redis: a session ended
 * on one is refused by the other on its very next request, a lock-out reached through one holds on
 * the other, a console sign-in made through one works on the other, and every outbox record is sent
 * once while both workers drain it. On MariaDB, two servers on one database; on SQLite, two server
 * processes on one file (the embedded database's way to run more than one process, on one host).
 * (The shared rate-limit budget is in redis.test.ts; each job once per interval in jobs-once.test.ts.)
 */
let database: TestDatabase;
let a: ServerProcess;
let b: ServerProcess;
const password = 'a long password';
const email = 'head@instances.example';
const schoolId = 'instances';

beforeAll(async () => {
  database = await freshDatabase();
  const env = { DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl, REDIS_URL: redisUrl(), ADMIN_CONSOLE_ENABLED: 'true', LOG_LEVEL: 'info' };
  [a, b] = await Promise.all([startServer(env, { startTimeoutMs: 90_000 }), startServer(env, { startTimeoutMs: 90_000 })]);
  const signup = await post(`${a.url}/web-app/signup`, { name: 'Head', email, password, school_id: schoolId });
  expect(signup.status).toBe(201);
}, 120_000);
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await database?.drop();
});

async function call(server: ServerProcess, method: string, path: string, token: string, body?: unknown) {
  const res = await fetchChecked(server.url + path, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, headers: res.headers, body: (await res.json().catch(() => null)) as Record<string, any> | null };
}

async function adminToken(server: ServerProcess): Promise<string> {
  const res = await post(`${server.url}/web-app/signin`, { email, password });
  expect(res.status).toBe(200);
  return res.body!.data.access_token;
}

function sessionIdOf(sessions: Array<{ id: number; current: boolean }>): number {
  return sessions.find((s) => s.current)!.id;
}

const mode = mysqlUrl() ? 'two servers on one MariaDB database' : 'two server processes on one SQLite file';

describe(`several instances: ${mode}`, () => {
  it('refuses on one instance, at once, a session logged out on the other', async () => {
    const token = await adminToken(a);
    expect((await call(b, 'GET', '/web-app/sessions', token)).status).toBe(200);
    expect((await call(a, 'POST', '/web-app/logout', token)).status).toBe(200);
    const refused = await call(b, 'GET', '/web-app/sessions', token);
    expect({ status: refused.status, code: refused.body?.error?.code }).toEqual({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('refuses on one instance, at once, a session ended by DELETE /sessions/:id on the other', async () => {
    const [kept, ended] = [await adminToken(b), await adminToken(a)];
    const listed = await call(a, 'GET', '/web-app/sessions', ended);
    const endedId = sessionIdOf(listed.body!.data);
    expect((await call(b, 'DELETE', `/web-app/sessions/${endedId}`, kept)).status).toBe(200);
    expect((await call(a, 'GET', '/web-app/sessions', ended)).status).toBe(401);
    expect((await call(b, 'GET', '/web-app/sessions', ended)).status).toBe(401);
    expect((await call(a, 'GET', '/web-app/sessions', kept)).status).toBe(200);
  });

  it("refuses on one instance, at once, a staff member's other sessions ended on the other", async () => {
    const admin = await adminToken(a);
    const created = await call(a, 'POST', '/web-app/staff', admin, { name: 'Anita', designation: 'Class Teacher', phone_no: '9876500001', pin: '4321' });
    expect(created.status).toBe(201);
    const login = async (server: ServerProcess) => {
      const res = await post(`${server.url}/teachers-app/teacher-auth-verification`, { phone_no: '9876500001', pin: '4321', school_id: schoolId });
      expect(res.status).toBe(200);
      return res.body!.data.access_token as string;
    };
    const [phone, tablet] = [await login(a), await login(b)];
    expect((await call(a, 'GET', '/teachers-app/sessions', tablet)).status).toBe(200);
    const ended = await call(b, 'DELETE', '/teachers-app/sessions', phone);
    expect(ended.body?.data).toEqual({ terminated: 1 });
    expect((await call(a, 'GET', '/teachers-app/sessions', tablet)).status).toBe(401);
    expect((await call(a, 'GET', '/teachers-app/sessions', phone)).status).toBe(200);
  });

  it('holds a lock-out reached through both instances on each of them, even for the right password', async () => {
    const target = 'locked@instances.example';
    const admin = await adminToken(a);
    expect((await call(a, 'POST', '/web-app/admins', admin, { name: 'Clerk', email: target, password, role: 'admin' })).status).toBe(201);
    // Five failures in all, split between the instances: each one alone saw fewer than five.
    for (const server of [a, b, a, b, a]) {
      expect((await post(`${server.url}/web-app/signin`, { email: target, password: 'wrong password' })).status).toBe(401);
    }
    for (const server of [b, a]) {
      const res = await fetchChecked(`${server.url}/web-app/signin`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: target, password }) });
      const body = (await res.json()) as Record<string, any>;
      expect({ status: res.status, code: body.error?.code }).toEqual({ status: 429, code: 'TOO_MANY_REQUESTS' });
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('keeps a console sign-in made through one instance on the other', async () => {
    const login = await fetchChecked(`${a.url}/admin/login`, {
      method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password }).toString(),
    });
    expect({ status: login.status, location: login.headers.get('location') }).toEqual({ status: 302, location: '/admin' });
    const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const list = await fetchChecked(`${b.url}/admin/api/resources/designations/actions/list`, { headers: { cookie } });
    expect(list.status).toBe(200);
    const names = ((await list.json()) as { records: Array<{ params: { name: string } }> }).records.map((r) => r.params.name);
    expect(names).toEqual(expect.arrayContaining(['Principal', 'Class Teacher']));
    // Without the cookie the other instance sends the console to its login page.
    expect((await fetchChecked(`${b.url}/admin/api/resources/designations/actions/list`, { redirect: 'manual' })).status).toBe(302);
  });

  it('sends every outbox record exactly once while both workers drain it', async () => {
    const ctx = await createContext({ ...testConfig({ DATA_DIR: database.dataDir }), databaseUrl: database.databaseUrl, sqliteStorage: database.sqliteStorage });
    try {
      const titles: string[] = [];
      const sends = (server: ServerProcess) => titles.map((title) => server.output().split(`"title":"${title}"`).length - 1);
      const tookPart = (server: ServerProcess) => sends(server).some(Boolean);
      // Written in chunks over a few seconds, as a live service writes them, so both workers' polls
      // meet them; on a busy machine one worker may win a whole chunk, so chunks keep coming (for up
      // to half a minute) until each worker has sent some.
      for (const until = Date.now() + 30_000; titles.length < 240 || (!(tookPart(a) && tookPart(b)) && Date.now() < until);) {
        const chunk = Array.from({ length: 20 }, (_, j) => `Outbox once ${titles.length + j}`);
        titles.push(...chunk);
        await enqueue(chunk.map((title) => ({ school_id: schoolId, event: 'test_push', target_type: 'token', address: `device-${title}`, title, body: 'Once' })));
        await new Promise((r) => setTimeout(r, 300));
      }
      const count = titles.length;
      const deadline = Date.now() + 60_000;
      while ((await Notification.count({ where: { school_id: schoolId, status: 'sent', event: 'test_push' } })) < count) {
        if (Date.now() > deadline) throw new Error('the outbox was not drained within a minute');
        await new Promise((r) => setTimeout(r, 200));
      }
      const rows = await Notification.findAll({ where: { school_id: schoolId, event: 'test_push' }, attributes: ['status', 'attempts'], raw: true });
      expect(rows).toHaveLength(count);
      expect(rows.filter((r) => r.status !== 'sent' || r.attempts !== 1)).toEqual([]);
      // The log lines of the last sends may still be on their way through the pipes.
      const total = () => [...sends(a), ...sends(b)].reduce((x, y) => x + y, 0);
      for (const until = Date.now() + 5000; total() < count && Date.now() < until;) await new Promise((r) => setTimeout(r, 100));
      const [byA, byB] = [sends(a), sends(b)];
      // Each record was sent by one of the two, once; and both took part.
      expect(titles.filter((_, i) => byA[i]! + byB[i]! !== 1)).toEqual([]);
      expect({ a: byA.some(Boolean), b: byB.some(Boolean) }).toEqual({ a: true, b: true });
    } finally {
      await closeContext(ctx);
    }
  }, 120_000);
});
