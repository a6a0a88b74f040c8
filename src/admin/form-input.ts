import { flat, type BaseRecord } from 'adminjs';

/**
 * How a form value becomes a service's input: forms send every value as text. `ids` is an ordered
 * list of record ids standing on its own (an item's attachments), sent whenever its order or
 * members changed, `[]` included.
 */
export type FieldKind = 'text' | 'nullableText' | 'number' | 'reference' | 'boolean' | 'date' | 'object' | 'list' | 'ids';

export type Fields = Record<string, FieldKind>;

function convert(kind: FieldKind, raw: unknown): unknown {
  const text = raw === null || raw === undefined ? '' : String(raw).trim();
  switch (kind) {
    case 'text': return text === '' ? undefined : text;
    case 'nullableText': return text === '' ? null : text;
    case 'number': return text === '' ? undefined : Number(text);
    case 'reference': return text === '' ? null : Number(text);
    case 'boolean': return raw === true || text === 'true';
    // The date picker may send a whole timestamp; a date column keeps the day.
    case 'date': return text === '' ? null : /^\d{4}-\d{2}-\d{2}/.test(text) ? text.slice(0, 10) : text;
    default: return raw;
  }
}

/** A nested value (`rbac.students=view`) back as an object, with empty and "inherit" entries left out. */
function objectValue(params: Record<string, unknown>, name: string): Record<string, unknown> | undefined {
  const nested = flat.get(params as never, name) as Record<string, unknown> | undefined;
  if (nested === undefined || nested === null || typeof nested !== 'object') return undefined;
  return Object.fromEntries(Object.entries(nested).filter(([, v]) => v !== '' && v !== null && v !== undefined));
}

/** A multi-value field's values (`events.0=a&events.1=b`, or a comma-separated text), or undefined when the form did not send it. */
function listValue(params: Record<string, unknown>, name: string): string[] | undefined {
  const nested = flat.get(params as never, name) as unknown;
  if (nested === undefined || nested === null) return undefined;
  const values = typeof nested === 'object' ? Object.values(nested as object) : String(nested).split(',');
  return values.map((v) => String(v ?? '').trim()).filter(Boolean);
}

/**
 * The service input from a submitted form. With `record` (an edit) only the fields that differ from
 * the stored ones are sent, so that an untouched field never trips a rule (a status transition, a
 * duplicate check) that the admin did not ask for. The list fields make one value together (an
 * audience): when one of them changed, all of them are sent.
 */
export function formInput(payload: Record<string, unknown> | undefined, fields: Fields, record?: BaseRecord): Record<string, unknown> {
  const params = payload ?? {};
  const out: Record<string, unknown> = {};
  const lists = Object.keys(fields).filter((name) => fields[name] === 'list');
  const listChanged = lists.some((name) => {
    const value = listValue(params, name);
    return value !== undefined && (!record || [...value].sort().join() !== [...(listValue(record.params, name) ?? [])].sort().join());
  });
  for (const [name, kind] of Object.entries(fields)) {
    if (kind === 'list') {
      if (listChanged) out[name] = listValue(params, name) ?? listValue(record?.params ?? {}, name) ?? [];
      continue;
    }
    if (kind === 'ids') {
      const value = listValue(params, name);
      if (value === undefined || (record && value.join() === (listValue(record.params, name) ?? []).join())) continue;
      out[name] = value.map(Number);
      continue;
    }
    if (kind === 'object') {
      const value = objectValue(params, name);
      if (value === undefined) continue;
      if (record && JSON.stringify(value) === JSON.stringify(objectValue(record.params, name) ?? {})) continue;
      out[name] = value;
      continue;
    }
    if (!(name in params)) continue;
    const value = convert(kind, params[name]);
    if (record && value === convert(kind, record.params[name])) continue;
    if (value !== undefined) out[name] = value;
  }
  return out;
}
