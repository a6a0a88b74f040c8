import { QueryTypes, type Transaction } from 'sequelize';
import { z } from 'zod';
import { instant, pageQuery } from '../schemas.js';
import { transactionWithRetry } from '../transactions.js';
import type { AppContext, Principal } from '../../context.js';
import { iso, sqlTime } from '../../db.js';
import { badRequest, conflict, fieldError, forbidden, notFound } from '../../errors.js';
import { Notice } from '../../models/index.js';
import { noticeTypes } from '../../models/notice.js';
import { assertInSchool } from '../access/found.js';
import { operatorPrincipal, requirePermission, requireSchoolAdmin } from '../access/guards.js';
import { audienceFilters } from '../activities/activities.js';
import { audienceColumn, audienceFilterClauses, audienceFromColumn, audienceInput, audiencesOf, audienceVisible, checkAudience, normalizeAudience, saveAudience, type Audience } from '../audiences/audiences.js';
import { notifyAudience } from '../audiences/publish.js';
import { attachmentsOf, type AttachmentView } from '../attachments/attachments.js';
import { applyAttachments, attachmentIdsInput, planAttachments } from '../attachments/attaching.js';
import { deleteAttachmentsOfItems } from '../attachments/removal.js';
import { formInput } from '../forms/definition.js';
import { attachForms, saveItemForm, type FormView } from '../forms/forms.js';
import { emitWebhookEvent, eventData } from '../webhooks/events.js';
import { offsetOf } from '../pagination.js';
import { parseInput, required } from '../validation.js';
import { recordAudit } from '../audit/audit.js';

export { noticeTypes };
export type NoticeType = (typeof noticeTypes)[number];

/** The fields of a notice as every door (REST, console, command line) accepts them. */
export const noticeFields = {
  notice_title: z.string({ error: required }).trim().min(1).max(200),
  notice_desc: z.string().max(10_000).nullable(),
  notice_type: z.enum(noticeTypes),
  /** Important notices are pinned above the others in every listing. */
  is_important: z.boolean(),
  audience: audienceInput,
  /** Pushed past the parents' preferences and quiet hours and listed first (admins and `noticeboard.manage`). */
  is_urgent: z.boolean(),
  publish_at: instant().describe('A future time: the notice stays off the parents\' board, unpushed, until then'),
  attachment_ids: attachmentIdsInput,
  form: formInput.nullable(),
};

export const newNoticeSchema = z.object({
  notice_title: noticeFields.notice_title,
  notice_desc: noticeFields.notice_desc.optional(),
  notice_type: noticeFields.notice_type.default('general'),
  is_important: noticeFields.is_important.default(false),
  audience: noticeFields.audience.optional(),
  is_urgent: noticeFields.is_urgent.default(false),
  publish_at: noticeFields.publish_at.optional(),
  attachment_ids: noticeFields.attachment_ids.optional(),
  form: noticeFields.form.optional(),
});
export type NewNotice = z.input<typeof newNoticeSchema>;

export const noticeChangesSchema = z.object({
  notice_title: noticeFields.notice_title.optional(),
  notice_desc: noticeFields.notice_desc.optional(),
  notice_type: noticeFields.notice_type.optional(),
  is_important: noticeFields.is_important.optional(),
  audience: noticeFields.audience.optional(),
  is_urgent: noticeFields.is_urgent.optional(),
  publish_at: noticeFields.publish_at.optional(),
  attachment_ids: noticeFields.attachment_ids.optional(),
  form: noticeFields.form.optional(),
});
export type NoticeChanges = z.input<typeof noticeChangesSchema>;

export const noticeBoardQuerySchema = z.object({ notice_type: noticeFields.notice_type.optional(), ...pageQuery(20) });
export const teacherNoticeQuerySchema = noticeBoardQuerySchema.extend(audienceFilters);
export type NoticeBoardQuery = z.input<typeof noticeBoardQuerySchema>;

