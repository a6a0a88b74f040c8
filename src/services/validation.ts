import type { z } from 'zod';
import { AppError, type FieldError } from '../errors.js';

/** Zod issues -> the contract's `details`, one entry per field. */
export function zodDetails(error: z.ZodError, prefix?: string): FieldError[] {
  return error.issues.map((i) => ({
    field: [prefix, ...i.path.map(String)].filter(Boolean).join('.') || prefix || 'body',
    message: i.message,
  }));
}

/** Zod's message for an absent field, as the contract spells it ("is required"); other issues keep zod's own. */
export const required = (issue: { input: unknown }) => (issue.input === undefined ? 'is required' : undefined);

/**
 * Checks a service's input against the schema its REST route also declares, so the console and the
 * command line get the same 400 (naming each field) as the API.
 */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const details = zodDetails(result.error);
  throw new AppError('BAD_REQUEST', `Invalid input: ${[...new Set(details.map((d) => d.field))].join(', ')}`, details);
}

/**
 * The path of the first string holding a NUL byte: no field of this domain carries one, and databases
 * disagree on them. Walked with a list, not recursion: a body of deeply nested arrays must not
 * overflow the stack before the schema refuses it.
 */
function nulField(value: unknown): string | null {
  if (flatWithoutNul(value)) return null;
  interface Step { key: string; parent: Step | null }
  const pathOf = (step: Step | null) => {
    const keys: string[] = [];
    for (let s = step; s; s = s.parent) keys.unshift(s.key);
    return keys.join('.') || 'body';
  };
  const pending: Array<[unknown, Step | null]> = [[value, null]];
  while (pending.length > 0) {
    const [v, step] = pending.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return pathOf(step);
    } else if (v && typeof v === 'object') {
      for (const [k, child] of Object.entries(v).reverse()) pending.push([child, { key: k, parent: step }]);
    }
  }
  return null;
}

/** True for a value with no NUL and nothing nested (most queries and bodies): one pass, without the walk's bookkeeping. */
function flatWithoutNul(value: unknown): boolean {
  if (typeof value === 'string') return !value.includes('\u0000');
  if (!value || typeof value !== 'object') return true;
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (typeof v === 'string' ? v.includes('\u0000') : v !== null && typeof v === 'object') return false;
  }
  return true;
}

/** A value holding a NUL character anywhere is bad input: 400 naming the field that holds it. */
export function refuseNul(value: unknown): void {
  const field = nulField(value);
  if (field) throw new AppError('BAD_REQUEST', `${field} contains a NUL character`, [{ field, message: 'must not contain NUL characters' }]);
}
