import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import type { z } from 'zod';
import type { RegisteredRoute } from '../../src/api/route.js';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * The API reference as a newcomer reads it: every operation tagged by app, summarised, described,
 * with its errors, and with examples that the route itself accepts (a request example that the
 * route refuses would teach the reader a wrong call).
 */
interface Operation {
  tags: string[];
  summary: string;
  description: string;
  operationId: string;
  parameters?: Array<{ name: string; in: string; required: boolean; example?: unknown }>;
  requestBody?: { description?: string; content: Record<string, { example?: unknown } | undefined> };
  responses: Record<string, { $ref?: string; content?: Record<string, { example?: unknown; schema?: { format?: string } }> }>;
}
interface Document {
  openapi: string;
  tags: Array<{ name: string }>;
  paths: Record<string, Record<string, Operation>>;
}

let t: TestApp;
let doc: Document;
const oaPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');
const operationOf = (route: RegisteredRoute) => doc.paths[oaPath(route.path)]![route.method]!;
const label = (route: RegisteredRoute) => `${route.method.toUpperCase()} ${route.path}`;
const operations = () => Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })));

/** The operations whose example the schema refuses, with zod's first complaint. */
function refused(pick: (route: RegisteredRoute) => { schema?: z.ZodType; value: unknown } | undefined): string[] {
  return t.routes.flatMap((route) => {
    const picked = pick(route);
    if (!picked?.schema) return [];
    const result = picked.schema.safeParse(picked.value);
    return result.success ? [] : [`${label(route)}: ${result.error.issues[0]?.path.join('.')} ${result.error.issues[0]?.message}`];
  });
}

beforeAll(async () => {
  t = await startTestApp();
  const res = await t.api.get('/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
});
afterAll(async () => t.close());

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 and groups every operation under one of the three apps or Service', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.tags.map((tag) => tag.name)).toEqual(['Parent app', 'Teachers app', 'Web admin app', 'Service']);
    const misfiled = operations().filter(({ name, op }) => {
      const expected = name.includes('/parent-app/') ? 'Parent app' : name.includes('/teachers-app/') ? 'Teachers app' : name.includes('/web-app/') ? 'Web admin app' : 'Service';
      return op.tags.length !== 1 || op.tags[0] !== expected;
    });
    expect(misfiled.map((m) => m.name)).toEqual([]);
  });

  it('gives every operation a summary, a description, a success example and its error responses', () => {
    const lacking = operations().flatMap(({ name, op }) => {
      const successes = Object.entries(op.responses).filter(([status]) => status.startsWith('2'));
      const problems = [
        !op.summary?.trim() && 'summary',
        !op.description?.trim() && 'description',
        // Each success shows an example: a JSON or text answer its body; bytes (a file) name their content types; a HEAD answers none.
        !name.startsWith('HEAD ') && (successes.length === 0 || successes.some(([, r]) => {
          const media = Object.values(r.content ?? {})[0];
          return media?.example === undefined && media?.schema?.format !== 'binary';
        })) && 'success example',
        op.requestBody?.content['application/json'] && op.requestBody.content['application/json'].example === undefined && 'request example',
        op.requestBody?.content['application/x-www-form-urlencoded'] && op.requestBody.content['application/x-www-form-urlencoded'].example === undefined && 'request example',
        op.requestBody && !op.requestBody.content['application/json'] && !op.requestBody.content['application/x-www-form-urlencoded'] && !op.requestBody.description && 'upload description',
      ].filter(Boolean);
      return problems.length ? [`${name}: ${problems.join(', ')}`] : [];
    });
    expect(lacking).toEqual([]);

    for (const route of t.routes) {
      const statuses = Object.keys(operationOf(route).responses);
      if (route.spec.auth !== false) expect({ route: label(route), statuses }).toEqual({ route: label(route), statuses: expect.arrayContaining(['401', '403', '429']) });
      if (route.spec.body || route.spec.upload) expect({ route: label(route), statuses }).toEqual({ route: label(route), statuses: expect.arrayContaining(['400', '413']) });
      for (const status of route.spec.errors ?? []) expect({ route: label(route), statuses }).toEqual({ route: label(route), statuses: expect.arrayContaining([String(status)]) });
    }
  });

  it('tells which token each authenticated operation needs', () => {
    const parent = t.routes.find((r) => r.path === '/parent-app/sessions' && r.method === 'get')!;
    expect(operationOf(parent).description).toContain('a parent token from `POST /parent-app/parent-auth-verification`');
    const web = t.routes.find((r) => r.path === '/web-app/noticeboard' && r.method === 'post')!;
    expect(operationOf(web).description).toContain('an admin token from `POST /web-app/signin`');
  });

  it('shows request examples that the routes accept, given or generated', () => {
    // JSON, or a form-encoded body (a web form, Twilio's callbacks).
    expect(refused((route) => ({ schema: route.spec.body, value: Object.values(operationOf(route).requestBody?.content ?? {})[0]?.example }))).toEqual([]);
  });

  it('shows path and required query parameters with examples that the routes accept', () => {
    const values = (route: RegisteredRoute, where: string) =>
      Object.fromEntries((operationOf(route).parameters ?? []).filter((p) => p.in === where && p.required).map((p) => [p.name, p.example]));
    expect(refused((route) => ({ schema: route.spec.params, value: values(route, 'path') }))).toEqual([]);
    expect(refused((route) => ({ schema: route.spec.query, value: values(route, 'query') }))).toEqual([]);
  });

  it('shows success examples whose data has the shape of the response schema', () => {
    const example = (route: RegisteredRoute) => {
      const success = Object.entries(operationOf(route).responses).find(([status]) => status.startsWith('2'))![1];
      return success.content!['application/json']!.example as { success: boolean; data?: unknown };
    };
    // A file or a calendar is its own document, not the envelope.
    const enveloped = t.routes.filter((route) => !route.spec.produces);
    expect(enveloped.filter((route) => example(route).success !== true).map(label)).toEqual([]);
    expect(refused((route) => ({ schema: route.spec.response, value: route.spec.produces ? undefined : example(route).data }))).toEqual([]);
  });

  it('documents every route the app serves outside the three apps, except the reference page itself', () => {
    const stack = (t.app as unknown as { router: { stack: Array<{ route?: { path: string | string[]; methods: Record<string, boolean> } }> } }).router.stack;
    const served = stack.flatMap((layer) =>
      layer.route ? [layer.route.path].flat().flatMap((path) => Object.keys(layer.route!.methods).map((method) => `${method.toUpperCase()} ${path}`)) : [],
    );
    const undocumented = served.filter((name) => !name.includes(' /docs')).filter((name) => {
      const [method, path] = name.split(' ');
      return !doc.paths[path!.replace(/:(\w+)/g, '{$1}')]?.[method!.toLowerCase()];
    });
    expect(served).toEqual(expect.arrayContaining(['GET /healthz', 'GET /readyz', 'GET /openapi.json']));
    expect(undocumented).toEqual([]);
  });

  it('describes each error response with the error body a client receives', async () => {
    const res = await t.api.get('/web-app/noticeboard?school_id=greenwood');
    const components = (doc as unknown as { components: { responses: Record<string, { content: { 'application/json': { example: { error: { code: string } } } } }> } }).components;
    expect(res.status).toBe(401);
    expect(components.responses.E401!.content['application/json'].example).toMatchObject({ success: false, error: { code: res.body.error.code } });
    expect(Object.keys(res.body)).toEqual(Object.keys(components.responses.E401!.content['application/json'].example));
  });
});
