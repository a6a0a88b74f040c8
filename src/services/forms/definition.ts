import { z } from 'zod';
import { AppError, conflict, type FieldError } from '../../errors.js';
import { questionTypes, type FormOption, type FormQuestion, type OptionCounts } from '../../models/form.js';
import { instant } from '../schemas.js';
import { required } from '../validation.js';
import { own } from './answers.js';

export { questionTypes };

/** CONTRACT.md section 14's limits of a form. */
const FORM_LIMITS = { questions: 50, options: 50, label: 500, optionLabel: 200, id: 40, capacity: 100_000 } as const;

/** An id keys answers and counts in JSON objects, where `__proto__` is no key but the object's prototype. */
const idInput = z.string({ error: required }).min(1).max(FORM_LIMITS.id).refine((id) => id !== '__proto__', 'is a reserved name: choose another id');

const optionInput = z.object({
  id: idInput,
  label: z.string({ error: required }).trim().min(1).max(FORM_LIMITS.optionLabel),
  capacity: z.number().int().min(1).max(FORM_LIMITS.capacity).nullable().optional().describe('How many responses may choose it; absent or null: no limit'),
});

const questionInput = z.object({
  id: idInput.describe('Unique in the form; answers are keyed by it, and an update matches questions by it'),
  type: z.enum(questionTypes, { error: (issue) => (issue.input === undefined ? 'is required' : `must be one of ${questionTypes.join(', ')}`) }),
  label: z.string({ error: required }).trim().min(1).max(FORM_LIMITS.label),
  required: z.boolean().optional().describe('Default false'),
  options: z.array(optionInput).optional().describe('choice only: 2 to 50 options'),
  multiple: z.boolean().optional().describe('choice only: the answer is an array of option ids (default false)'),
  min: z.number().nullable().optional().describe('number only'),
  max: z.number().nullable().optional().describe('number only'),
});

const given = (v: unknown) => v !== undefined && v !== null;

/** The rules across fields, each naming its path under the form; run even when some field is malformed, so one answer names every bad path. */
function checkQuestions(form: { questions?: unknown }, ctx: z.RefinementCtx): void {
  if (!Array.isArray(form.questions)) return;
  const issue = (path: Array<string | number>, message: string) => ctx.addIssue({ code: 'custom', path: ['questions', ...path], message });
  const ids = new Set<string>();
  form.questions.forEach((raw, i) => {
    if (!raw || typeof raw !== 'object') return;
    const q = raw as Partial<z.infer<typeof questionInput>>;
    if (typeof q.id === 'string') {
      if (ids.has(q.id)) issue([i, 'id'], `"${q.id}" is already used by an earlier question`);
      ids.add(q.id);
    }
    if (q.type === 'choice') {
      if (q.options === undefined) issue([i, 'options'], 'is required for a choice question');
      else if (Array.isArray(q.options) && (q.options.length < 2 || q.options.length > FORM_LIMITS.options)) issue([i, 'options'], `must hold 2 to ${FORM_LIMITS.options} options`);
      if (Array.isArray(q.options)) {
        const optionIds = new Set<string>();
        q.options.forEach((o, j) => {
          if (!o || typeof o.id !== 'string') return;
          if (optionIds.has(o.id)) issue([i, 'options', j, 'id'], `"${o.id}" is already used by an earlier option`);
          optionIds.add(o.id);
        });
      }
    } else if (typeof q.type === 'string') {
      if (q.options !== undefined) issue([i, 'options'], 'belongs to choice questions only');
      if (q.multiple !== undefined) issue([i, 'multiple'], 'belongs to choice questions only');
    }
    if (q.type !== 'number' && typeof q.type === 'string') {
      if (q.min !== undefined) issue([i, 'min'], 'belongs to number questions only');
      if (q.max !== undefined) issue([i, 'max'], 'belongs to number questions only');
    }
    if (q.type === 'number' && typeof q.min === 'number' && typeof q.max === 'number' && q.max < q.min) issue([i, 'max'], 'must not be below min');
  });
}

/**
 * A form as an activity or a notice takes it on create and on update (every door): on update the
 * whole definition again, questions and options matched by `id`.
 */
