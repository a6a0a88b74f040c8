import { z } from 'zod';
import { errorStatus } from '../errors.js';
import { anyFieldOf } from '../services/schemas.js';
import { openApiDocumentRoute } from './docs/docs.js';
import { fileRoutes } from './files/files.routes.js';
import { healthRoutes } from './health/health.routes.js';
import { metricsRoute } from './metrics/metrics.js';
import { exampleOf, type JsonSchema } from './openapi-examples.js';
import type { AppName, Method, RegisteredRoute, RouteSpec } from './route.js';

/** The dialect of every schema in the document: JSON Schema 2020-12 with OpenAPI's vocabulary, said outright for tools that would guess another. */
export const JSON_SCHEMA_DIALECT = 'https://spec.openapis.org/oas/3.1/dialect/base';

/**
 * A route mounted outside ApiRouter (health, metrics, the document itself). Its bodies are not the
 * envelope, so each response is described whole: a JSON body by its schema, any other by its media
 * type (`contentType`, with a text example). The descriptor lives beside the handler it documents.
 */
export interface ServiceRoute {
  method: Method | 'head';
  path: string;
  summary: string;
  description: string;
  /** OpenAPI parameter objects, as the route reads them (path, query, header). */
  parameters?: object[];
  /**
   * A JSON body described by its schema; or, for a route that answers bytes, its content types and
   * headers as OpenAPI writes them, or the contract's error body (`error`).
   */
  responses: Record<number, ServiceResponse>;
}

type ServiceResponse =
  | { description: string; schema: z.ZodType; example?: unknown }
  | { description: string; content?: Record<string, object>; headers?: Record<string, object>; error?: true };

const tagOf: Record<AppName, string> = { 'parent-app': 'Parent app', 'teachers-app': 'Teachers app', 'web-app': 'Web admin app' };

const loginOf: Record<AppName, { user: string; login: string }> = {
  'parent-app': { user: 'a parent', login: 'POST /parent-app/parent-auth-verification' },
  'teachers-app': { user: 'a staff', login: 'POST /teachers-app/teacher-auth-verification' },
  'web-app': { user: 'an admin', login: 'POST /web-app/signin' },
};

/** The shared error responses, each with the body a client would really see. */
const errorResponses: Record<number, { description: string; code: string; message: string; details?: unknown }> = {
  400: {
    description: 'A field is missing or malformed, or the body is not valid JSON; `error.details` names each field',
    code: 'BAD_REQUEST', message: 'Invalid body: notice_title',
    details: [{ field: 'notice_title', message: 'Too small: expected string to have >=1 characters' }],
  },
  401: { description: 'Missing, malformed, expired or revoked token, or bad credentials', code: 'UNAUTHORIZED', message: 'The token has expired' },
  403: {
    description: 'Wrong app for the token, another school, a missing role or permission, or a disabled account',
    code: 'FORBIDDEN', message: 'This token does not belong to that school',
  },
  404: { description: "No such record in the caller's school", code: 'NOT_FOUND', message: 'Notice not found' },
  409: {
    description: 'A duplicate, or a transition the current state forbids',
    code: 'CONFLICT', message: 'A record with this phone number already exists', details: [{ field: 'phone_no', message: 'already exists' }],
  },
  413: {
    description: 'The body is larger than 1 MiB (20 MiB for a roster import), whatever the method; an uploaded file over 20 MiB, or past the school\'s storage limit or a parent\'s 100 MiB of uploads not yet attached',
    code: 'PAYLOAD_TOO_LARGE', message: 'The request body is larger than 1 MiB',
  },
  415: {
    description: 'An uploaded file whose content is not a JPEG, PNG, GIF or WebP image or a PDF; `error.details` names `file`',
    code: 'UNSUPPORTED_MEDIA_TYPE', message: 'The file is not a JPEG, PNG, GIF or WebP image or a PDF',
    details: [{ field: 'file', message: 'must be a JPEG, PNG, GIF or WebP image or a PDF (judged by its content)' }],
  },
  422: {
    description: 'An all-or-nothing roster import had invalid rows and wrote nothing: `error.details` lists each row error, `data` is the whole report',
    code: 'UNPROCESSABLE', message: 'The file has 1 invalid row(s); nothing was imported',
    details: [{ line: 3, field: 'grade', message: '"13" is not one of the school\'s grades' }],
  },
  429: { description: 'Rate limit or login lock-out; wait the seconds in Retry-After', code: 'TOO_MANY_REQUESTS', message: 'Too many requests; try again later' },
  500: { description: 'Something unexpected failed on the server: a defect, never a reply to bad input; the body never carries a stack trace or SQL', code: 'SERVER_ERROR', message: 'Something went wrong on our side' },
  503: {
    description: 'A dependency did not answer in time (the database, or the file store for a route that reads or writes files), or this instance is shutting down; retry after the seconds in Retry-After',
    code: 'SERVICE_UNAVAILABLE', message: 'The database is unavailable; try again shortly',
  },
};

