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
