import { QueryTypes, UniqueConstraintError, type Transaction } from 'sequelize';
import { z } from 'zod';
import type { AppContext, Principal } from '../../context.js';
import { AppError, badRequest, conflict, fieldError, forbidden, notFound, type FieldError } from '../../errors.js';
import { FormResponse, type FormItemType, type OptionCounts } from '../../models/form.js';
import { audienceVisible } from '../audiences/audiences.js';
import { assertParentCanSee } from '../engagement/visibility.js';
import { id } from '../schemas.js';
import { parseInput, refuseNul } from '../validation.js';
import { emitWebhookEvent } from '../webhooks/events.js';
import { checkAnswers, chosen, recount } from './answers.js';
import { FORM_COLUMNS, formOf, isClosed, responseView, type FormRow, type ResponseView, type StoredForm } from './forms.js';

const SIGNATURE_MAX = 120;

const answersField = z.record(z.string(), z.unknown()).describe('Keyed by question id: "agree" or "decline" for a consent, an option id (an array of them with `multiple`) for a choice, a text, a number');
const signatureField = z.string().nullable().optional().describe("The signer's typed name, 1 to 120 characters; needed to agree to a consent");

// A response's body is judged in two parts, each at its turn in the contract's order: the child, then (once the form is known to be open) the answers.
const respondentInput = z.object({
  student_id: id().nullable().optional().describe('The child this response is for: required on a per-student form, absent or null on a per-family one'),
});
export const responseChangesInput = z.object({ answers: answersField, signature: signatureField });
export const responseInput = respondentInput.extend(responseChangesInput.shape);

/** Who wrote a response: its request's address and browser, kept with it. */
export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
}

/** Whether the item is for the child, by dialect: on MySQL the audience subqueries name their indexes. */
const visibleToChild = (mysql: boolean): Record<FormItemType, string> => ({
  activity: `SELECT a.id FROM activities a WHERE a.id = :item AND a.school_id = :school AND ${audienceVisible('a', 'activity', true, mysql)}`,
  noticeboard: `SELECT n.id FROM notices n WHERE n.id = :item AND n.school_id = :school AND ${audienceVisible('n', 'noticeboard', true, mysql)}`,
});
const VISIBLE_TO_CHILD = { sqlite: visibleToChild(false), mysql: visibleToChild(true) };

/** The form, when the parent can see its item (section 19's rules): another school's, an unseen or a deleted item's is 404. */
async function visibleForm(ctx: AppContext, principal: Principal, formId: number): Promise<StoredForm> {
  if (principal.type !== 'parent') throw forbidden('Responding is for parents');
  const [row] = await ctx.db.select<FormRow>(`SELECT ${FORM_COLUMNS} FROM forms f WHERE f.id = :id AND f.school_id = :school`, { id: formId, school: principal.schoolId });
  if (!row) throw notFound('Form');
  const form = formOf(row);
  await assertParentCanSee(ctx, principal, form.entity_type, form.entity_id).catch((err: unknown) => {
    throw err instanceof AppError && err.code === 'NOT_FOUND' ? notFound('Form') : err;
  });
  return form;
}

/** A form the parent can see, else 404: a response to anyone else's is refused before its body is judged. */
export async function assertFormVisible(ctx: AppContext, principal: Principal, formId: number): Promise<void> {
  await visibleForm(ctx, principal, formId);
}

/** One of the parent's own responses to a form they can see, else 404, before the body is judged. */
export async function assertResponseFound(ctx: AppContext, principal: Principal, formId: number, responseId: number): Promise<void> {
  await visibleForm(ctx, principal, formId);
  const own = await FormResponse.findOne({ where: { id: responseId, form_id: formId, school_id: principal.schoolId, parent_id: principal.userId }, attributes: ['id'], raw: true });
  if (!own) throw notFound('Response');
}