export const webNoticeQuerySchema = z.object({ notice_type: noticeFields.notice_type.optional(), ...audienceFilters, ...pageQuery(10) });
export type WebNoticeQuery = z.input<typeof webNoticeQuerySchema>;

export interface NoticeView {
  id: number;
  school_id: string;
  notice_title: string;
  notice_desc: string | null;
  notice_type: string | null;
  is_important: boolean;
  created_by_type: 'admin' | 'staff' | null;
  created_by_id: number | null;
  /** Who it is for; null for the whole school. */
  audience: Audience | null;
  is_urgent: boolean;
  /** Scheduled: not yet published (its time is publish_at). */
  scheduled: boolean;
  publish_at: string | null;
  published_at: string | null;
  created_at: string;
  updated_at: string;
  /** On the parents' board: when this parent first read it, null while unread. */
  read_at?: string | null;
  /** Its form, as the caller is shown it; null without one. */
  form: FormView | null;
  attachments: AttachmentView[];
}

interface NoticeRow extends Omit<NoticeView, 'is_important' | 'is_urgent' | 'scheduled' | 'audience' | 'publish_at' | 'published_at' | 'created_at' | 'updated_at' | 'read_at' | 'form' | 'attachments'> {
  is_important: unknown;
  is_urgent: unknown;
  publish_at: unknown;
  audience_scope: number;
  published_at: unknown;
  created_at: unknown;
  updated_at: unknown;
  read_at?: unknown;
  form_id: number | null;
  attachment_ids: unknown;
}

/** Built whole, once per row, as the activities' views are. */
function view(r: NoticeRow, audience: Audience | null, attachments: AttachmentView[]): Omit<NoticeView, 'form'> {
  const v: Omit<NoticeView, 'form'> = {
    id: Number(r.id),
    school_id: r.school_id,
    notice_title: r.notice_title,
    notice_desc: r.notice_desc ?? null,
    notice_type: r.notice_type ?? null,
    // Both databases hand a BOOLEAN back as 0/1 (SQLite may give a string).
    is_important: Number(r.is_important) === 1,
    created_by_type: r.created_by_type ?? null,
    created_by_id: r.created_by_id === null || r.created_by_id === undefined ? null : Number(r.created_by_id),
    audience,
    is_urgent: Number(r.is_urgent) === 1,
    scheduled: r.published_at == null,
    publish_at: iso(r.publish_at),
    published_at: iso(r.published_at),
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
    attachments,
  };
  if (r.read_at !== undefined) v.read_at = iso(r.read_at);
  return v;
}

const COLUMNS = 'n.id, n.school_id, n.notice_title, n.notice_desc, n.notice_type, n.is_important, n.created_by_type, n.created_by_id, n.audience_scope, n.is_urgent, n.publish_at, n.published_at, n.created_at, n.updated_at, n.form_id, n.attachment_ids';
/** Pinned first, then newest: the order of (school_id, notice_deleted, is_important, created_at, id) read backwards. */
const boardOrder = (alias: string) => `ORDER BY ${alias}.is_urgent DESC, ${alias}.is_important DESC, ${alias}.created_at DESC, ${alias}.id DESC`;
const BOARD_ORDER = boardOrder('n');

async function findNotice(ctx: AppContext, principal: Principal, id: number, transaction?: Transaction): Promise<NoticeView> {
  const [row] = await ctx.db.sequelize.query<NoticeRow>(`SELECT ${COLUMNS} FROM notices n WHERE n.id = :id AND n.school_id = :school AND n.notice_deleted = 0`, {
    replacements: { id, school: principal.schoolId }, type: QueryTypes.SELECT, transaction,
  });
  if (!row) throw notFound('Notice');
  return (await views(ctx, principal, [row], transaction))[0]!;
}

