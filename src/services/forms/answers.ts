import type { FieldError } from '../../errors.js';
import type { Answer, FormQuestion, OptionCounts } from '../../models/form.js';

const TEXT_ANSWER_MAX = 2000;

/**
 * A value keyed by a question or option id, read only when the object holds it itself: an id may be
 * any text, `constructor` or `toString` too, which a plain object otherwise answers from its prototype.
 */
export const own = <T>(values: Readonly<Record<string, T>> | undefined, id: string): T | undefined => (values !== undefined && Object.hasOwn(values, id) ? values[id] : undefined);

/** No answer: absent or null, a text of only spaces, an empty array. */
const unanswered = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);

/** Why a value does not fit its question, or null when it does. */
function misfit(q: FormQuestion, value: unknown): string | null {
  switch (q.type) {
    case 'consent':
      return value === 'agree' || value === 'decline' ? null : 'must be "agree" or "decline"';
    case 'text':
      if (typeof value !== 'string') return 'must be a text';
      return value.length > TEXT_ANSWER_MAX ? `must be at most ${TEXT_ANSWER_MAX} characters` : null;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (q.min !== undefined && value < q.min) return `must be at least ${q.min}`;
      if (q.max !== undefined && value > q.max) return `must be at most ${q.max}`;
      return null;
    case 'choice': {
      const known = new Set((q.options ?? []).map((o) => o.id));
      const names = [...known].map((id) => `"${id}"`).join(', ');
      if (!q.multiple) return typeof value === 'string' && known.has(value) ? null : `must be one of the option ids ${names}`;
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) return `must be an array of option ids (${names})`;
      const unknown = value.filter((v) => !known.has(v));
      if (unknown.length) return `${unknown.map((v) => `"${v}"`).join(', ')} ${unknown.length > 1 ? 'are not options' : 'is not an option'} of this question`;
      return new Set(value).size === value.length ? null : 'names an option more than once';
    }
  }
}

/**
 * A response's answers checked against the form: each unknown question, missing required answer
 * and answer that does not fit is named (`answers.<question id>`), and an "agree" needs the
 * signature. Returns the answered questions, as stored, and the problems.
 */
export function checkAnswers(questions: FormQuestion[], answers: Record<string, unknown>, signature: string | null): { answers: Record<string, Answer>; problems: FieldError[] } {
  const problems: FieldError[] = [];
  const out: Record<string, Answer> = {};
  const known = new Set(questions.map((q) => q.id));
  for (const id of Object.keys(answers)) if (!known.has(id)) problems.push({ field: `answers.${id}`, message: 'is not a question of this form' });
  let agreed = false;
  for (const q of questions) {
    const value = own(answers, q.id);
    if (unanswered(value)) {
      if (q.required) problems.push({ field: `answers.${q.id}`, message: 'is required' });
      continue;
    }
    const wrong = misfit(q, value);
    if (wrong) {
      problems.push({ field: `answers.${q.id}`, message: wrong });
      continue;
    }
    out[q.id] = value as Answer;
    if (value === 'agree') agreed = true;
  }
  if (agreed && signature === null) problems.push({ field: 'signature', message: 'is required to agree: the signer\'s typed name' });
  return { answers: out, problems };
}

/** The options an answer chose, per choice question. */
export function chosen(questions: FormQuestion[], answers: Record<string, Answer>): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const q of questions) {
    const value = own(answers, q.id);
    if (q.type !== 'choice' || value === undefined) continue;
    for (const option of Array.isArray(value) ? value : [String(value)]) out.push([q.id, option]);
  }
  return out;
}

interface CapacityProblem {
  field: string;
  option: string;
  message: string;
}

/**
 * The counts once a response's choices move from `before` to `after`, and each option the new
 * choices would take past its capacity. Called under the lock on the form's row, so no other
 * response moves the counts meanwhile.
 */
export function recount(questions: FormQuestion[], counts: OptionCounts, before: Array<[string, string]>, after: Array<[string, string]>) {
  const next: OptionCounts = Object.fromEntries(Object.entries(counts).map(([q, options]) => [q, { ...options }]));
  for (const [q, o] of before) {
    const count = own(own(next, q), o);
    if (count !== undefined) next[q]![o] = Math.max(0, count - 1);
  }
  for (const [q, o] of after) {
    if (own(next, q) === undefined) next[q] = {};
    next[q]![o] = (own(next[q], o) ?? 0) + 1;
  }
  const full: CapacityProblem[] = [];
  const added = after.filter(([q, o]) => !before.some(([bq, bo]) => bq === q && bo === o));
  for (const [q, o] of added) {
    const option = questions.find((x) => x.id === q)?.options?.find((x) => x.id === o);
    if (option?.capacity !== undefined && next[q]![o]! > option.capacity) {
      full.push({ field: `answers.${q}`, option: o, message: `"${option.label}" is full: all ${option.capacity} places are taken` });
    }
  }
  return { counts: next, full };
}
