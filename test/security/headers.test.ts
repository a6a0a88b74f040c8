import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApp } from '../../src/app.js';
import type { Config } from '../../src/config.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { ADMIN_PASSWORD, bearer, expectError, school, type SchoolFixture } from '../helpers/fixtures.js';
import { checkedSupertest } from '../helpers/openapi-check.js';

/**
 * What a browser relies on: helmet's security headers on every answer, CORS only for the origins
 * in CORS_ORIGINS, a cookie-authenticated write only from one of those origins, and the sign-in
 * cookie's flags.
 */
const allowed = 'https://app.greenwood.example';
const foreign = 'https://evil.example';

let t: TestApp;
let a: SchoolFixture;
let cookie: string;

beforeAll(async () => {
  t = await startTestApp({ CORS_ORIGINS: `${allowed},https://admin.greenwood.example` });
  a = await school(t);
  const signin = await t.api.post('/web-app/signin').send({ email: a.adminEmail, password: ADMIN_PASSWORD });
  cookie = (signin.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('access_token='))!.split(';')[0]!;
});
afterAll(async () => t.close());

/** The same database behind an app built with other settings (a second startTestApp would re-bind the models). */
const withConfig = (changes: Partial<Config>) => checkedSupertest(createApp({ ...t.ctx, config: { ...t.ctx.config, ...changes } }).app);

describe('security headers', () => {
  const pages = () => [
    ['a public route', t.api.get('/healthz')],
    ['an authenticated route', t.api.get('/web-app/sessions').set(bearer(a.adminToken))],
    ['an error', t.api.get('/web-app/sessions')],
    ['an unknown route', t.api.get('/no/such/page')],
    ['the API reference', t.api.get('/docs')],
  ] as const;

  it('sends helmet headers and no x-powered-by on every kind of answer', async () => {
    for (const [what, request] of pages()) {
      const res = await request;
      expect({ what, headers: res.headers }).toMatchObject({
        what,
        headers: {
          'x-content-type-options': 'nosniff',
          'x-frame-options': 'SAMEORIGIN',
          'strict-transport-security': expect.stringMatching(/max-age=\d{6,}/),
          'referrer-policy': 'no-referrer',
          'cross-origin-opener-policy': 'same-origin',
          'content-security-policy': expect.stringContaining("frame-ancestors 'self'"),
        },
      });
      expect({ what, poweredBy: res.headers['x-powered-by'] }).toEqual({ what, poweredBy: undefined });
    }
  });

  it('serves the API reference under a content security policy that allows only its own scripts', async () => {
    const res = await t.api.get('/docs');
    expect(res.status).toBe(200);
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-eval');
    // The page loads its script from the server itself, which the policy allows.
    expect(res.text).toContain('<script src="/docs/assets/swagger-ui-bundle.js"></script>');
  });
});