/** The rows as staff and admins see them, with their audiences, attachments and forms, each read in one query for the page. */
async function views(ctx: AppContext, principal: Principal, rows: NoticeRow[], transaction?: Transaction): Promise<NoticeView[]> {
  const [audiences, files] = await Promise.all([
    audiencesOf(principal.schoolId, 'noticeboard', rows.filter((r) => Number(r.audience_scope) === 1).map((r) => Number(r.id)), transaction),
    attachmentsOf(ctx, principal.schoolId, rows.map((r) => r.attachment_ids), transaction),
  ]);
  return attachForms(ctx, principal, rows.map((r, i) => ({ view: view(r, audiences.get(Number(r.id)) ?? null, files[i]!), formId: r.form_id })), transaction);
}

/** Rows of the parents' board as the parent is shown them, with their attachments, forms and the parent's own responses. */
async function parentViews(ctx: AppContext, principal: Principal, rows: Array<NoticeRow & { audience_list: unknown }>): Promise<NoticeView[]> {
  const files = await attachmentsOf(ctx, principal.schoolId, rows.map((r) => r.attachment_ids));
  return attachForms(ctx, principal, rows.map((r, i) => ({ view: view(r, audienceFromColumn(r.audience_list), files[i]!), formId: r.form_id })));
}

/**
 * School admins, and staff with `noticeboard.create` (through the teachers' app), post notices, to
 * the whole school or an audience (staff name only their own students unless they hold
 * `noticeboard.manage`). A notice is published as it is posted: its families get one push each,
 * through the outbox in the same transaction.
 */
export async function createNotice(ctx: AppContext, principal: Principal, input: NewNotice): Promise<NoticeView> {
  requirePermission(principal, 'noticeboard.create');
  const data = parseInput(newNoticeSchema, input);
  if (data.is_urgent) requirePermission(principal, 'noticeboard.manage');
  const publishAt = futureTime(data.publish_at);
  return transactionWithRetry(ctx, async (transaction) => {
    const audience = normalizeAudience(data.audience);
    await checkAudience(principal, audience, transaction);
    const files = data.attachment_ids && (await planAttachments(ctx, principal, data.attachment_ids, null, transaction));
    const created = await Notice.create({
      school_id: principal.schoolId,
      notice_title: data.notice_title,
      notice_desc: data.notice_desc ?? null,
      notice_type: data.notice_type,
      is_important: data.is_important,
      created_by_type: principal.type === 'staff' ? 'staff' : 'admin',
      created_by_id: principal.userId || null,
      audience_scope: audience ? 1 : 0,
      is_urgent: data.is_urgent,
      publish_at: publishAt ?? null,
      ...(files ? { attachment_ids: files.ids } : {}),
    }, { transaction });
    if (files) await applyAttachments(ctx, principal, files, { type: 'noticeboard', id: created.id }, transaction);
    await saveAudience(principal.schoolId, 'noticeboard', created.id, audience, transaction, { fresh: true });
    await saveItemForm(ctx, principal.schoolId, 'noticeboard', created.id, data.form, transaction, { fresh: true });
    if (!publishAt) await publishNotice(ctx, principal.schoolId, created.id, new Date(), transaction);
    return findNotice(ctx, principal, created.id, transaction);
  });
}

/** A publish time given for a notice: in the future, else 400. */
function futureTime(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const at = new Date(value);
  if (at.getTime() <= Date.now()) throw fieldError('publish_at', 'must be in the future');
  return at;
}

/** A published notice as its webhook event carries it: as the API shows it. */
async function noticeEventData(ctx: AppContext, schoolId: string, id: number, transaction: Transaction) {
  return eventData('noticeboard', id, await findNotice(ctx, operatorPrincipal(schoolId), id, transaction));
}

/**
 * Publishing a notice (when it is posted, or when its scheduled time comes): `published_at` is
 * claimed by a conditional update, so it happens once, whichever instance gets there; its families
 * are told, each by its channel (an urgent notice by every channel, past their preferences and quiet hours), and the school's
 * webhooks the event, in the transaction.
 */
