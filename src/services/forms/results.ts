import { stringify } from 'csv-stringify/sync';
import type { AppContext, Principal } from '../../context.js';
import { forbidden, notFound } from '../../errors.js';
import { Form, type Answer, type FormQuestion } from '../../models/form.js';
import { hasPermission, requireSchoolAdmin } from '../access/guards.js';
import { own } from './answers.js';
import { FORM_COLUMNS, formOf, responseView, staffFormView, type FormRow, type FormView, type ResponseRow, type StoredForm } from './forms.js';
import { missingOf, type MissingFamily, type MissingStudent } from './missing.js';

interface ItemRow {
  deleted: unknown;
  scope: unknown;
  staff_author: number | null;
}

const ITEM_SQL = {
  activity: 'SELECT deleted_status AS deleted, audience_scope AS scope, staff_id AS staff_author FROM activities WHERE id = :id AND school_id = :school',
  noticeboard: "SELECT notice_deleted AS deleted, audience_scope AS scope, CASE WHEN created_by_type = 'staff' THEN created_by_id END AS staff_author FROM notices WHERE id = :id AND school_id = :school",
} as const;

/**
 * A form whose results the caller may read and close: school admins (super_admin, admin) any of the
 * school's; staff the forms of their own items, or any with `activities.manage` (an activity's) or
 * `noticeboard.manage` (a notice's). Another school's form, or one on a deleted item: 404.
 */
async function formForStaff(ctx: AppContext, principal: Principal, formId: number): Promise<{ form: StoredForm; scope: number }> {
  if (principal.type === 'parent') throw forbidden('Results are for the school');
  const [row] = await ctx.db.select<FormRow>(`SELECT ${FORM_COLUMNS} FROM forms f WHERE f.id = :id AND f.school_id = :school`, { id: formId, school: principal.schoolId });
  if (!row) throw notFound('Form');
  const form = formOf(row);
  const [item] = await ctx.db.select<ItemRow>(ITEM_SQL[form.entity_type], { id: form.entity_id, school: principal.schoolId });
  if (!item || Number(item.deleted) !== 0) throw notFound('Form');
  if (principal.type === 'admin') requireSchoolAdmin(principal);
  else {
    const own = item.staff_author !== null && Number(item.staff_author) === principal.userId;
    const manage = form.entity_type === 'activity' ? 'activities.manage' : 'noticeboard.manage';
    if (!own && !hasPermission(principal, manage)) throw forbidden(`This needs to be your own item, or the permission ${manage}`);
  }
  return { form, scope: Number(item.scope) };
}

export interface ResultResponse {
  id: number;
  student: { id: number; student_full_name: string; grade: string } | null;
  parent: { id: number; father_name: string | null };
  answers: Record<string, Answer>;
  signature: string | null;
  signed_at: string | null;
  ip: string | null;
  user_agent: string | null;
  submitted_at: string;
  updated_at: string;
}

export type Summary = Record<string, Record<string, number>>;

export interface FormResults {
  form: FormView & { entity_type: string; entity_id: number };
  summary: Summary;
  responses: ResultResponse[];
  missing: MissingStudent[] | MissingFamily[];
}

type ResultRow = ResponseRow & { student_full_name: string | null; grade: string | null; father_name: string | null };

async function responsesOf(ctx: AppContext, form: StoredForm): Promise<ResultResponse[]> {
  const rows = await ctx.db.select<ResultRow>(
    `SELECT r.id, r.form_id, r.parent_id, r.student_id, r.answers, r.signature, r.signed_at, r.ip, r.user_agent, r.submitted_at, r.updated_at,
            s.student_full_name, s.grade, p.father_name
       FROM form_responses r
       LEFT JOIN students s ON s.id = r.student_id AND s.school_id = r.school_id
       LEFT JOIN parents p ON p.id = r.parent_id AND p.school_id = r.school_id
      WHERE r.school_id = :school AND r.form_id = :form ORDER BY r.submitted_at, r.id`,
    { school: form.school_id, form: form.id },
  );
  return rows.map((r) => {
    const v = responseView(r);
    return {
      id: v.id,
      student: v.student_id === null ? null : { id: v.student_id, student_full_name: r.student_full_name ?? '', grade: r.grade ?? '' },
      parent: { id: Number(r.parent_id), father_name: r.father_name ?? null },
      answers: v.answers, signature: v.signature, signed_at: v.signed_at, ip: r.ip ?? null, user_agent: r.user_agent ?? null, submitted_at: v.submitted_at, updated_at: v.updated_at,
    };
  });
}