describe('CORS from CORS_ORIGINS', () => {
  it('answers a preflight from a listed origin with that origin and credentials', async () => {
    const res = await t.api.options('/web-app/grades').set('Origin', allowed).set('Access-Control-Request-Method', 'POST').set('Access-Control-Request-Headers', 'content-type,authorization');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(allowed);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers['access-control-allow-methods']).toContain('POST');
  });

  it('answers a request from a listed origin with that origin and credentials', async () => {
    const res = await t.api.get('/web-app/sessions').set('Origin', allowed).set(bearer(a.adminToken));
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(allowed);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers.vary).toMatch(/Origin/);
  });

  it('gives another origin no CORS grant, on a preflight or a request', async () => {
    const preflight = await t.api.options('/web-app/grades').set('Origin', foreign).set('Access-Control-Request-Method', 'POST');
    const request = await t.api.get('/web-app/sessions').set('Origin', foreign).set(bearer(a.adminToken));
    for (const res of [preflight, request]) {
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });

  it('answers a call without an Origin (an app) with no CORS grant, and says the answer varies by Origin', async () => {
    // A shared cache must not hand this answer to a browser's cross-origin call, nor the reverse.
    const res = await t.api.get('/web-app/sessions').set(bearer(a.adminToken));
    expect(res.status).toBe(200);
    expect(res.headers.vary).toMatch(/Origin/);
    expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  it('grants nothing to any origin when CORS_ORIGINS is empty', async () => {
    const bare = withConfig({ corsOrigins: [] });
    const preflight = await bare.options('/web-app/grades').set('Origin', allowed).set('Access-Control-Request-Method', 'POST');
    const request = await bare.get('/web-app/sessions').set('Origin', allowed).set(bearer(a.adminToken));
    for (const res of [preflight, request]) {
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });
});

describe('cookie-authenticated writes need a listed Origin', () => {
  let n = 0;
  const grade = () => ({ name: `Cookie grade ${++n}` });

  it('refuses a cookie-only write without an Origin, or from another origin, with 403, and changes nothing', async () => {
    const refused = [grade(), grade(), grade()];
    expectError(await t.api.post('/web-app/grades').set('Cookie', cookie).send(refused[0]!), 403, 'FORBIDDEN');
    expectError(await t.api.post('/web-app/grades').set('Cookie', cookie).set('Origin', foreign).send(refused[1]!), 403, 'FORBIDDEN');
    expectError(await t.api.post('/web-app/grades').set('Cookie', cookie).set('Origin', 'null').send(refused[2]!), 403, 'FORBIDDEN');
    const sessions = await t.api.get('/web-app/sessions').set('Cookie', cookie);
    const own = sessions.body.data.map((s: { id: number }) => s.id) as number[];
    for (const id of own) expectError(await t.api.delete(`/web-app/sessions/${id}`).set('Cookie', cookie).set('Origin', foreign), 403, 'FORBIDDEN');
    const grades = await t.api.get(`/web-app/grades?school_id=${a.schoolId}`);
    const names = grades.body.data.map((g: { name: string }) => g.name) as string[];
    expect(names.filter((name) => refused.some((r) => r.name === name))).toEqual([]);
    expect((await t.api.get('/web-app/sessions').set('Cookie', cookie)).body.data.map((s: { id: number }) => s.id)).toEqual(own);
  });

  it('accepts a cookie-only write from a listed origin', async () => {
    const res = await t.api.post('/web-app/grades').set('Cookie', cookie).set('Origin', allowed).send(grade());
    expect(res.status).toBe(201);
  });

  it('accepts cookie-only reads from anywhere: a read changes nothing', async () => {
    expect((await t.api.get('/web-app/sessions').set('Cookie', cookie)).status).toBe(200);
  });

  it('needs no Origin for a write authenticated by the Authorization header', async () => {
    expect((await t.api.post('/web-app/grades').set(bearer(a.adminToken)).send(grade())).status).toBe(201);
    expect((await t.api.post('/web-app/grades').set(bearer(a.adminToken)).set('Origin', foreign).send(grade())).status).toBe(201);
  });
});

describe('the sign-in cookie', () => {
  const signinCookie = async (api: ReturnType<typeof checkedSupertest>) => {
    const res = await api.post('/web-app/signin').send({ email: a.adminEmail, password: ADMIN_PASSWORD });
    expect(res.status).toBe(200);
    return (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('access_token='))!;
  };

  it('is HttpOnly, SameSite=Lax, for the whole site, lives as long as the session, and is not Secure outside production', async () => {
    const set = await signinCookie(t.api);
    const attributes = set.split(';').map((s) => s.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'path=/', `max-age=${12 * 3600}`]));
    expect(attributes).not.toContain('secure');
  });

  it('is Secure under production', async () => {
    const set = await signinCookie(withConfig({ production: true }));
    const attributes = set.split(';').map((s) => s.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=lax', 'secure']));
  });

  it('is cleared by logout', async () => {
    const signin = await t.api.post('/web-app/signin').send({ email: a.adminEmail, password: ADMIN_PASSWORD });
    const res = await t.api.post('/web-app/logout').set(bearer(signin.body.data.access_token));
    expect(res.status).toBe(200);
    const cleared = (res.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('access_token='))!;
    expect(cleared).toMatch(/^access_token=;/);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/);
  });
});