/** Statuses that carry Retry-After. */
const retryAfterStatuses = new Set([429, 503]);

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete out.$schema;
  return withRecordKeys(out);
}

/**
 * zod writes a record over an enum of keys as `required` keys with no `properties`: name each key
 * with the value schema, so the document is self-consistent and generated clients type every key.
 */
function withRecordKeys(schema: JsonSchema): JsonSchema {
  for (const value of Object.values(schema)) {
    if (Array.isArray(value)) value.forEach((v) => v && typeof v === 'object' && withRecordKeys(v as JsonSchema));
    else if (value && typeof value === 'object') withRecordKeys(value as JsonSchema);
  }
  const keys = (schema.propertyNames as JsonSchema | undefined)?.enum as string[] | undefined;
  if (keys && schema.additionalProperties && typeof schema.additionalProperties === 'object' && !schema.properties) {
    schema.properties = Object.fromEntries(keys.map((k) => [k, schema.additionalProperties]));
  }
  return schema;
}

function parameters(schema: z.ZodType | undefined, where: 'query' | 'path') {
  if (!schema) return [];
  const js = jsonSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(js.properties ?? {}).map(([name, s]) => {
    const required = where === 'path' || (js.required ?? []).includes(name);
    return {
      name,
      in: where,
      required,
      ...(typeof s.description === 'string' ? { description: s.description } : {}),
      schema: s,
      // Swagger UI's "Try it out" starts from the examples: an optional filter should start empty.
      ...(required ? { example: exampleOf(s, name) } : {}),
    };
  });
}

const foundFirst = "**Checked first:** a record in the path that is unknown, or another school's, answers 404 before the body is judged.";

function accessText(app: AppName | null, auth: boolean): string {
  if (!auth || !app) return '**Access:** public, no token. Rate limited per client IP.';
  const { user, login } = loginOf[app];
  return (
    `**Access:** ${user} token from \`${login}\`, sent as \`Authorization: Bearer <token>\` ` +
    '(or the `access_token` query parameter or cookie). Rate limited per session.'
  );
}

const operationId = (method: string, path: string) =>
  `${method}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`;

const requestIdHeader = { 'X-Request-Id': { $ref: '#/components/headers/RequestId' } };

