/**
 * Checks an HTTP answer of the school platform against its OpenAPI 3.1 document: the status must be
 * one the operation lists, the Content-Type one of that response's media types, and a JSON body must
 * match the response's schema. The schemas are JSON Schema 2020-12 (the document's `jsonSchemaDialect`,
 * OpenAPI's base dialect) and are validated by Ajv's 2020-12 validator; this module only finds the
 * operation, the response and the media type that the validator is given.
 *
 *   const check = createResponseCheck(await (await fetch(`${base}/openapi.json`)).json());
 *   const api = createSchoolClient({ baseUrl: base, fetch: checkedFetch(check) });
 *
 * Every answer the client then receives throws a ResponseViolation when the document does not allow it.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

/** The dialect the document's schemas are written in; Ajv's 2020-12 validator with the keywords below implements it. */
export const OAS_BASE_DIALECT = 'https://spec.openapis.org/oas/3.1/dialect/base';
/** Keywords of the OpenAPI base vocabulary, which annotate and never constrain. */
const OAS_VOCABULARY = ['discriminator', 'example', 'externalDocs', 'xml'];
/** The document's own fields, so that Ajv can hold the whole document and resolve its `#/components/...` references. */
const DOCUMENT_FIELDS = ['openapi', 'info', 'jsonSchemaDialect', 'servers', 'paths', 'webhooks', 'components', 'security', 'tags'];

/** One answer as a client saw it. */
export interface Exchange {
  method: string;
  /** The request's path, with or without its query string, or the whole URL. */
  url: string;
  status: number;
  /** The Content-Type header, if any. */
  contentType?: string | null;
  /** The body as text (JSON and other text answers); undefined when the client did not read it as text. */
  body?: string;
}

export interface ResponseCheckOptions {
  /** Paths the document does not describe on purpose (the console, the reference page): never checked. */
  outside?: (path: string) => boolean;
}

interface MediaTypeObject { schema?: unknown }
interface ResponseObject { $ref?: string; content?: Record<string, MediaTypeObject> }
interface ParameterObject { name: string; in: string; required?: boolean; schema?: { type?: string | string[] } }
interface OperationObject {
  parameters?: ParameterObject[];
  requestBody?: { content?: Record<string, MediaTypeObject> };
  responses?: Record<string, ResponseObject>;
}
interface Document {
  openapi?: string;
  jsonSchemaDialect?: string;
  paths?: Record<string, Record<string, OperationObject>>;
  components?: { responses?: Record<string, ResponseObject> };
}

interface PathEntry { template: string; pattern: RegExp; templated: number; operations: Record<string, OperationObject> }