export async function publishNotice(ctx: AppContext, schoolId: string, id: number, now: Date, transaction: Transaction): Promise<boolean> {
  const [, claimed] = (await ctx.db.sequelize.query(
    'UPDATE notices SET published_at = :now WHERE id = :id AND school_id = :school AND published_at IS NULL AND notice_deleted = 0 AND (publish_at IS NULL OR publish_at <= :now)',
    { replacements: { id, school: schoolId, now: sqlTime(ctx.db.dialect, now) }, type: QueryTypes.UPDATE, transaction },
  )) as unknown as [unknown, number];
  if (!claimed) return false;
  await recordAudit([{ schoolId, action: 'noticeboard.publish', entityType: 'noticeboard', entityId: id, changes: { published_at: [null, now.toISOString()] } }], transaction);
  const [notice] = await ctx.db.sequelize.query<{ notice_title: string; notice_desc: string | null; audience_scope: number; is_urgent: unknown }>(
    'SELECT notice_title, notice_desc, audience_scope, is_urgent FROM notices WHERE id = :id AND school_id = :school',
    { replacements: { id, school: schoolId }, type: QueryTypes.SELECT, transaction },
  );
  await notifyAudience(ctx, { schoolId, entity: 'noticeboard', id, scope: Number(notice!.audience_scope) }, {
    event: 'notice_published', entity_type: 'noticeboard', entity_id: id, title: notice!.notice_title,
    body: (notice!.notice_desc ?? '').slice(0, 200) || 'A new notice from school', urgent: Number(notice!.is_urgent) === 1,
  }, transaction);
  await emitWebhookEvent(schoolId, 'notice.published', await noticeEventData(ctx, schoolId, id, transaction), transaction);
  return true;
}

/** A notice of the caller's school (noticeboard.manage), else 404: a change of another school's is refused before its body is judged. */
export async function assertNoticeFound(principal: Principal, id: number): Promise<void> {
  requirePermission(principal, 'noticeboard.manage');
  await assertInSchool(principal, Notice, 'Notice', id, { notice_deleted: 0 });
}

/** School admins (and staff with `noticeboard.manage`) edit any notice of the school; an edit pushes nothing. */
export async function updateNotice(ctx: AppContext, principal: Principal, id: number, changes: NoticeChanges): Promise<NoticeView> {
  requirePermission(principal, 'noticeboard.manage');
  const { audience: requested, publish_at: publishAtInput, form, attachment_ids: attachmentIds, ...rest } = parseInput(noticeChangesSchema, changes);
  if (requested === undefined && publishAtInput === undefined && form === undefined && attachmentIds === undefined && Object.values(rest).every((v) => v === undefined)) {
    throw badRequest('Send at least one field to change');
  }
  const publishAt = futureTime(publishAtInput);
  // Known to be this school's before anything is written for it (its form, its attachments' claim).
  const current = await Notice.findOne({ where: { id, school_id: principal.schoolId, notice_deleted: 0 }, attributes: ['published_at'], raw: true });
  if (!current) throw notFound('Notice');
  if (publishAt && current.published_at) throw conflict('A published notice cannot be scheduled again');
  const patch = { ...rest, ...(publishAt ? { publish_at: publishAt } : {}) };
  // Changes of items with no audience or form yet lock the same index gap on MySQL: a deadlock's loser runs again.
  return transactionWithRetry(ctx, async (transaction) => {
    const audience = requested === undefined ? undefined : normalizeAudience(requested);
    if (audience !== undefined) await checkAudience(principal, audience, transaction);
    const files = attachmentIds && (await planAttachments(ctx, principal, attachmentIds, { type: 'noticeboard', id }, transaction));
    const formId = await saveItemForm(ctx, principal.schoolId, 'noticeboard', id, form, transaction);
    // Sequelize leaves out the fields that were not sent; a notice deleted since the read matches no row.
    const fields = {
      ...patch, ...(audience !== undefined ? { audience_scope: audience ? 1 : 0 } : {}), ...(formId !== undefined ? { form_id: formId } : {}), ...(files ? { attachment_ids: files.ids } : {}),
    };
    const [affected] = await Notice.update(fields, { where: { id, school_id: principal.schoolId, notice_deleted: 0 }, transaction });
    if (affected === 0) throw notFound('Notice');
    if (files) await applyAttachments(ctx, principal, files, { type: 'noticeboard', id }, transaction);
    if (audience !== undefined) await saveAudience(principal.schoolId, 'noticeboard', id, audience, transaction);
    return findNotice(ctx, principal, id, transaction);
  });
}