/**
 * The form's row, locked until the transaction ends: every response (and every change of the form)
 * takes this lock first, so the counts it holds move one response at a time. On MySQL a row lock
 * (FOR UPDATE); on SQLite the transaction already holds the database's one write lock.
 */
async function lockForm(ctx: AppContext, schoolId: string, formId: number, transaction: Transaction): Promise<StoredForm> {
  const [row] = await ctx.db.sequelize.query<FormRow>(
    `SELECT ${FORM_COLUMNS} FROM forms f WHERE f.id = :id AND f.school_id = :school${ctx.db.dialect === 'mysql' ? ' FOR UPDATE' : ''}`,
    { replacements: { id: formId, school: schoolId }, type: QueryTypes.SELECT, transaction },
  );
  if (!row) throw notFound('Form');
  return formOf(row);
}

async function writeCounts(ctx: AppContext, form: StoredForm, counts: OptionCounts, added: number, transaction: Transaction) {
  await ctx.db.sequelize.query('UPDATE forms SET counts = :counts, response_count = response_count + :added WHERE id = :id AND school_id = :school', {
    replacements: { counts: JSON.stringify(counts), added, id: form.id, school: form.school_id }, type: QueryTypes.UPDATE, transaction,
  });
}

/** The signature as stored: trimmed, 1 to 120 characters, or null when none was given. */
function signatureOf(value: string | null | undefined, problems: FieldError[]): string | null {
  if (value === undefined || value === null) return null;
  const trimmed = value.trim();
  if (trimmed.length === 0 || trimmed.length > SIGNATURE_MAX) problems.push({ field: 'signature', message: `must be 1 to ${SIGNATURE_MAX} characters` });
  return trimmed || null;
}

/** The answers and the signature of a body, or one 400 naming each bad one. */
function checkedAnswers(form: StoredForm, body: unknown) {
  const input = parseInput(responseChangesInput, body);
  refuseNul(input);
  const problems: FieldError[] = [];
  const signature = signatureOf(input.signature, problems);
  const checked = checkAnswers(form.questions, input.answers, signature);
  // A signature already refused is not named again for the consent it would have signed.
  problems.push(...checked.problems.filter((p) => p.field !== 'signature' || problems.length === 0));
  if (problems.length) throw badRequest(`Invalid answers: ${[...new Set(problems.map((p) => p.field))].join(', ')}`, problems);
  return { answers: checked.answers, signature };
}

const full = (problems: Array<{ field: string; option: string; message: string }>) =>
  conflict(`No place is left: ${problems.map((p) => p.message).join('; ')}`, problems);

/**
 * The child a per-student response is for: one of the caller's children (403 otherwise, as in
 * section 8), not archived and in the item's audience (400). A per-family form takes none.
 */
async function respondentOf(ctx: AppContext, principal: Principal, form: StoredForm, studentId: number | null | undefined): Promise<number | null> {
  if (!form.per_student) {
    if (studentId !== undefined && studentId !== null) throw fieldError('student_id', 'must be absent: this form takes one response per family');
    return null;
  }
  if (studentId === undefined || studentId === null) throw fieldError('student_id', 'is required: this form takes one response per child');
  const [child] = await ctx.db.select<{ status: string }>('SELECT status FROM students WHERE id = :id AND school_id = :school AND parent_id = :parent', {
    id: studentId, school: principal.schoolId, parent: principal.userId,
  });
  if (!child) throw forbidden('That student is not linked to you');
  if (child.status === 'archived') throw fieldError('student_id', 'is archived');
  const inAudience = await ctx.db.select(VISIBLE_TO_CHILD[ctx.db.dialect][form.entity_type], { item: form.entity_id, school: principal.schoolId, parent: principal.userId, student: studentId });
  if (inAudience.length === 0) throw fieldError('student_id', 'is not in the audience of this item');
  return studentId;
}