export const formInput = z
  .object({
    questions: z.array(questionInput, { error: required }).min(1).max(FORM_LIMITS.questions).describe('1 to 50 questions, in the order families see them'),
    due_at: instant().nullable().optional().describe('A future time; null or absent: no deadline'),
    per_student: z.boolean().optional().describe('Default true: one response per child of the audience; false: one per family'),
    editable: z.boolean().optional().describe('Default true: a family may change its response until the form closes'),
  })
  .superRefine(checkQuestions, { when: () => true })
  .describe('A permission slip, sign-up or RSVP; null removes a form that has no response');
export type FormInput = z.output<typeof formInput>;

export interface FormDefinition {
  questions: FormQuestion[];
  due_at: Date | null;
  per_student: boolean;
  editable: boolean;
}

/** The questions as stored: defaults filled in, options and bounds only where they belong and were given. */
export function normalizeForm(input: FormInput): FormDefinition {
  const questions = input.questions.map((q): FormQuestion => {
    const stored: FormQuestion = { id: q.id, type: q.type, label: q.label, required: q.required ?? false };
    if (q.type === 'choice') {
      stored.options = (q.options ?? []).map((o): FormOption => ({ id: o.id, label: o.label, ...(given(o.capacity) ? { capacity: o.capacity! } : {}) }));
      stored.multiple = q.multiple ?? false;
    }
    if (q.type === 'number') {
      if (given(q.min)) stored.min = q.min!;
      if (given(q.max)) stored.max = q.max!;
    }
    return stored;
  });
  return { questions, due_at: input.due_at ? new Date(input.due_at) : null, per_student: input.per_student ?? true, editable: input.editable ?? true };
}

/** A deadline given anew must be in the future; resending the stored one is not a change. */
export function checkDueAt(next: Date | null, stored: Date | null, now = new Date()): void {
  if (next === null || (stored !== null && stored.getTime() === next.getTime())) return;
  if (next.getTime() <= now.getTime()) throw new AppError('BAD_REQUEST', 'Invalid input: form.due_at', [{ field: 'form.due_at', message: 'must be in the future' }]);
}

/** Every choice option at its count: zero for a new form, kept for the options a changed form keeps. */
export function countsFor(questions: FormQuestion[], previous: OptionCounts = {}): OptionCounts {
  const counts: OptionCounts = {};
  for (const q of questions) {
    if (q.type !== 'choice') continue;
    counts[q.id] = Object.fromEntries((q.options ?? []).map((o) => [o.id, own(own(previous, q.id), o.id) ?? 0]));
  }
  return counts;
}

/**
 * What a form with responses may not become: a question removed or changed in `type` or
 * `multiple`, an option removed, `per_student` changed, a capacity below the responses already
 * choosing that option. Each is named by its path; 409 with all of them.
 */
export function checkChangeWithResponses(stored: FormDefinition, next: FormDefinition, counts: OptionCounts): void {
  const problems: FieldError[] = [];
  const byId = new Map(next.questions.map((q, i) => [q.id, { q, i }]));
  for (const old of stored.questions) {
    const found = byId.get(old.id);
    if (!found) {
      problems.push({ field: 'form.questions', message: `question "${old.id}" cannot be removed: the form has responses` });
      continue;
    }
    const { q, i } = found;
    if (q.type !== old.type) {
      problems.push({ field: `form.questions.${i}.type`, message: 'cannot change: the form has responses' });
      continue;
    }
    if (old.type !== 'choice') continue;
    if ((q.multiple ?? false) !== (old.multiple ?? false)) problems.push({ field: `form.questions.${i}.multiple`, message: 'cannot change: the form has responses' });
    const options = new Map((q.options ?? []).map((o, j) => [o.id, { o, j }]));
    for (const o of old.options ?? []) {
      const kept = options.get(o.id);
      if (!kept) {
        problems.push({ field: `form.questions.${i}.options`, message: `option "${o.id}" cannot be removed: the form has responses` });
        continue;
      }
      const taken = own(own(counts, old.id), o.id) ?? 0;
      if (kept.o.capacity !== undefined && kept.o.capacity < taken) {
        problems.push({ field: `form.questions.${i}.options.${kept.j}.capacity`, message: `must be at least ${taken}: that many responses chose it` });
      }
    }
  }
  if (stored.per_student !== next.per_student) problems.push({ field: 'form.per_student', message: 'cannot change: the form has responses' });
  if (problems.length) throw conflict(`The form has responses: ${[...new Set(problems.map((p) => p.field))].join(', ')} cannot change so`, problems);
}