/** Soft delete (`notice_deleted` = 1): gone from every board, kept in the database; its attachments are deleted with it. */
export async function deleteNotice(ctx: AppContext, principal: Principal, id: number): Promise<void> {
  requirePermission(principal, 'noticeboard.manage');
  await ctx.db.sequelize.transaction(async (transaction) => {
    const [affected] = await Notice.update({ notice_deleted: 1 }, { where: { id, school_id: principal.schoolId, notice_deleted: 0 }, transaction });
    if (affected === 0) throw notFound('Notice');
    await deleteAttachmentsOfItems(ctx, principal.schoolId, 'noticeboard', [id], transaction);
  });
}

/**
 * The board's WHERE. `published`: only published notices; a staff id: published ones and that staff
 * member's scheduled ones; neither: all (admins). `walk` names the table the school, deletion and
 * publication are tested on (`i`, the parents' walk of the index on MySQL).
 */
function boardFilter(schoolId: string, query: { notice_type?: string; grade?: string; group_id?: number }, shown: { published?: boolean; staffId?: number } = {}, walk = 'n') {
  const params: Record<string, unknown> = { school: schoolId };
  const clauses = [`${walk}.school_id = :school`, `${walk}.notice_deleted = 0`];
  if (shown.published) clauses.push(`${walk}.published_at IS NOT NULL`);
  if (shown.staffId !== undefined) {
    clauses.push("(n.published_at IS NOT NULL OR (n.created_by_type = 'staff' AND n.created_by_id = :me))");
    params.me = shown.staffId;
  }
  if (query.notice_type) {
    clauses.push('n.notice_type = :type');
    params.type = query.notice_type;
  }
  clauses.push(...audienceFilterClauses('n', 'noticeboard', query, params));
  return { where: clauses.join(' AND '), params };
}

/**
 * One page of the board, pinned notices first. Without a type filter this is an ordered scan of
 * notices_board; with one, of notices_board_type, which puts notice_type before the order columns.
 */
async function board(ctx: AppContext, principal: Principal, query: z.output<typeof teacherNoticeQuerySchema>): Promise<NoticeView[]> {
  const { where, params } = boardFilter(principal.schoolId, query, principal.type === 'staff' ? { staffId: principal.userId } : {});
  const rows = await ctx.db.select<NoticeRow>(`SELECT ${COLUMNS} FROM notices n WHERE ${where} ${BOARD_ORDER} LIMIT :limit OFFSET :offset`, {
    ...params,
    limit: query.limit,
    offset: offsetOf(query),
  });
  return views(ctx, principal, rows);
}

// The parents' board statements, each built once for its dialect and filters (as the feed's): a text
// built per request is a fresh string of 1.5 kB that the prepared statements' cache then hashes in full.
/** The parent board's statement with no filter, page and limit bound as `:limit` and `:offset` (also the benchmark ceilings'). */
export function parentBoardSql(mysql: boolean): string {
  const walk = parentBoardWalk(mysql, {});
  return parentBoardStatement(mysql, walk, boardFilter('', {}, { published: true }, walk).where);
}

/**
 * On MySQL, without a type filter, the parents' board walks notices_board_urgent (`i`), whose entries
 * hold what the school, deletion, publication and audience tests need, and reads from the table (`n`)
 * only the notices kept: a page read 147 buffer-pool pages at 1,000 schools instead of 200
 * (bench/README.md). A type filter leaves the choice of index to MariaDB.
 */
function parentBoardWalk(mysql: boolean, query: { notice_type?: string }): string {
  return mysql && !query.notice_type ? 'i' : 'n';
}

