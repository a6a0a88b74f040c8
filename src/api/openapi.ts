import { z } from 'zod';
import type { RegisteredRoute } from './route.js';

const tagOf: Record<string, string> = { 'parent-app': 'Parent app', 'teachers-app': 'Teachers app', 'web-app': 'Web admin app' };

const errorDescriptions: Record<number, string> = {
  400: 'A field is missing or malformed; `error.details` names each field',
  401: 'Missing, malformed, expired or revoked token, or bad credentials',
  403: 'Wrong app for the token, another school, a missing role or permission, or a disabled account',
  404: 'No such record in the caller\'s school, or no such route',
  409: 'A duplicate, or a transition the current state forbids',
  413: 'The body is larger than 1 MiB',
  429: 'Rate limit or login lock-out; see Retry-After',
};

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

function parameters(schema: z.ZodType | undefined, where: 'query' | 'path') {
  if (!schema) return [];
  const js = jsonSchema(schema, 'input') as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || (js.required ?? []).includes(name),
    schema: s,
    ...(typeof s.description === 'string' ? { description: s.description } : {}),
  }));
}

/** The OpenAPI 3.1 document, built from the same schemas that validate each route. */
export function buildOpenApi(routes: RegisteredRoute[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { app, method, path, spec } of routes) {
    const oaPath = path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const success = spec.status ?? 200;
    const statuses = new Set<number>([...(spec.auth === false ? [] : [401, 403]), ...(spec.body || spec.query || spec.params ? [400] : []), ...(spec.errors ?? [])]);
    if (spec.auth === false) statuses.add(429);
    const envelope = {
      type: 'object',
      required: ['success'],
      properties: {
        success: { const: true },
        message: { type: 'string' },
        ...(spec.response ? { data: jsonSchema(spec.response, 'output') } : {}),
      },
    };
    const operation: Record<string, unknown> = {
      tags: [app ? tagOf[app] : 'Service'],
      summary: spec.summary,
      ...(spec.description ? { description: spec.description } : {}),
      operationId: `${method}${oaPath.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      security: spec.auth === false ? [] : [{ bearer: [] }, { query: [] }, { cookie: [] }],
      parameters: [...parameters(spec.params, 'path'), ...parameters(spec.query, 'query')],
      ...(spec.body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: jsonSchema(spec.body, 'input'), ...(spec.example ? { example: spec.example } : {}) } },
            },
          }
        : {}),
      responses: {
        [success]: { description: 'Success', content: { 'application/json': { schema: envelope } } },
        ...Object.fromEntries(
          [...statuses].sort().map((s) => [s, { $ref: `#/components/responses/E${s}` }]),
        ),
      },
    };
    (paths[oaPath] ??= {})[method] = operation;
  }
  const errorSchema = {
    type: 'object',
    required: ['success', 'message', 'error'],
    properties: {
      success: { const: false },
      message: { type: 'string' },
      error: {
        type: 'object',
        required: ['code'],
        properties: {
          code: { type: 'string', enum: ['BAD_REQUEST', 'UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'CONFLICT', 'PAYLOAD_TOO_LARGE', 'TOO_MANY_REQUESTS', 'SERVER_ERROR', 'SERVICE_UNAVAILABLE'] },
          details: {
            oneOf: [
              { type: 'array', items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } } },
              { type: 'object' },
            ],
          },
        },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'School platform API',
      version,
      description:
        'Multi-tenant school platform. Three apps: the parent app (/parent-app), the teachers app (/teachers-app) and the web admin app (/web-app). ' +
        'Every success is `{success: true, message?, data?}`; every error is `{success: false, message, error: {code, details?}}`.',
    },
    tags: [
      { name: 'Parent app', description: 'Parents and guardians: phone + PIN' },
      { name: 'Teachers app', description: 'Teachers and other staff: phone + PIN + school' },
      { name: 'Web admin app', description: 'School administrators: e-mail + password' },
      { name: 'Service', description: 'Health and documentation' },
    ],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        query: { type: 'apiKey', in: 'query', name: 'access_token' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'access_token' },
      },
      schemas: { Error: errorSchema },
      responses: Object.fromEntries(
        Object.entries(errorDescriptions).map(([s, d]) => [
          `E${s}`,
          { description: d, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
        ]),
      ),
    },
  };
}