const pointer = (...tokens: string[]) => tokens.map((t) => `/${t.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
const essence = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();
const isJson = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json');
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function mediaTypeMatches(range: string, actual: string): boolean {
  const [type, subtype] = essence(range).split('/');
  const [actualType, actualSubtype] = actual.split('/');
  return (type === '*' || type === actualType) && (subtype === '*' || subtype === actualSubtype);
}

function describe(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const where = e.instancePath || '(body)';
    const extra = e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : '';
    return `${where} ${e.message ?? e.keyword}${extra}`;
  });
}

export class ResponseCheck {
  private readonly ajv: Ajv2020;
  private readonly paths: PathEntry[];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: Document, private readonly options: ResponseCheckOptions = {}) {
    if (!document.openapi?.startsWith('3.1.')) throw new Error(`This check reads OpenAPI 3.1 documents, not ${document.openapi ?? 'this one'}`);
    const dialect = document.jsonSchemaDialect ?? OAS_BASE_DIALECT;
    if (dialect !== OAS_BASE_DIALECT) throw new Error(`The document's schemas are written in ${dialect}; this check reads ${OAS_BASE_DIALECT}`);
    // Strict: a keyword the validator does not know is an error in the document, never silently ignored.
    // Not for `required` in a branch (anyOf, then) that names properties its parent schema defines, which strictRequired would refuse.
    this.ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
    // ajv-formats is CommonJS: its plugin is the module itself, or its `default` where a bundler wrapped it.
    const addFormats = ((formats as { default?: unknown }).default ?? formats) as (ajv: Ajv2020) => void;
    addFormats(this.ajv);
    this.ajv.addVocabulary([...OAS_VOCABULARY, ...DOCUMENT_FIELDS]);
    this.ajv.addSchema(document as object, 'openapi');
    // A template with fewer variables wins (`/students/export` before `/students/{id}`), as OpenAPI says concrete paths do.
    this.paths = Object.entries(document.paths ?? {})
      .map(([template, operations]) => ({
        template,
        operations,
        templated: (template.match(/\{[^}]+\}/g) ?? []).length,
        pattern: new RegExp(`^${template.split(/(\{[^}]+\})/).map((part) => (part.startsWith('{') ? '[^/]+' : escapeRegExp(part))).join('')}$`),
      }))
      .sort((a, b) => a.templated - b.templated);
  }

  /** The operation the document gives for this method and path, with its path template. */
  operation(method: string, path: string): { template: string; method: string; operation: OperationObject } | undefined {
    const m = method.toLowerCase();
    for (const entry of this.paths) {
      if (!entry.pattern.test(path)) continue;
      // HEAD is GET without the body, as HTTP defines it.
      const documentedAs = entry.operations[m] ? m : m === 'head' && entry.operations.get ? 'get' : undefined;
      if (documentedAs) return { template: entry.template, method: documentedAs, operation: entry.operations[documentedAs]! };
    }
    return undefined;
  }

  /**
   * What is wrong with this answer, one sentence each: an empty list when the document allows it, or
   * when it is outside the check (a path `outside` names, a CORS preflight, a 404 for a route the
   * document does not have).
   */
  violations(exchange: Exchange): string[] {
    const path = new URL(exchange.url, 'http://localhost').pathname;
    if (this.options.outside?.(path)) return [];
    const method = exchange.method.toUpperCase();
    if (method === 'OPTIONS') return [];
    const found = this.operation(method, path);
    if (!found) return exchange.status === 404 ? [] : [`the document has no ${method} ${path}, yet it answered ${exchange.status}`];

    const responses = found.operation.responses ?? {};
    const key = [String(exchange.status), `${String(exchange.status)[0]}XX`, 'default'].find((k) => responses[k]);
    if (!key) return [`status ${exchange.status} is not among the responses of ${found.method.toUpperCase()} ${found.template} (${Object.keys(responses).join(', ')})`];
    const responsePointer = responses[key]!.$ref ?? `#${pointer('paths', found.template, found.method, 'responses', key)}`;
    const response = this.resolve(responsePointer);

    const content = response.content ?? {};
    const ranges = Object.keys(content);
    const body = exchange.body ?? '';
    if (ranges.length === 0) return body.length > 0 ? [`response ${key} of ${found.method.toUpperCase()} ${found.template} has no body, yet one came`] : [];
    const actual = exchange.contentType ? essence(exchange.contentType) : '';
    const range = ranges.find((r) => mediaTypeMatches(r, actual));
    if (!range) return [`Content-Type ${exchange.contentType ?? '(none)'} is not among the media types of response ${key} (${ranges.join(', ')})`];
    if (method === 'HEAD' || !isJson(actual) || content[range]!.schema === undefined) return [];

    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return [`the body is not JSON: ${body.slice(0, 80)}`];
    }
    const validate = this.validator(`${responsePointer}${pointer('content', range, 'schema')}`);
    return validate(value) ? [] : describe(validate.errors);
  }

  /** What is wrong with a request body a client sends: an empty list when the operation's request schema allows it. */
  requestViolations(method: string, url: string, body: unknown, contentType = 'application/json'): string[] {
    const path = new URL(url, 'http://localhost').pathname;
    const found = this.operation(method, path);
    if (!found) return [`the document has no ${method.toUpperCase()} ${path}`];
    const content = found.operation.requestBody?.content ?? {};
    const range = Object.keys(content).find((r) => mediaTypeMatches(r, essence(contentType)));
    if (!range) return [`Content-Type ${contentType} is not among the request media types of ${found.method.toUpperCase()} ${found.template} (${Object.keys(content).join(', ') || 'none'})`];
    if (content[range]!.schema === undefined) return [];
    const validate = this.validator(`#${pointer('paths', found.template, found.method, 'requestBody', 'content', range, 'schema')}`);
    return validate(body) ? [] : describe(validate.errors);
  }

  /**
   * What is wrong with a request's query string: a required parameter missing, or a value its schema
   * refuses (a number or a boolean read from the text as a server reads it).
   */
  queryViolations(method: string, url: string): string[] {
    const parsed = new URL(url, 'http://localhost');
    const found = this.operation(method, parsed.pathname);
    if (!found) return [`the document has no ${method.toUpperCase()} ${parsed.pathname}`];
    return (found.operation.parameters ?? []).flatMap((parameter, index) => {
      if (parameter.in !== 'query') return [];
      const raw = parsed.searchParams.get(parameter.name);
      if (raw === null) return parameter.required ? [`query parameter ${parameter.name} is required`] : [];
      const types = ([] as unknown[]).concat(parameter.schema?.type ?? []);
      const value = /^-?\d+(\.\d+)?$/.test(raw) && (types.includes('integer') || types.includes('number')) ? Number(raw) : types.includes('boolean') && /^(true|false)$/.test(raw) ? raw === 'true' : raw;
      const validate = this.validator(`#${pointer('paths', found.template, found.method, 'parameters', String(index), 'schema')}`);
      return validate(value) ? [] : describe(validate.errors).map((problem) => `query parameter ${parameter.name}: ${problem.replace('(body) ', '')}`);
    });
  }

  private resolve(ref: string): ResponseObject {
    const tokens = ref.replace(/^#\//, '').split('/').map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
    let node: unknown = this.document;
    for (const token of tokens) node = (node as Record<string, unknown> | undefined)?.[token];
    if (!node || typeof node !== 'object') throw new Error(`The document has nothing at ${ref}`);
    return node as ResponseObject;
  }

  private validator(schemaPointer: string): ValidateFunction {
    let validate = this.validators.get(schemaPointer);
    if (!validate) {
      validate = this.ajv.getSchema(`openapi${schemaPointer}`);
      if (!validate) throw new Error(`The document has no schema at ${schemaPointer}`);
      this.validators.set(schemaPointer, validate);
    }
    return validate;
  }
}