const parentBoardStatements = new Map<string, string>();
function parentBoardStatement(mysql: boolean, walk: string, where: string): string {
  const key = `${mysql ? 'mysql' : 'sqlite'} ${walk} ${where}`;
  let sql = parentBoardStatements.get(key);
  if (sql === undefined) {
    const from = walk === 'i' ? 'notices i FORCE INDEX (notices_board_urgent) STRAIGHT_JOIN notices n ON n.id = i.id' : 'notices n';
    sql = `SELECT ${COLUMNS}, r.read_at, ${audienceColumn('n', 'noticeboard', mysql)} FROM ${from}
       LEFT JOIN item_reads r ON r.school_id = n.school_id AND r.entity_type = 'noticeboard' AND r.entity_id = n.id AND r.parent_id = :parent
      WHERE ${where} AND ${audienceVisible(walk, 'noticeboard', false, mysql)} ${boardOrder(walk)} LIMIT :limit OFFSET :offset`;
    parentBoardStatements.set(key, sql);
  }
  return sql;
}

/**
 * The parent's board: the school-wide notices and those whose audience holds one of their children
 * (not archived), pinned first, each with when the parent first read it.
 */
export async function listParentNotices(ctx: AppContext, principal: Principal, input: NoticeBoardQuery = {}): Promise<NoticeView[]> {
  if (principal.type !== 'parent') throw forbidden('This noticeboard is for parents');
  const query = parseInput(noticeBoardQuerySchema, input);
  const mysql = ctx.db.dialect === 'mysql';
  const walk = parentBoardWalk(mysql, query);
  const { where, params } = boardFilter(principal.schoolId, query, { published: true }, walk);
  const rows = await ctx.db.select<NoticeRow & { audience_list: unknown }>(
    parentBoardStatement(mysql, walk, where),
    { ...params, parent: principal.userId, limit: query.limit, offset: offsetOf(query) },
    { dateObjects: true },
  );
  return parentViews(ctx, principal, rows);
}

/** One notice of the parent's board (a push opens it): anything the board would not show them is 404. */
export async function parentNotice(ctx: AppContext, principal: Principal, id: number): Promise<NoticeView & { read_at: string | null }> {
  if (principal.type !== 'parent') throw forbidden('This noticeboard is for parents');
  const { where, params } = boardFilter(principal.schoolId, {}, { published: true });
  const mysql = ctx.db.dialect === 'mysql';
  const [row] = await ctx.db.select<NoticeRow & { audience_list: unknown }>(
    `SELECT ${COLUMNS}, r.read_at, ${audienceColumn('n', 'noticeboard', mysql)} FROM notices n
       LEFT JOIN item_reads r ON r.school_id = n.school_id AND r.entity_type = 'noticeboard' AND r.entity_id = n.id AND r.parent_id = :parent
      WHERE ${where} AND n.id = :id AND ${audienceVisible('n', 'noticeboard', false, mysql)}`,
    { ...params, parent: principal.userId, id },
  );
  if (!row) throw notFound('Notice');
  return (await parentViews(ctx, principal, [row]))[0] as NoticeView & { read_at: string | null };
}

export async function listTeacherNotices(ctx: AppContext, principal: Principal, query: z.input<typeof teacherNoticeQuerySchema> = {}): Promise<NoticeView[]> {
  requirePermission(principal, 'noticeboard.view');
  return board(ctx, principal, parseInput(teacherNoticeQuerySchema, query));
}

/** The web admins' board: one page and the count of every undeleted notice (of the type, when filtered). */
export async function listWebNotices(ctx: AppContext, principal: Principal, input: WebNoticeQuery = {}): Promise<{ notices: NoticeView[]; count: number }> {
  requireSchoolAdmin(principal);
  const query = parseInput(webNoticeQuerySchema, input);
  const { where, params } = boardFilter(principal.schoolId, query);
  const [notices, [row]] = await Promise.all([
    board(ctx, principal, query),
    ctx.db.select<{ count: number }>(`SELECT COUNT(*) AS count FROM notices n WHERE ${where}`, params),
  ]);
  return { notices, count: Number(row?.count ?? 0) };
}
