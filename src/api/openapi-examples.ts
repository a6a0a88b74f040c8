/**
 * Example values generated from JSON Schema (as z.toJSONSchema writes it), so that every request and
 * response in the API reference shows one even where its route gives none. A value is picked by the
 * property's own `examples`, then by its name (values that read like this domain), then by type,
 * format and enum; a named value is used only where it satisfies the schema.
 */
export type JsonSchema = Record<string, unknown>;

const TIMESTAMP = '2026-11-22T09:30:00.000Z';
const DATE = '2026-11-22';

const byName: Record<string, unknown> = {
  school_id: 'greenwood',
  school_name: 'Greenwood High',
  name: 'Meera Iyer',
  father_name: 'Ravi Rao',
  mother_name: 'Meena Rao',
  parent_name: 'Ravi Rao',
  student_full_name: 'Asha Rao',
  student_name: 'Asha Rao',
  author_name: 'Meera Iyer',
  email: 'principal@greenwood.example',
  password: 'correct horse battery',
  pin: '1234',
  phone_no: '9876543210',
  roll_no: 'GW-042',
  grade: '5',
  gender: 'female',
  blood_group: 'B+',
  designation: 'Class Teacher',
  title: 'Annual Sports Day',
  notice_title: 'School closed for Diwali',
  description: 'Races, relays and a tug of war on the main ground. Parents are welcome from 8:30.',
  notice_desc: 'The school is closed from Monday to Wednesday next week.',
  notice_type: 'holiday',
  activity_type: 'event',
  subject: 'Leave for a family wedding',
  message: 'Asha will be away for two days for her cousin\'s wedding.',
  content: 'What time do the races start?',
  body: 'This is a test notification.',
  address_type: 'current',
  address: '12 Lake Rd',
  city: 'Pune',
  pincode: 411001,
  access_token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl',
  token_type: 'Bearer',
  fcm_token: 'fcm-device-token',
  device_id: 'pixel-7-a1b2',
  device_name: 'Pixel 7',
  user_agent: 'SchoolApp/2.3 (Android 14)',
  ip: '203.0.113.7',
  admission_token: 'q3Jx9vT2mWb7kLp4sN8dYc',
  token: 'q3Jx9vT2mWb7kLp4sN8dYc',
  url: 'https://school.example.org/set-pin?token=q3Jx9vT2mWb7kLp4sN8dYc',
  version: '1.0.0',
  date_of_birth: '2016-04-12',
  due_date: '2026-11-25',
  leave_from: '2026-12-01',
  leave_to: '2026-12-02',
  from: '2026-11-01',
  to: '2026-11-30',
  date: DATE,
  entity_type: 'activity',
  reaction_type: 'like',
  rbac: { activities: 'create', noticeboard: 'view' },
  search: 'Meera',
  last_error: null,
};

/** Strings tried, in order, for a pattern no named value fits. */
const patternCandidates = ['greenwood', '1234', DATE, TIMESTAMP, 'user@example.org', 'A1', 'a', '1', 'example'];

const typesOf = (s: JsonSchema): string[] => (Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : []);

function typeOfValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

const formats: Record<string, RegExp> = {
  email: /^[^@\s]+@[^@\s]+\.[^@\s]+$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  'date-time': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/,
  uri: /^[a-z][a-z0-9+.-]*:\S+$/i,
};

/** Whether a value satisfies a schema, for the keywords z.toJSONSchema writes. */
export function fits(schema: JsonSchema, value: unknown): boolean {
  if ('const' in schema && schema.const !== value) return false;
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return false;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key] as JsonSchema[] | undefined;
    if (options && !options.some((o) => fits(o, value))) return false;
  }
  if (Array.isArray(schema.allOf) && !(schema.allOf as JsonSchema[]).every((o) => fits(o, value))) return false;
  const types = typesOf(schema);
  const actual = typeOfValue(value);
  if (types.length && !types.some((t) => t === actual || (t === 'number' && actual === 'integer'))) return false;
  if (typeof value === 'string') {
    if (typeof schema.minLength === 'number' && value.length < schema.minLength) return false;
    if (typeof schema.maxLength === 'number' && value.length > schema.maxLength) return false;
    if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(value)) return false;
    if (typeof schema.format === 'string' && formats[schema.format] && !formats[schema.format]!.test(value)) return false;
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) return false;
    if (typeof schema.maximum === 'number' && value > schema.maximum) return false;
    if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) return false;
    if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) return false;
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && value.length < schema.minItems) return false;
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) return false;
    if (schema.items && !value.every((v) => fits(schema.items as JsonSchema, v))) return false;
  }
  if (actual === 'object') {
    const record = value as Record<string, unknown>;
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    if (Array.isArray(schema.required) && !(schema.required as string[]).every((k) => k in record)) return false;
    for (const [k, v] of Object.entries(record)) {
      if (properties[k]) {
        if (!fits(properties[k]!, v)) return false;
      } else if (schema.additionalProperties === false) {
        return false;
      } else if (schema.additionalProperties && typeof schema.additionalProperties === 'object' && !fits(schema.additionalProperties as JsonSchema, v)) {
        return false;
      }
      if (schema.propertyNames && !fits(schema.propertyNames as JsonSchema, k)) return false;
    }
  }
  return true;
}