function apiOperation({ app, method, path, spec }: RegisteredRoute) {
  const auth = spec.auth !== false;
  const success = spec.status ?? 200;
  const produced = spec.produces?.errors ?? {};
  // Any request may carry a body, which is parsed before routing: malformed JSON (400) and too large a body (413) reach every operation.
  const statuses = new Set<number>([
    ...(auth ? [401, 403] : []),
    400, 413,
    ...(spec.rateLimited === false ? [] : [429]),
    500, 503,
    ...(spec.errors ?? []),
  ].filter((s) => !(s in produced)));
  const data = spec.response ? jsonSchema(spec.response, 'output') : undefined;
  const envelope = {
    type: 'object',
    required: ['success', ...(data ? ['data'] : [])],
    properties: { success: { const: true }, message: { type: 'string' }, ...(data ? { data } : {}) },
  };
  const exampleWith = (given: RouteSpec<z.ZodType, z.ZodType, z.ZodType>['responseExample']) => ({
    success: true,
    ...(given?.message !== undefined ? { message: given.message } : {}),
    ...(data ? { data: given?.data !== undefined ? given.data : exampleOf(data) } : {}),
  });
  const example = exampleWith(spec.responseExample);
  const body = spec.body ? jsonSchema(spec.body, 'input') : undefined;
  if (body && spec.someField) Object.assign(body, anyFieldOf(Object.keys(body.properties ?? {}).filter((field) => field !== 'school_id')));
  return {
    tags: [app ? tagOf[app] : 'Service'],
    summary: spec.summary,
    description: [spec.description, spec.found && spec.body ? foundFirst : undefined, accessText(app, auth)].filter(Boolean).join('\n\n'),
    operationId: operationId(method, path),
    security: auth ? [{ bearer: [] }, { query: [] }, { cookie: [] }] : [],
    parameters: [...parameters(spec.params, 'path'), ...parameters(spec.query, 'query')],
    ...(body
      ? { requestBody: { required: !spec.form, content: { [spec.form ? 'application/x-www-form-urlencoded' : 'application/json']: { schema: body, example: spec.example ?? exampleOf(body) } } } }
      : {}),
    ...(spec.upload
      ? {
          requestBody: {
            required: true,
            description: spec.upload.description,
            content: Object.fromEntries(spec.upload.types.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
          },
        }
      : {}),
    ...(spec.multipart
      ? {
          requestBody: {
            required: true,
            description: spec.multipart.description,
            content: {
              'multipart/form-data': {
                schema: { type: 'object', required: [spec.multipart.field], properties: { [spec.multipart.field]: { type: 'string', format: 'binary' } } },
              },
            },
          },
        }
      : {}),
    responses: {
      [success]: spec.produces
        ? {
            description: spec.produces.description,
            headers: { ...requestIdHeader, ...Object.fromEntries(Object.entries(spec.produces.headers ?? {}).map(([name, description]) => [name, { description, schema: { type: 'string' } }])) },
            content: { [spec.produces.type]: { schema: { type: 'string' }, example: spec.produces.example } },
          }
        : {
            description: success === 201 ? 'Created' : 'OK',
            headers: requestIdHeader,
            content: { 'application/json': { schema: envelope, example } },
          },
      ...Object.fromEntries(
        Object.entries(spec.otherSuccesses ?? {}).map(([status, other]) => [
          status,
          { description: other.description, headers: requestIdHeader, content: { 'application/json': { schema: envelope, example: exampleWith(other.example) } } },
        ]),
      ),
      ...Object.fromEntries(Object.entries(produced).map(([status, description]) => [status, {
        description, headers: requestIdHeader, content: { [spec.produces!.type]: { schema: { type: 'string' } } },
      }])),
      ...Object.fromEntries([...statuses].sort().map((s) => [s, { $ref: `#/components/responses/E${s}` }])),
    },
  };
}

function serviceResponse(r: ServiceResponse) {
  if ('schema' in r) {
    const schema = jsonSchema(r.schema, 'output');
    return { description: r.description, content: { 'application/json': { schema, example: r.example ?? exampleOf(schema) } } };
  }
  return {
    description: r.description,
    ...(r.headers ? { headers: r.headers } : {}),
    ...(r.error ? { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } } : r.content ? { content: r.content } : {}),
  };
}

function serviceOperation(route: ServiceRoute) {
  return {
    tags: ['Service'],
    summary: route.summary,
    description: `${route.description}\n\n**Access:** public, no token. Not rate limited.`,
    operationId: operationId(route.method, route.path),
    security: [],
    ...(route.parameters ? { parameters: route.parameters } : {}),
    // From SIGTERM on, every route answers 503 on connections that were already open.
    responses: {
      ...Object.fromEntries(Object.entries(route.responses).map(([status, r]) => [status, serviceResponse(r)])),
      ...(route.responses[503] ? {} : { 503: { $ref: '#/components/responses/E503' } }),
    },
  };
}

