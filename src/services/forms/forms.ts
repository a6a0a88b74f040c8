import { QueryTypes, type Transaction } from 'sequelize';
import type { AppContext, Principal } from '../../context.js';
import { iso, parseJson } from '../../db.js';
import { conflict } from '../../errors.js';
import { Form, type Answer, type FormItemType, type FormQuestion, type OptionCounts } from '../../models/form.js';
import { own } from './answers.js';
import { checkChangeWithResponses, checkDueAt, countsFor, normalizeForm, type FormDefinition, type FormInput } from './definition.js';

export interface QuestionView extends Omit<FormQuestion, 'options'> {
  options?: Array<{ id: string; label: string; capacity?: number; remaining?: number }>;
}

export interface ResponseView {
  id: number;
  form_id: number;
  student_id: number | null;
  answers: Record<string, Answer>;
  signature: string | null;
  signed_at: string | null;
  submitted_at: string;
  updated_at: string;
}

/** A form as every view of its item shows it; staff and admins see `response_count`, parents `my_responses`. */
export interface FormView {
  id: number;
  questions: QuestionView[];
  due_at: string | null;
  per_student: boolean;
  editable: boolean;
  closed: boolean;
  response_count?: number;
  my_responses?: Array<Omit<ResponseView, 'form_id'>>;
}

export interface FormRow {
  id: number;
  school_id: string;
  entity_type: FormItemType;
  entity_id: number;
  questions: unknown;
  due_at: unknown;
  per_student: unknown;
  editable: unknown;
  closed_at: unknown;
  counts: unknown;
  response_count: unknown;
}

export interface ResponseRow {
  id: number;
  form_id: number;
  parent_id: number;
  student_id: number | null;
  answers: unknown;
  signature: string | null;
  signed_at: unknown;
  ip?: string | null;
  user_agent?: string | null;
  submitted_at: unknown;
  updated_at: unknown;
}

export const FORM_COLUMNS = 'f.id, f.school_id, f.entity_type, f.entity_id, f.questions, f.due_at, f.per_student, f.editable, f.closed_at, f.counts, f.response_count';
const RESPONSE_COLUMNS = 'r.id, r.form_id, r.parent_id, r.student_id, r.answers, r.signature, r.signed_at, r.submitted_at, r.updated_at';

const json = <T>(value: unknown): T => (typeof value === 'string' ? parseJson<T>(value)! : (value as T));
const bool = (value: unknown) => Number(value) === 1 || value === true;

/** A form row read with plain SQL, as the model would give it. */
export function formOf(row: FormRow) {
  return {
    id: Number(row.id),
    school_id: row.school_id,
    entity_type: row.entity_type,
    entity_id: Number(row.entity_id),
    questions: json<FormQuestion[]>(row.questions),
    due_at: row.due_at == null ? null : new Date(iso(row.due_at)!),
    per_student: bool(row.per_student),
    editable: bool(row.editable),
    closed_at: row.closed_at == null ? null : new Date(iso(row.closed_at)!),
    counts: json<OptionCounts>(row.counts),
    response_count: Number(row.response_count),
  };
}
export type StoredForm = ReturnType<typeof formOf>;

/** Closed once closed by staff (final), or while its deadline has passed. */
export const isClosed = (form: Pick<StoredForm, 'closed_at' | 'due_at'>, now = Date.now()) => form.closed_at !== null || (form.due_at !== null && form.due_at.getTime() <= now);

export function responseView(r: ResponseRow): ResponseView {
  return {
    id: Number(r.id),
    form_id: Number(r.form_id),
    student_id: r.student_id == null ? null : Number(r.student_id),
    answers: json<Record<string, Answer>>(r.answers),
    signature: r.signature ?? null,
    signed_at: iso(r.signed_at),
    submitted_at: iso(r.submitted_at)!,
    updated_at: iso(r.updated_at)!,
  };
}

/** The questions as stored, each option with a capacity also carrying what is left of it. */
function questionViews(form: StoredForm): QuestionView[] {
  return form.questions.map((q) => {
    if (!q.options) return q;
    return {
      ...q,
      options: q.options.map((o) => (o.capacity === undefined ? o : { ...o, remaining: Math.max(0, o.capacity - (own(own(form.counts, q.id), o.id) ?? 0)) })),
    };
  });
}

/** The staff and admins' view of a form: the parents' one has `my_responses` instead of `response_count`. */
export function staffFormView(form: StoredForm): FormView {
  return { ...baseView(form), response_count: form.response_count };
}

function baseView(form: StoredForm) {
  return { id: form.id, questions: questionViews(form), due_at: form.due_at?.toISOString() ?? null, per_student: form.per_student, editable: form.editable, closed: isClosed(form) };
}

/** Reads through the caller's transaction when there is one (it sees what the transaction wrote), else on the hot path's statements. */
async function select<T extends object>(ctx: AppContext, sql: string, params: Record<string, unknown>, transaction?: Transaction): Promise<T[]> {
  if (!transaction) return ctx.db.select<T>(sql, params);
  return ctx.db.sequelize.query<T>(sql, { replacements: params, type: QueryTypes.SELECT, transaction });
}