/**
 * A family's response. Checked in this order, the first failure answering: the form and its item
 * (404), the child (400, 403), the form being open (409), the answers and the signature (400), an
 * earlier response for the same child or family (409, the unique key), the options' capacities
 * (409 naming each full option). Everything is written in one transaction under the form's lock,
 * or nothing is; the webhooks get `form.response_submitted` in it.
 */
export async function submitResponse(ctx: AppContext, principal: Principal, formId: number, input: unknown, meta: RequestMeta): Promise<ResponseView> {
  const seen = await visibleForm(ctx, principal, formId);
  const studentId = await respondentOf(ctx, principal, seen, parseInput(respondentInput, input).student_id);
  return ctx.db.sequelize.transaction(async (transaction) => {
    const form = await lockForm(ctx, principal.schoolId, formId, transaction);
    if (isClosed(form)) throw conflict('This form is closed');
    if (form.per_student !== seen.per_student) throw conflict('The form changed meanwhile; send the response again');
    const { answers, signature } = checkedAnswers(form, input);
    const now = new Date();
    let response: FormResponse;
    try {
      response = await FormResponse.create({
        school_id: principal.schoolId, form_id: formId, parent_id: principal.userId, student_id: studentId,
        respondent: studentId !== null ? `student:${studentId}` : `parent:${principal.userId}`, answers, signature, signed_at: signature ? now : null,
        ip: meta.ip, user_agent: meta.userAgent, submitted_at: now,
      }, { transaction });
    } catch (err) {
      if (err instanceof UniqueConstraintError) {
        throw conflict(studentId !== null ? 'This child already has a response to this form' : 'Your family already has a response to this form', [
          { field: studentId !== null ? 'student_id' : 'form', message: 'already has a response' },
        ]);
      }
      throw err;
    }
    const moved = recount(form.questions, form.counts, [], chosen(form.questions, answers));
    if (moved.full.length) throw full(moved.full);
    await writeCounts(ctx, form, moved.counts, 1, transaction);
    const view = responseView(response.get({ plain: true }) as never);
    await emitWebhookEvent(principal.schoolId, 'form.response_submitted', {
      entity_type: 'form_response', entity_id: view.id, form_id: formId, item: { entity_type: form.entity_type, entity_id: form.entity_id },
      student_id: view.student_id, parent_id: principal.userId, answers: view.answers, submitted_at: view.submitted_at,
    }, transaction);
    return view;
  });
}

/**
 * A family changes one of its responses: the answers and the signature are replaced (its child
 * stays). Checked in this order: 404 (another family's response, an unseen form), closed (409), not
 * editable (409), the answers (400), capacity (409). A signature that differs from the stored one
 * moves `signed_at`.
 */
export async function updateResponse(
  ctx: AppContext, principal: Principal, formId: number, responseId: number, input: unknown, meta: RequestMeta,
): Promise<ResponseView> {
  await visibleForm(ctx, principal, formId);
  return ctx.db.sequelize.transaction(async (transaction) => {
    const form = await lockForm(ctx, principal.schoolId, formId, transaction);
    const response = await FormResponse.findOne({ where: { id: responseId, form_id: formId, school_id: principal.schoolId, parent_id: principal.userId }, transaction });
    if (!response) throw notFound('Response');
    if (isClosed(form)) throw conflict('This form is closed');
    if (!form.editable) throw conflict('This form does not take changes to a response');
    const { answers, signature } = checkedAnswers(form, input);
    const moved = recount(form.questions, form.counts, chosen(form.questions, response.answers), chosen(form.questions, answers));
    if (moved.full.length) throw full(moved.full);
    const signedAt = signature === null ? null : signature === response.signature ? response.signed_at : new Date();
    await response.update({ answers, signature, signed_at: signedAt, ip: meta.ip, user_agent: meta.userAgent }, { transaction });
    await writeCounts(ctx, form, moved.counts, 0, transaction);
    return responseView(response.get({ plain: true }) as never);
  });
}
