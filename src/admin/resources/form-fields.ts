import type { PropertyOptions } from 'adminjs';
import { Op } from 'sequelize';
import { AppError, fieldError, type FieldError } from '../../errors.js';
import type { FormQuestion } from '../../models/form.js';
import { Form } from '../../models/index.js';
import { isClosed } from '../../services/forms/forms.js';
import { eventFieldNames } from '../../services/calendar/event-fields.js';
import type { Fields } from '../form-input.js';
import type { Enricher } from '../scoped-resource.js';

/**
 * An activity's or a notice's form on its edit page as one JSON field (the definition the API takes),
 * and on its page in words; saved through the item's own service, so the same 400s and 409s.
 */
export const formProperties: Record<string, PropertyOptions> = {
  form: {
    type: 'textarea',
    isVisible: { list: false, filter: false, show: false, edit: true },
    description:
      'A permission slip, sign-up or RSVP, as JSON: {"questions": [{"id": "ok", "type": "consent", "label": "I allow the trip", "required": true}], "due_at": null, ' +
      '"per_student": true, "editable": true}. Question types: consent, choice (with "options": [{"id", "label", "capacity"}]), text, number (with "min", "max"). ' +
      'Leave empty for no form. Once families have answered, questions and options cannot be removed.',
  },
  form_summary: { type: 'string', isVisible: { list: false, filter: false, show: true, edit: false }, description: 'Its form: questions, responses, deadline' },
};

export const formFormFields: Fields = { form: 'nullableText' };

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** The stored form of each item read for a page (one query), as the edit field's JSON and in words. */
export const formEnricher: Enricher = async (rows, _admin, detail) => {
  if (!detail) return;
  const ids = rows.map((r) => r.form_id).filter((id) => id != null).map(Number);
  if (!ids.length) {
    for (const row of rows) row.form_summary = 'No form';
    return;
  }
  const forms = new Map((await Form.findAll({ where: { id: { [Op.in]: ids } } })).map((f) => [f.id, f]));
  for (const row of rows) {
    const form = row.form_id == null ? undefined : forms.get(Number(row.form_id));
    if (!form || form.school_id !== row.school_id) {
      row.form_summary = 'No form';
      continue;
    }
    row.form = JSON.stringify({ questions: form.questions, due_at: form.due_at?.toISOString() ?? null, per_student: form.per_student, editable: form.editable }, null, 2);
    const closing = isClosed(form) ? 'closed' : form.due_at ? `open until ${form.due_at.toISOString().slice(0, 16).replace('T', ' ')} UTC` : 'open';
    row.form_summary = `${plural(form.questions.length, 'question')}, ${plural(form.response_count, 'response')} (${form.per_student ? 'one per child' : 'one per family'}), ${closing}`;
  }
};

/** A path of the form's definition in the office's words: "questions.2.options.1.capacity" -> "question 3, option 2: capacity". */
function wordedPath(path: string): string {
  const parts = path.split('.');
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    const next = parts[i + 1];
    if ((part === 'questions' || part === 'options') && next !== undefined && /^\d+$/.test(next)) {
      out.push(`${part === 'questions' ? 'question' : 'option'} ${Number(next) + 1}`);
      i++;
    } else out.push(part.replace(/_/g, ' '));
  }
  return out.join(', ');
}

/** The form's problems as one message on the JSON field, each saying where in the definition. */
function onFormField(err: unknown): unknown {
  if (!(err instanceof AppError) || !Array.isArray(err.details)) return err;
  const details = err.details as FieldError[];
  const mine = details.filter((d) => d.field === 'form' || d.field?.startsWith('form.'));
  if (!mine.length) return err;
  const message = mine.map((d) => (d.field === 'form' ? d.message : `${wordedPath(d.field.slice(5))}: ${d.message}`)).join('; ');
  return new AppError(err.code, err.message, [...details.filter((d) => !mine.includes(d)), { field: 'form', message }]);
}

/** The JSON field as the service's `form`: empty is no form; text that is not JSON is a 400 on the field. */
function formFromField(input: Record<string, unknown>): Record<string, unknown> {
  if (!('form' in input)) return input;
  const text = input.form;
  if (text === null || text === undefined || text === '') return { ...input, form: null };
  try {
    return { ...input, form: JSON.parse(String(text)) };
  } catch (err) {
    throw fieldError('form', `is not valid JSON (${(err as Error).message})`);
  }
}

/**
 * The event fields of a form for an item that is not an event are left out when they are empty: the
 * console's form sends every field, and the service refuses event fields on an announcement.
 */
function withoutEmptyEventFields(input: Record<string, unknown>, creating: boolean): Record<string, unknown> {
  const type = input.activity_type ?? (creating ? 'announcement' : undefined);
  if (type === undefined || type === 'event') return input;
  const out = { ...input };
  for (const field of eventFieldNames) if (out[field] === null || out[field] === false || out[field] === '') delete out[field];
  return out;
}

/** A service's create or update with the form's JSON field (and, for activities, its event fields) as the service takes them. */
export function withForm<A extends unknown[], T>(save: (...args: A) => Promise<T>, options: { creating: boolean }) {
  return async (...args: A): Promise<T> => {
    const last = args.length - 1;
    args[last] = withoutEmptyEventFields(formFromField(args[last] as Record<string, unknown>), options.creating);
    try {
      return await save(...args);
    } catch (err) {
      throw onFormField(err);
    }
  };
}

/** The question's answer in words, as the results show it: option labels, agree or decline, the text, the number. */
export function answerText(question: FormQuestion, answer: unknown): string {
  if (answer === undefined || answer === null) return '';
  if (question.type === 'choice') {
    const labels = new Map((question.options ?? []).map((o) => [o.id, o.label]));
    return (Array.isArray(answer) ? answer : [answer]).map((id) => labels.get(String(id)) ?? String(id)).join('; ');
  }
  return String(answer);
}