/**
 * Each item with its `form` (null without one) as the caller is shown it: parents with their own
 * responses, oldest first; staff and admins with the response count. One query for the page's
 * forms and, for a parent, one for their responses; none when no item of the page has a form.
 * The views are the caller's own, made for this answer: each is completed in place, not copied.
 */
export async function attachForms<T extends object>(
  ctx: AppContext, principal: Principal, items: Array<{ view: T; formId: unknown }>, transaction?: Transaction,
): Promise<Array<T & { form: FormView | null }>> {
  const ids = [...new Set(items.filter((i) => i.formId != null).map((i) => Number(i.formId)))];
  const withForm = (view: T, form: FormView | null) => {
    const item = view as T & { form: FormView | null };
    item.form = form;
    return item;
  };
  if (ids.length === 0) return items.map((i) => withForm(i.view, null));
  const school = principal.schoolId;
  const forms = new Map(
    (await select<FormRow>(ctx, `SELECT ${FORM_COLUMNS} FROM forms f WHERE f.school_id = :school AND f.id IN (:ids)`, { school, ids }, transaction)).map((r) => [Number(r.id), formOf(r)]),
  );
  const mine = new Map<number, Array<Omit<ResponseView, 'form_id'>>>();
  if (principal.type === 'parent') {
    const rows = await select<ResponseRow>(
      ctx, `SELECT ${RESPONSE_COLUMNS} FROM form_responses r WHERE r.school_id = :school AND r.parent_id = :parent AND r.form_id IN (:ids) ORDER BY r.submitted_at, r.id`,
      { school, parent: principal.userId, ids }, transaction,
    );
    for (const row of rows) {
      const { form_id, ...response } = responseView(row);
      mine.set(form_id, [...(mine.get(form_id) ?? []), response]);
    }
  }
  return items.map(({ view, formId }) => {
    const form = formId == null ? undefined : forms.get(Number(formId));
    if (!form) return withForm(view, null);
    return withForm(view, principal.type === 'parent' ? { ...baseView(form), my_responses: mine.get(form.id) ?? [] } : staffFormView(form));
  });
}

const ITEM_TABLE: Record<FormItemType, string> = { activity: 'activities', noticeboard: 'notices' };

/** The item's pointer to its form, which lets a page of items skip the forms query when none has one. */
async function pointItemAt(ctx: AppContext, schoolId: string, entity: FormItemType, itemId: number, formId: number | null, transaction: Transaction) {
  await ctx.db.sequelize.query(`UPDATE ${ITEM_TABLE[entity]} SET form_id = :form WHERE id = :id AND school_id = :school`, {
    replacements: { form: formId, id: itemId, school: schoolId }, type: QueryTypes.UPDATE, transaction,
  });
}

/**
 * An item's form as its create or update asks (in the item's transaction, after the item's own
 * rights were checked): a new form, the whole definition again (questions and options matched by
 * id), or null to remove one that has no response. The form's row is locked first, as every
 * response locks it, so that "has responses" and the counts cannot move meanwhile. Answers the
 * item's form id afterwards (null without one), or undefined when the request said nothing of it;
 * the item's own row already points at it.
 */
export async function saveItemForm(
  ctx: AppContext, schoolId: string, entity: FormItemType, itemId: number, input: FormInput | null | undefined, transaction: Transaction, { fresh = false } = {},
): Promise<number | null | undefined> {
  if (input === undefined) return undefined;
  // A new item has no form: locking the absent row would lock the key's gap, where concurrent posts deadlock on MySQL.
  const existing = fresh ? null : await Form.findOne({ where: { school_id: schoolId, entity_type: entity, entity_id: itemId }, transaction, lock: transaction.LOCK.UPDATE });
  if (input === null) {
    if (!existing) return null;
    if (existing.response_count > 0) throw conflict('The form has responses and cannot be removed', [{ field: 'form', message: 'has responses' }]);
    await existing.destroy({ transaction });
    await pointItemAt(ctx, schoolId, entity, itemId, null, transaction);
    return null;
  }
  const next = normalizeForm(input);
  if (!existing) {
    checkDueAt(next.due_at, null);
    const form = await Form.create({ school_id: schoolId, entity_type: entity, entity_id: itemId, ...next, counts: countsFor(next.questions) }, { transaction });
    await pointItemAt(ctx, schoolId, entity, itemId, form.id, transaction);
    return form.id;
  }
  const stored: FormDefinition = { questions: existing.questions, due_at: existing.due_at, per_student: existing.per_student, editable: existing.editable };
  checkDueAt(next.due_at, stored.due_at);
  if (existing.response_count > 0) checkChangeWithResponses(stored, next, existing.counts);
  await existing.update({ ...next, counts: countsFor(next.questions, existing.counts) }, { transaction });
  return existing.id;
}