/** Per question: each option's count (0 included; each chosen option of a `multiple`), agree and decline, or how many answered. */
function summaryOf(questions: FormQuestion[], responses: ResultResponse[]): Summary {
  const summary: Summary = {};
  for (const q of questions) {
    const answers = responses.map((r) => own(r.answers, q.id)).filter((a) => a !== undefined);
    if (q.type === 'choice') {
      const counts = Object.fromEntries((q.options ?? []).map((o) => [o.id, 0]));
      for (const a of answers) for (const o of Array.isArray(a) ? a : [String(a)]) if (Object.hasOwn(counts, o)) counts[o]!++;
      summary[q.id] = counts;
    } else if (q.type === 'consent') summary[q.id] = { agree: answers.filter((a) => a === 'agree').length, decline: answers.filter((a) => a === 'decline').length };
    else summary[q.id] = { answered: answers.length };
  }
  return summary;
}

/** GET .../forms/:id/results: the form, a summary per question, every response oldest first, and who is missing. */
export async function formResults(ctx: AppContext, principal: Principal, formId: number): Promise<FormResults> {
  const { form, scope } = await formForStaff(ctx, principal, formId);
  const responses = await responsesOf(ctx, form);
  const missing = await missingOf(ctx, form, scope);
  return {
    form: { ...staffFormView(form), entity_type: form.entity_type, entity_id: form.entity_id },
    summary: summaryOf(form.questions, responses),
    responses,
    missing: 'students' in missing ? missing.students : missing.families,
  };
}

/** An answer as a spreadsheet cell: the chosen options' labels (joined by "; "), agree or decline, the text, the number. */
function cell(q: FormQuestion, answer: Answer | undefined): string | number {
  if (answer === undefined) return '';
  if (q.type === 'choice') {
    const labels = new Map((q.options ?? []).map((o) => [o.id, o.label]));
    return (Array.isArray(answer) ? answer : [String(answer)]).map((id) => labels.get(id) ?? id).join('; ');
  }
  return answer as string | number;
}

/** A number written out in decimal digits, never in JavaScript's exponent form (1e-7, 1e+21), which a spreadsheet may read otherwise. */
function decimal(n: number): string {
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(String(n));
  if (!m) return String(n);
  const [, sign, lead, fraction = '', e] = m;
  const exp = Number(e);
  return exp < 0 ? `${sign}0.${'0'.repeat(-exp - 1)}${lead}${fraction}` : `${sign}${lead}${fraction}${'0'.repeat(exp - fraction.length)}`;
}

/**
 * The results as RFC 4180 CSV (commas, CRLF, quoted where needed, a byte-order mark first so that
 * spreadsheets read UTF-8): a header row, then one row per response in the order of the JSON.
 * A text cell beginning with =, +, - or @ gets a leading ' (csv-stringify's escape_formulas), so a
 * spreadsheet shows it rather than running it; numbers stay numbers, in decimal digits.
 */
export async function formResultsCsv(ctx: AppContext, principal: Principal, formId: number): Promise<{ csv: string; filename: string }> {
  const { form } = await formForStaff(ctx, principal, formId);
  const responses = await responsesOf(ctx, form);
  const header = ['student', 'grade', 'parent', 'submitted_at', ...form.questions.map((q) => q.label), 'signature'];
  const rows = responses.map((r) => [
    r.student?.student_full_name ?? '', r.student?.grade ?? '', r.parent.father_name ?? '', r.submitted_at, ...form.questions.map((q) => cell(q, own(r.answers, q.id))), r.signature ?? '',
  ]);
  // With a record delimiter of its own, csv-stringify quotes only fields holding it: a lone \n must be quoted too.
  const csv = stringify([header, ...rows], { bom: true, record_delimiter: 'windows', quote_record_delimiter: true, escape_formulas: true, cast: { number: decimal } });
  return { csv, filename: `form-${form.id}-results.csv` };
}

/** Closes a form for good (a closed one stays closed: harmless). Answers the staff view. */
export async function closeForm(ctx: AppContext, principal: Principal, formId: number): Promise<FormView> {
  const { form } = await formForStaff(ctx, principal, formId);
  await Form.update({ closed_at: new Date() }, { where: { id: form.id, school_id: form.school_id, closed_at: null } });
  const [row] = await ctx.db.select<FormRow>(`SELECT ${FORM_COLUMNS} FROM forms f WHERE f.id = :id AND f.school_id = :school`, { id: form.id, school: form.school_id });
  return staffFormView(formOf(row!));
}
