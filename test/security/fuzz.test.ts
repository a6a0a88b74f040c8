import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { z } from 'zod';
import { allModels } from '../../src/models/index.js';
import type { RegisteredRoute } from '../../src/api/route.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { bearer, parent, parentLogin, school, staffLogin, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';

/**
 * Property: whatever a client sends to any registered route — wrong types, huge strings, huge and
 * negative numbers, nulls, SQL text, unicode, NUL bytes — the answer is never a 5xx, every error
 * carries the contract's body, and the rows that existed before are untouched.
 */
const CASES_PER_ROUTE = Number(process.env.FUZZ_CASES ?? 20);

const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.constantFrom("' OR 1=1 --", '"; DROP TABLE students; --', '\u0000', 'a\u0000b', '%00', '../../etc/passwd', '<script>alert(1)</script>', '💥'.repeat(100), '١٢٣٤', ''),
  fc.constant('x'.repeat(20_000)),
  fc.integer(),
  fc.integer({ min: -2_147_483_648, max: 0 }),
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, 0.5, -0, Number.MAX_SAFE_INTEGER),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.integer(), fc.string()), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.oneof(fc.string(), fc.integer(), fc.constant(null)), { maxKeys: 3 }),
);

// Path ids far from the fixtures' own, so a fuzzed DELETE or PUT never lands on a real row: a string
// such as "3", " 3" or "0x3" is read as id 3, so strings that read as a small id are left out too.
const readsAsRealId = (s: string) => {
  const n = Number(s);
  return Number.isFinite(n) && n >= 1 && n < 50_000_000;
};
const pathValue = fc.oneof(
  fc.string({ minLength: 1, maxLength: 30 }).filter((s) => !s.includes('/') && !s.includes('?') && !s.includes('#') && !readsAsRealId(s)),
  fc.integer({ min: -1_000_000_000, max: 0 }),
  fc.integer({ min: 50_000_000, max: 2_147_483_647 }),
  fc.constantFrom('1e309', '99999999999999999999', "1' OR '1'='1", '%00', 'NaN', '-1', '0x10', '1.5'),
);

const keysOf = (schema: unknown): string[] => (schema instanceof z.ZodObject ? Object.keys(schema.shape) : []);

function fields(schema: unknown) {
  const keys = keysOf(schema);
  return fc.record(
    Object.fromEntries([...keys.map((k) => [k, nasty] as const), ['junk', nasty] as const]),
    { requiredKeys: [] },
  );
}

let t: TestApp;
let a: SchoolFixture;
let tokens: Record<string, string>;
let before: Map<string, unknown[]>;

async function snapshot(): Promise<Map<string, unknown[]>> {
  const out = new Map<string, unknown[]>();
  for (const model of allModels) {
    // The school's own row is the caller's to rename (PUT /web-app/school takes no id to miss), so a valid random name may land there.
    if (['sessions', 'login_lockouts', 'job_runs', 'notifications', 'schools'].includes(model.getTableName() as string)) continue;
    out.set(model.getTableName() as string, await (model as unknown as { findAll(o: object): Promise<unknown[]> }).findAll({ raw: true, order: [[model.primaryKeyAttribute, 'ASC']] }));
  }
  return out;
}

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  const p = await parent(t.ctx, a.schoolId);
  await student(a.schoolId, p.id);
  const s = await staffMember(a.schoolId, { designation: 'Principal' });
  tokens = {
    'parent-app': await parentLogin(t, p.phone, p.pin),
    'teachers-app': await staffLogin(t, s.phone, s.pin, a.schoolId),
    'web-app': a.adminToken,
  };
  before = await snapshot();
});
afterAll(async () => t.close());

const fuzzable = (r: RegisteredRoute) => r.spec.body || r.spec.query || r.spec.params;

describe('fuzzing every route', () => {
  it('has routes to fuzz', () => {
    expect(t.routes.filter(fuzzable).length).toBeGreaterThan(5);
  });

  it('never answers 5xx, always with the error body', async () => {
    const failures: string[] = [];
    for (const route of t.routes.filter(fuzzable)) {
      const paramNames = keysOf(route.spec.params);
      await fc.assert(
        fc.asyncProperty(
          fc.record({ params: fc.tuple(...paramNames.map(() => pathValue)), body: fields(route.spec.body), query: fields(route.spec.query) }),
          async ({ params, body, query }) => {
            let path = route.path;
            paramNames.forEach((name, i) => {
              path = path.replace(`:${name}`, encodeURIComponent(String(params[i])));
            });
            const qs = Object.entries(query)
              .filter(([k]) => k !== 'school_id' || Math.random() < 0.5)
              .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent((typeof v === 'object' ? JSON.stringify(v) : String(v)).slice(0, 1000))}`)
              .join('&');
            // Node's HTTP parser answers a URL over its header limit (16 KiB) itself, before the app: keep under it.
            let req = t.api[route.method](qs ? `${path}?${qs}` : path);
            if (route.spec.auth !== false && route.app) req = req.set(bearer(tokens[route.app]!));
            const res = await (route.method === 'get' || route.method === 'delete' ? req : req.send(body as object));
            // A route that answers a document (a web page) answers its documented errors in it too.
            const documented = res.status in (route.spec.produces?.errors ?? {}) && res.type === route.spec.produces!.type.split(';')[0];
            const ok =
              res.status < 500 &&
              (res.status < 400 || documented || (res.body.success === false && typeof res.body.message === 'string' && typeof res.body.error?.code === 'string'));
            if (!ok) failures.push(`${route.method.toUpperCase()} ${path} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)} body=${JSON.stringify(body).slice(0, 200)}`);
            return ok;
          },
        ),
        { numRuns: CASES_PER_ROUTE, endOnFailure: true },
      ).catch(() => undefined);
    }
    expect(failures).toEqual([]);
  }, 600_000);

  it('leaves the rows that existed before intact', async () => {
    const after = await snapshot();
    for (const [table, rows] of before) {
      const now = after.get(table) ?? [];
      const byId = new Map(now.map((r) => [JSON.stringify((r as Record<string, unknown>).id ?? r), r]));
      for (const row of rows) {
        const key = JSON.stringify((row as Record<string, unknown>).id ?? row);
        const current = byId.get(key) as Record<string, unknown> | undefined;
        expect({ table, row: current && { ...current, updated_at: undefined } }).toEqual({ table, row: { ...(row as object), updated_at: undefined } });
      }
    }
  });
});
