import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { createApp } from '../../src/app.js';
import { AuditEvent, Session } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { bearer, expectError, parent, parentLogin, school } from '../helpers/fixtures.js';
import { checkedSupertest } from '../helpers/openapi-check.js';

describe('rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PUBLIC: '3', LOGIN_RATE_LIMIT_IP: '2', RATE_LIMIT_AUTH: '4' });
  });
  afterAll(async () => t.close());

  it('limits logins per IP with 429, Retry-After and the error body', async () => {
    const attempt = () => t.api.post('/web-app/signin').send({ email: 'nobody@x.example', password: 'whatever1' });
    expect((await attempt()).status).toBe(401);
    expect((await attempt()).status).toBe(401);
    const limited = await attempt();
    expectError(limited, 429, 'TOO_MANY_REQUESTS');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('limits public routes per IP', async () => {
    // The public budget (3) is already partly used by the login attempts above.
    let last;
    for (let i = 0; i < 4; i++) last = await t.api.post('/web-app/signup').send({});
    expectError(last!, 429, 'TOO_MANY_REQUESTS');
  });

  it('limits authenticated calls per session', async () => {
    const other = await startTestApp({ RATE_LIMIT_AUTH: '3' });
    try {
      const s = await school(other);
      const p = await parent(other.ctx, s.schoolId);
      const token = await parentLogin(other, p.phone, p.pin);
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await other.api.get('/parent-app/sessions').set(bearer(token))).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
    } finally {
      await other.close();
    }
  });
});

describe('logging and readiness', () => {
  it('redacts the access_token query parameter and answers X-Request-Id', async () => {
    const t = await startTestApp();
    try {
      const lines: string[] = [];
      const sink = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
      const { app } = createApp({ ...t.ctx, log: pino({ level: 'info' }, sink) });
      const res = await checkedSupertest(app).get('/parent-app/sessions?access_token=secret-token-value').set('X-Request-Id', 'req-123');
      expect(res.status).toBe(401);
      expect(res.headers['x-request-id']).toBe('req-123');
      const log = lines.join('');
      expect(log).toContain('access_token=[REDACTED]');
      expect(log).toContain('req-123');
      expect(log).not.toContain('secret-token-value');
    } finally {
      await t.close();
    }
  });

  it('logs one line per request, and a failed request at error level under its request id', async () => {
    const t = await startTestApp();
    try {
      const lines: string[] = [];
      const sink = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
      const { app } = createApp({ ...t.ctx, log: pino({ level: 'info' }, sink) });
      const s = await school(t);
      const ok = await checkedSupertest(app).get('/web-app/sessions').set('Authorization', `Bearer ${s.adminToken}`).set('X-Request-Id', 'req-ok');
      expect(ok.status).toBe(200);
      await t.ctx.db.close();
      const failed = await checkedSupertest(app).get('/web-app/sessions').set('Authorization', `Bearer ${s.adminToken}`).set('X-Request-Id', 'req-down');
      expect(failed.status).toBeGreaterThanOrEqual(500);
      const entries = lines.map((l) => JSON.parse(l) as { level: number; msg: string; reqId?: string; req?: { id: string; method: string; url: string }; res?: { statusCode: number }; responseTime?: number });
      const completed = entries.find((e) => e.req?.id === 'req-ok');
      expect(completed).toMatchObject({ level: 30, msg: 'request completed', req: { method: 'GET', url: '/web-app/sessions' }, res: { statusCode: 200 } });
      expect(typeof completed?.responseTime).toBe('number');
      expect(entries.find((e) => e.req?.id === 'req-down')).toMatchObject({ level: 50, msg: 'request errored', res: { statusCode: failed.status } });
      expect(entries.find((e) => e.msg === 'request failed')).toMatchObject({ level: 50, reqId: 'req-down' });
    } finally {
      await t.close().catch(() => undefined);
    }
  });

  it('answers /readyz 503 when the database does not answer', async () => {
    const t = await startTestApp();
    expect((await t.api.get('/readyz')).status).toBe(200);
    await t.ctx.db.close();
    const res = await t.api.get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body.success).toBe(false);
    expect((await t.api.get('/healthz')).status).toBe(200);
    await t.close().catch(() => undefined);
  });
});

describe('behind a load balancer', () => {
  it('limits each client by its forwarded address when TRUST_PROXY names the proxy', async () => {
    const t = await startTestApp({ RATE_LIMIT_PUBLIC: '2', TRUST_PROXY: 'loopback' });
    try {
      const from = (ip: string) => t.api.post('/web-app/signup').set('X-Forwarded-For', ip).send({});
      expect((await from('203.0.113.1')).status).toBe(400);
      expect((await from('203.0.113.1')).status).toBe(400);
      expect((await from('203.0.113.1')).status).toBe(429);
      expect((await from('203.0.113.2')).status).toBe(400);
      // The balancer's probes are never limited, however often they come.
      for (let i = 0; i < 5; i++) {
        expect((await t.api.get('/healthz').set('X-Forwarded-For', '203.0.113.1')).status).toBe(200);
        expect((await t.api.get('/readyz').set('X-Forwarded-For', '203.0.113.1')).status).toBe(200);
      }
    } finally {
      await t.close();
    }
  });

  it('keeps the first 64 characters of a forwarded address longer than any, in the session and the trail', async () => {
    // Trusting every hop, the address is the leftmost one forwarded, whatever it says.
    const t = await startTestApp({ TRUST_PROXY: 'true' });
    try {
      const s = await school(t);
      const p = await parent(t.ctx, s.schoolId);
      const forwarded = `2001:db8::${'f'.repeat(70)}`;
      const res = await t.api.post('/parent-app/parent-auth-verification').set('X-Forwarded-For', forwarded).send({ phone_no: p.phone, pin: p.pin, school_id: s.schoolId });
      expect(res.status).toBe(200);
      const event = await AuditEvent.findOne({ where: { school_id: s.schoolId, action: 'login.success', actor_type: 'parent' }, raw: true });
      expect(event?.ip).toBe(forwarded.slice(0, 64));
      expect((await Session.findOne({ where: { school_id: s.schoolId, user_type: 'parent' }, raw: true }))?.ip).toBe(forwarded.slice(0, 64));
    } finally {
      await t.close();
    }
  });
});