function stringExample(schema: JsonSchema, name?: string): string {
  const candidates: string[] = [];
  if (schema.format === 'date-time' || name?.endsWith('_at')) candidates.push(TIMESTAMP);
  if (schema.format === 'date') candidates.push(DATE);
  if (schema.format === 'email') candidates.push('user@example.org');
  if (schema.format === 'uri') candidates.push('https://example.org');
  if (schema.format === 'uuid') candidates.push('3f2b8c1e-9a4d-4e7b-8c2a-1d5e6f7a8b9c');
  if (schema.pattern) candidates.push(...patternCandidates);
  candidates.push(name ?? 'string');
  const found = candidates.find((c) => fits(schema, c));
  if (found) return found;
  const base = name ?? 'string';
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  return base.padEnd(min, 'x').slice(0, max);
}

function numberExample(schema: JsonSchema, integer: boolean): number {
  let value = 1;
  if (typeof schema.minimum === 'number') value = Math.max(value, schema.minimum);
  if (typeof schema.exclusiveMinimum === 'number' && value <= schema.exclusiveMinimum) value = schema.exclusiveMinimum + 1;
  if (typeof schema.maximum === 'number') value = Math.min(value, schema.maximum);
  if (typeof schema.exclusiveMaximum === 'number' && value >= schema.exclusiveMaximum) value = schema.exclusiveMaximum - (integer ? 1 : 0.5);
  return integer ? Math.ceil(value) : value;
}

function objectExample(schema: JsonSchema, depth: number): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const out: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(properties)) out[key] = exampleOf(sub, key, depth + 1);
  const extra = schema.additionalProperties;
  if (extra && typeof extra === 'object' && Object.keys(out).length === 0) {
    const keys = (schema.propertyNames as JsonSchema | undefined)?.enum as string[] | undefined;
    for (const key of keys ?? ['key']) out[key] = exampleOf(extra as JsonSchema, key, depth + 1);
  }
  return out;
}

/** An example value for a schema; `name` is the property it stands for, when it is one. */
export function exampleOf(schema: JsonSchema, name?: string, depth = 0): unknown {
  const given = Array.isArray(schema.examples) && schema.examples.length ? schema.examples[0] : schema.example;
  if (given !== undefined) return given;
  if ('const' in schema) return schema.const;
  if (name && name in byName && fits(schema, byName[name])) return byName[name];
  if (schema.default !== undefined && fits(schema, schema.default)) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if (depth > 12) return null;
  const options = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (options?.length) {
    // A nullable field shows its value rather than null: the reader learns more from the shape.
    const chosen = options.find((o) => !typesOf(o).includes('null') || typesOf(o).length > 1) ?? options[0]!;
    return exampleOf(chosen, name, depth + 1);
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length) {
    return exampleOf(Object.assign({}, ...(schema.allOf as JsonSchema[])), name, depth + 1);
  }
  const types = typesOf(schema).filter((t) => t !== 'null');
  const type = types[0] ?? (schema.properties ? 'object' : schema.items ? 'array' : undefined);
  switch (type) {
    case 'string':
      return stringExample(schema, name);
    case 'integer':
      return numberExample(schema, true);
    case 'number':
      return numberExample(schema, false);
    case 'boolean':
      return true;
    case 'array': {
      const prefix = schema.prefixItems as JsonSchema[] | undefined;
      if (prefix) return prefix.map((p) => exampleOf(p, undefined, depth + 1));
      const item = schema.items ? exampleOf(schema.items as JsonSchema, name && singular(name), depth + 1) : 'string';
      const count = Math.max(1, typeof schema.minItems === 'number' ? schema.minItems : 1);
      return Array.from({ length: count }, () => item);
    }
    case 'object':
      return objectExample(schema, depth);
    default:
      return typesOf(schema).includes('null') ? null : {};
  }
}

/** student_ids -> student_id, replies -> reply: an item named like its list reads better. */
function singular(name: string): string {
  if (name.endsWith('ies')) return `${name.slice(0, -3)}y`;
  if (name.endsWith('s')) return name.slice(0, -1);
  return name;
}
