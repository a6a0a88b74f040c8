import { AppError as ConsoleAppError, ForbiddenError, NotFoundError, ValidationError, type ActionContext } from 'adminjs';
import { AppError } from '../errors.js';
import { inWords } from './labels/words.js';
import { fieldLabel } from './locale.js';

type Labels = (field: string) => string;

/**
 * The label a field has on the action's page: a form action's own field ("New PIN", without its
 * "(optional)"), else the resource's, as its form shows it.
 */
function labelsOf(context: ActionContext | undefined, ownLabels: Map<string, string>): Labels {
  const resourceId = context?.resource?._decorated?.id() ?? context?.resource?.id() ?? null;
  return (field) => ownLabels.get(field) ?? fieldLabel(resourceId, field);
}

/** A form action's own fields (Reply, Reset PIN) by name, each with its label. */
function ownFieldsOf(context: ActionContext | undefined): Map<string, string> {
  const own = (context?.action?.custom?.().fields ?? []) as Array<{ name: string; label: string }>;
  return new Map(own.map((f) => [f.name, f.label.replace(/\s*\(optional\)$/, '')]));
}

/** Actions whose page has no form: a refusal there is a notice saying why, under no field. */
const formless = new Set(['delete', 'bulkDelete']);

/** The values a field allows, by their labels on its form, for "must be one of". */
function allowedOf(context: ActionContext | undefined, field: string, codes: string[]): string[] {
  const property = context?.resource?._decorated?.getPropertyByKey(field);
  const values = property?.availableValues() ?? [];
  const at = (code: string) => values.findIndex((v) => String(v.value) === code);
  // In the order the form offers them.
  return [...codes].sort((x, y) => (at(x) < 0 ? 1e9 : at(x)) - (at(y) < 0 ? 1e9 : at(y))).map((code) => values[at(code)]?.label ?? inWords(code));
}

/**
 * A service's refusal of one field in the office's words: what zod says ("Too small: expected string
 * to have >=1 characters") as a sentence ("is required"); a rule's own message as it is.
 */
export function officeWords(message: string, allowed: (codes: string[]) => string[]): string {
  const rules: Array<[RegExp, (m: RegExpExecArray) => string]> = [
    [/^Invalid input: expected \w+, received (undefined|null)/, () => 'is required'],
    [/^Invalid input: expected (number|int)/, () => 'must be a whole number'],
    [/^Invalid input: expected (string|text)/, () => 'must be text'],
    [/^Invalid input: expected (boolean)/, () => 'must be yes or no'],
    [/^Too small: expected string to have >=1 characters?/, () => 'is required'],
    [/^Too small: expected string to have >=(\d+) characters?/, (m) => `must have at least ${m[1]} characters`],
    [/^Too big: expected string to have <=(\d+) characters?/, (m) => `must have at most ${m[1]} characters`],
    [/^Too small: expected (?:number|int) to be >=?(\d+)/, (m) => `must be at least ${m[1]}`],
    [/^Too big: expected (?:number|int) to be <=?(\d+)/, (m) => `must be at most ${m[1]}`],
    [/^Too small: expected array to have >=1 items?/, () => 'needs at least one'],
    [/^Too big: expected array to have <=(\d+) items?/, (m) => `takes at most ${m[1]}`],
    [/^must be one of ([\w.]+(?:, [\w.]+)+)$/, (m) => `must be one of ${either(allowed(m[1]!.split(', ')))}`],
    [/^Invalid option: expected one of (.+)$/, (m) => `must be one of ${either(allowed([...m[1]!.matchAll(/"([^"]*)"/g)].map((v) => v[1]!)))}`],
    [/^Invalid email address/, () => 'is not a valid e-mail address'],
    [/^(Invalid (ISO )?date|must be a date YYYY-MM-DD)/, () => 'is not a valid date (year-month-day)'],
    [/^Unrecognized keys?: (.+)$/, (m) => `cannot include ${m[1]!.replace(/"/g, '')}`],
    [/^Invalid (ISO )?datetime/, () => 'is not a valid date and time'],
    [/^Invalid (string|input)/, () => 'is not in the form expected'],
  ];
  for (const [pattern, word] of rules) {
    const m = pattern.exec(message);
    if (m) return word(m);
  }
  return message;
}

/** "Admin, Super admin or IT contact". */
const either = (labels: string[]) => (labels.length > 1 ? `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}` : labels.join(''));

/** Column names in a message ("set its phone_no first") as the form labels them. */
const withLabels = (message: string, labels: Labels) => message.replace(/\b[a-z]+(?:_[a-z0-9]+)+\b/g, (name) => labels(name));

/**
 * A service's AppError as AdminJS shows it, in the office's words: each refused field under its
 * field, named by its label, and the same sentences as the notice; anything else as a notice. Never a crash.
 */
export function consoleError(err: unknown, context?: ActionContext): Error {
  if (!(err instanceof AppError)) return err as Error;
  const ownFields = ownFieldsOf(context);
  const labels = labelsOf(context, ownFields);
  if (err.code === 'NOT_FOUND') return new NotFoundError(withLabels(err.message, labels), 'Action#handler');
  if (err.code === 'FORBIDDEN') return new ForbiddenError(withLabels(err.message, labels));
  const fields = (Array.isArray(err.details) ? err.details : []) as Array<{ field?: string; message?: string }>;
  const named = fields.filter((d) => typeof d.field === 'string' && typeof d.message === 'string') as Array<{ field: string; message: string }>;
  if (named.length > 0 && !formless.has(context?.action?.name ?? '')) {
    const errors: Record<string, { message: string; type: string }> = {};
    for (const d of named) {
      // A nested field (rbac.students, addresses.0.city, a form action's attachment_ids.0) is shown on the form's field that holds it.
      const root = d.field.split('.')[0]!;
      const field = !ownFields.has(root) && context?.resource?._decorated?.getPropertyByKey(d.field) ? d.field : root;
      const sentence = `${labels(ownFields.has(root) ? root : d.field)} ${withLabels(officeWords(d.message, (codes) => allowedOf(context, field, codes)), labels)}`;
      errors[field] = { message: errors[field] ? `${errors[field].message} ${sentence}` : sentence, type: err.code };
    }
    const summary = [...new Set(Object.values(errors).map((e) => e.message))].map((m) => (/[.!?]$/.test(m) ? m : `${m}.`)).join(' ');
    return new ValidationError(errors, { message: summary, type: err.code });
  }
  return new ConsoleAppError(withLabels(err.message, labels));
}