export function createResponseCheck(document: unknown, options?: ResponseCheckOptions): ResponseCheck {
  return new ResponseCheck(document as Document, options);
}

/** An answer the document does not allow, with every reason. */
export class ResponseViolation extends Error {
  constructor(readonly exchange: Exchange, readonly problems: string[]) {
    super(`${exchange.method.toUpperCase()} ${exchange.url} answered ${exchange.status} ${exchange.contentType ?? ''}, which the OpenAPI document does not allow:\n  ${problems.join('\n  ')}`);
    this.name = 'ResponseViolation';
  }
}

/** Throws a ResponseViolation when the document does not allow this answer. */
export function assertAllowed(check: ResponseCheck, exchange: Exchange): void {
  const problems = check.violations(exchange);
  if (problems.length > 0) throw new ResponseViolation(exchange, problems);
}

/**
 * A fetch that checks every answer before handing it back (its body still unread). Text answers are
 * read from a clone; binary ones (images, PDFs) are checked for status and Content-Type only.
 */
export function checkedFetch(check: ResponseCheck, fetchImpl: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    const url = input instanceof Request ? input.url : String(input);
    const contentType = response.headers.get('content-type');
    const textual = contentType === null || /^text\/|json|xml/.test(essence(contentType));
    const body = textual && method.toUpperCase() !== 'HEAD' ? await response.clone().text() : undefined;
    assertAllowed(check, { method, url, status: response.status, contentType, body });
    return response;
  };
}