const errorSchema = {
  type: 'object',
  required: ['success', 'message', 'error'],
  properties: {
    success: { const: false },
    message: { type: 'string' },
    data: { description: 'Only on a rejected roster import (422): the whole report' },
    error: {
      type: 'object',
      required: ['code'],
      properties: {
        code: { type: 'string', enum: Object.keys(errorStatus) },
        details: {
          description: 'One entry per field for validation errors; an object for the few errors that carry other data',
          oneOf: [
            {
              type: 'array',
              items: {
                type: 'object', required: ['field', 'message'],
                properties: { field: { type: 'string' }, message: { type: 'string' }, line: { type: 'integer', description: 'Roster imports: the line the row starts on' } },
              },
            },
            { type: 'object' },
          ],
        },
      },
    },
  },
};

/** The OpenAPI 3.1 document, built from the same schemas that validate each route. */
export function buildOpenApi(routes: RegisteredRoute[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  const oaPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');
  for (const route of routes) (paths[oaPath(route.path)] ??= {})[route.method] = apiOperation(route);
  for (const route of [...healthRoutes, ...fileRoutes, metricsRoute, openApiDocumentRoute]) (paths[oaPath(route.path)] ??= {})[route.method] = serviceOperation(route);
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: JSON_SCHEMA_DIALECT,
    info: {
      title: 'School platform API',
      version,
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'Multi-tenant school platform. Three apps: the parent app (`/parent-app`), the teachers app (`/teachers-app`) and the web admin app (`/web-app`); ' +
        'each takes only its own kind of token, obtained from its login route. A token carries its school: a `school_id` sent in a query or body must be the token\'s (else 403).\n\n' +
        'Every success is `{success: true, message?, data?}`; every error is `{success: false, message, error: {code, details?}}`. ' +
        'Timestamps are ISO 8601 in UTC, dates `YYYY-MM-DD`, ids numbers. Every response carries an `X-Request-Id` header, also written in the server log.',
    },
    servers: [{ url: '/', description: 'The server that serves this document' }],
    tags: [
      { name: 'Parent app', description: 'Parents and guardians: sign in with phone + PIN' },
      { name: 'Teachers app', description: 'Teachers and other staff: sign in with phone + PIN + school' },
      { name: 'Web admin app', description: 'School administrators: sign in with e-mail + password' },
      { name: 'Service', description: 'Health checks for load balancers, signed file URLs, metrics for a Prometheus scraper, and this document' },
    ],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The access_token of a login response' },
        query: { type: 'apiKey', in: 'query', name: 'access_token', description: 'The same token as a query parameter (redacted from logs)' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'access_token', description: 'Set by `POST /web-app/signin`; writes need an allowed Origin' },
      },
      headers: {
        RequestId: { description: 'The id of this request in the server log; a well-formed one sent by the client is kept', schema: { type: 'string' } },
      },
      schemas: { Error: errorSchema },
      responses: Object.fromEntries(
        Object.entries(errorResponses).map(([status, e]) => [
          `E${status}`,
          {
            description: e.description,
            headers: { ...requestIdHeader, ...(retryAfterStatuses.has(Number(status)) ? { 'Retry-After': { description: 'Seconds to wait', required: true, schema: { type: 'integer', minimum: 0 } } } : {}) },
            content: {
              'application/json': {
                // The shared error body, whose code is the one this status always carries.
                schema: {
                  $ref: '#/components/schemas/Error',
                  type: 'object',
                  properties: { error: { $ref: '#/components/schemas/Error/properties/error', type: 'object', properties: { code: { const: e.code } } } },
                },
                example: { success: false, message: e.message, error: { code: e.code, ...(e.details ? { details: e.details } : {}) } },
              },
            },
          },
        ]),
      ),
    },
  };
}
