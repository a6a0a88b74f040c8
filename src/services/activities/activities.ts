import { QueryTypes, type Transaction } from 'sequelize';
import { z } from 'zod';
import { instant, pageQuery } from '../schemas.js';
import { transactionWithRetry } from '../transactions.js';
import type { AppContext, Principal } from '../../context.js';
import { iso, sqlTime } from '../../db.js';
import { badRequest, conflict, fieldError, forbidden, notFound } from '../../errors.js';
import { Activity } from '../../models/index.js';
import { activityStatuses, activityTypes } from '../../models/activity.js';
import { assertInSchool, authorOf } from '../access/found.js';
import { requirePermission, requireSchoolAdmin } from '../access/guards.js';
import { assertChildOf } from '../access/scope.js';
import {
  audienceColumn, audienceFilterClauses, audienceFromColumn, audienceInput, audiencesOf, audienceVisible, checkAudience, normalizeAudience, saveAudience, type Audience,
} from '../audiences/audiences.js';
import { notifyAudience } from '../audiences/publish.js';
import { attachmentsOf, type AttachmentView } from '../attachments/attachments.js';
import { applyAttachments, attachmentIdsInput, planAttachments } from '../attachments/attaching.js';
import { deleteAttachmentsOfItems } from '../attachments/removal.js';
import { eventColumns, eventFields } from '../calendar/event-fields.js';
import { formInput } from '../forms/definition.js';
import { attachForms, saveItemForm, type FormView } from '../forms/forms.js';
import { emitWebhookEvent, eventData } from '../webhooks/events.js';
import { offsetOf, paginationOf } from '../pagination.js';
import { parseInput, required } from '../validation.js';

export { activityStatuses, activityTypes };
export type ActivityType = (typeof activityTypes)[number];
export type ActivityStatus = (typeof activityStatuses)[number];

const recordId = () => z.coerce.number().int().min(1).max(2_147_483_647);

/** The fields of an activity as every door (REST, console, command line) accepts them. */
export const activityFields = {
  title: z.string({ error: required }).trim().min(1).max(200),
  description: z.string().max(10_000).nullable(),
  activity_type: z.enum(activityTypes),
  status: z.enum(activityStatuses),
  /** The author; from staff it must be the caller, from an admin it names the staff member. */
  staff_id: recordId(),
  /** Null: school-wide; a value targets one student (the same as `audience: {student_ids: [N]}`). */
  student_id: recordId().nullable(),
  audience: audienceInput,
  /** With status `scheduled`: when the activity publishes itself (and its push goes out). */
  publish_at: instant().describe('A future time; the activity stays `scheduled`, hidden from parents, until then'),
  attachment_ids: attachmentIdsInput,
  ...eventFields,
  form: formInput.nullable(),
};

export const newActivitySchema = z.object({
  title: activityFields.title,
  description: activityFields.description.optional(),
  activity_type: activityFields.activity_type.default('announcement'),
  // Posting publishes unless the author keeps a draft or schedules it (a publish_at alone schedules).
  status: activityFields.status.optional().describe('published unless a publish_at is given (scheduled)'),
  staff_id: activityFields.staff_id.optional(),
  student_id: activityFields.student_id.optional(),
  audience: activityFields.audience.optional(),
  publish_at: activityFields.publish_at.optional(),
  attachment_ids: activityFields.attachment_ids.optional(),
  starts_at: activityFields.starts_at.optional(),
  ends_at: activityFields.ends_at.optional(),
  all_day: activityFields.all_day.optional(),
  location: activityFields.location.optional(),
  form: activityFields.form.optional(),
});
export type NewActivity = z.input<typeof newActivitySchema>;

export const activityChangesSchema = z.object({
  title: activityFields.title.optional(),
  description: activityFields.description.optional(),
  activity_type: activityFields.activity_type.optional(),
  status: activityFields.status.optional(),
  staff_id: activityFields.staff_id.optional(),
  student_id: activityFields.student_id.optional(),
  audience: activityFields.audience.optional(),
  publish_at: activityFields.publish_at.optional(),
  attachment_ids: activityFields.attachment_ids.optional(),
  starts_at: activityFields.starts_at.optional(),
  ends_at: activityFields.ends_at.optional(),
  all_day: activityFields.all_day.optional(),
  location: activityFields.location.optional(),
  form: activityFields.form.optional(),
});
export type ActivityChanges = z.input<typeof activityChangesSchema>;

/** The teachers' and web lists narrowed to the items addressed to a grade or a group. */
export const audienceFilters = {
  grade: z.string().trim().min(1).max(60).optional().describe('Only the items whose audience names this grade'),
  group_id: recordId().optional().describe('Only the items whose audience names this group'),
};

export const teacherActivityQuerySchema = z.object({
  activity_type: activityFields.activity_type.optional(),
  status: activityFields.status.optional(),
  ...audienceFilters,
  ...pageQuery(20),
});
export type TeacherActivityQuery = z.input<typeof teacherActivityQuerySchema>;

export const parentFeedQuerySchema = z.object({
  activity_type: activityFields.activity_type.optional(),
  /** One of the parent's children: that child's activities and the school-wide ones. */
  student_id: recordId().optional(),
  ...pageQuery(20),
});
export type ParentFeedQuery = z.input<typeof parentFeedQuerySchema>;

export const webActivityQuerySchema = z.object({ ...audienceFilters, ...pageQuery(10) });
export type WebActivityQuery = z.input<typeof webActivityQuerySchema>;

export interface ActivityView {
  id: number;
  school_id: string;
  title: string;
  description: string | null;
  activity_type: string;
  status: string;
  staff_id: number;
  author_id: number;
  author_name: string | null;
  student_id: number | null;
  /** Who it is for; null for the whole school. */
  audience: Audience | null;
  publish_at: string | null;
  published_at: string | null;
  created_at: string;
  updated_at: string;
  /** An event's time and place: null (all_day false) where not set. */
  starts_at: string | null;
  ends_at: string | null;
  all_day: boolean;
  location: string | null;
  /** In the parent feed: when this parent first read it, null while unread. */
  read_at?: string | null;
  /** Its form, as the caller is shown it; null without one. */
  form: FormView | null;
  attachments: AttachmentView[];
}

export interface ActivityRow {
  id: number;
  school_id: string;
  title: string;
  description: string | null;
  activity_type: string;
  status: string;
  staff_id: number;
  author_name: string | null;
  student_id: number | null;
  audience_scope: number;
  publish_at: unknown;
  published_at: unknown;
  created_at: unknown;
  updated_at: unknown;
  read_at?: unknown;
  form_id: number | null;
  starts_at: unknown;
  ends_at: unknown;
  all_day: unknown;
  location: string | null;
  attachment_ids: unknown;
}

/** Built whole, once per row: a feed page makes twenty, and each copy by spread cost the feed measurably (bench/README.md). */
function view(r: ActivityRow, audience: Audience | null, attachments: AttachmentView[]): Omit<ActivityView, 'form'> {
  const v: Omit<ActivityView, 'form'> = {
    id: Number(r.id),
    school_id: r.school_id,
    title: r.title,
    description: r.description ?? null,
    activity_type: r.activity_type,
    status: r.status,
    staff_id: Number(r.staff_id),
    author_id: Number(r.staff_id),
    author_name: r.author_name ?? null,
    student_id: r.student_id === null || r.student_id === undefined ? null : Number(r.student_id),
    audience,
    publish_at: iso(r.publish_at),
    published_at: iso(r.published_at),
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
    starts_at: iso(r.starts_at),
    ends_at: iso(r.ends_at),
    all_day: Number(r.all_day) === 1,
    location: r.location ?? null,
    attachments,
  };
  if (r.read_at !== undefined) v.read_at = iso(r.read_at);
  return v;
}

/** The rows as staff and admins see them, with their audiences, attachments and forms, each read in one query for the page. */
export async function staffActivityViews(ctx: AppContext, principal: Principal, rows: ActivityRow[], transaction?: Transaction): Promise<ActivityView[]> {
  const [audiences, files] = await Promise.all([
    audiencesOf(principal.schoolId, 'activity', rows.filter((r) => Number(r.audience_scope) === 1).map((r) => Number(r.id)), transaction),
    attachmentsOf(ctx, principal.schoolId, rows.map((r) => r.attachment_ids), transaction),
  ]);
  const items = rows.map((r, i) => ({ view: view(r, audiences.get(Number(r.id)) ?? null, files[i]!), formId: r.form_id }));
  return attachForms(ctx, principal, items, transaction);
}

/** Rows of `parentActivitiesSelect` as the parent is shown them, with their attachments, forms and the parent's own responses. */
export async function parentActivityViews(ctx: AppContext, principal: Principal, rows: Array<ActivityRow & { audience_list: unknown }>): Promise<ActivityView[]> {
  const files = await attachmentsOf(ctx, principal.schoolId, rows.map((r) => r.attachment_ids));
  return attachForms(ctx, principal, rows.map((r, i) => ({ view: view(r, audienceFromColumn(r.audience_list), files[i]!), formId: r.form_id })));
}

export const ACTIVITY_COLUMNS = `a.id, a.school_id, a.title, a.description, a.activity_type, a.status, a.staff_id, s.name AS author_name,
  a.student_id, a.audience_scope, a.publish_at, a.published_at, a.created_at, a.updated_at, a.form_id, a.starts_at, a.ends_at, a.all_day, a.location,
  a.attachment_ids`;
export const AUTHOR = 'LEFT JOIN staff s ON s.id = a.staff_id AND s.school_id = a.school_id';
const NEWEST = 'ORDER BY a.created_at DESC, a.id DESC';

/** One undeleted activity of the caller's school; anything else (absent, deleted, another school's) is 404. */
async function findActivity(ctx: AppContext, principal: Principal, id: number, transaction?: Transaction): Promise<ActivityView> {
  const [row] = await ctx.db.sequelize.query<ActivityRow>(
    `SELECT ${ACTIVITY_COLUMNS} FROM activities a ${AUTHOR} WHERE a.id = :id AND a.school_id = :school AND a.deleted_status = 0`,
    { replacements: { id, school: principal.schoolId }, type: QueryTypes.SELECT, transaction },
  );
  if (!row) throw notFound('Activity');
  return (await staffActivityViews(ctx, principal, [row], transaction))[0]!;
}

/**
 * The audience a create or an update asks for: `audience`, or the older `student_id` (one student),
 * checked against the school and the caller's rights. Undefined when neither was sent.
 */
async function requestedAudience(principal: Principal, data: { audience?: z.output<typeof audienceInput>; student_id?: number | null }, transaction: Transaction) {
  if (data.audience === undefined && data.student_id === undefined) return undefined;
  const audience = normalizeAudience(data.audience !== undefined ? data.audience : data.student_id != null ? { student_ids: [data.student_id] } : null);
  await checkAudience(principal, audience, transaction);
  return audience;
}

/**
 * A schedule: `publish_at` goes with status `scheduled` (alone, it means scheduled) and must be in
 * the future; `scheduled` needs a time. Returns the status and time to store.
 */
function schedule(status: ActivityStatus | undefined, publishAt: string | undefined, current?: { status: string; publish_at: string | null }) {
  const next = status ?? (publishAt !== undefined ? 'scheduled' : current?.status);
  if (publishAt !== undefined && next !== 'scheduled') throw fieldError('publish_at', 'goes with status scheduled');
  if (publishAt !== undefined && new Date(publishAt).getTime() <= Date.now()) throw fieldError('publish_at', 'must be in the future');
  if (next === 'scheduled' && publishAt === undefined && !(current?.status === 'scheduled' && current.publish_at)) throw fieldError('publish_at', 'is required for a scheduled activity');
  return { status: next as ActivityStatus | undefined, publish_at: publishAt !== undefined ? new Date(publishAt) : undefined };
}

/** The `student_id` an audience of exactly one student keeps on the row, for the clients that read it. */
const soleStudent = (a: Audience | null) => (a && a.student_ids.length === 1 && !a.grades.length && !a.group_ids.length ? a.student_ids[0]! : null);

/**
 * Publishing: the first time an activity is published its families are told, each by its channel, and the
 * school's webhooks the event, through the outboxes in the same transaction. `published_at` is set by a conditional update, so a second publish
 * (an edit, a status moved back and forth, a concurrent request) pushes nothing.
 */
export async function publishActivity(ctx: AppContext, principal: Principal, id: number, transaction: Transaction): Promise<void> {
  const [, claimed] = (await ctx.db.sequelize.query(
    "UPDATE activities SET published_at = :now WHERE id = :id AND school_id = :school AND status = 'published' AND published_at IS NULL AND deleted_status = 0",
    { replacements: { id, school: principal.schoolId, now: sqlTime(ctx.db.dialect, new Date()) }, type: QueryTypes.UPDATE, transaction },
  )) as unknown as [unknown, number];
  if (!claimed) return;
  const activity = await findActivity(ctx, principal, id, transaction);
  await emitWebhookEvent(principal.schoolId, 'activity.published', eventData('activity', id, activity), transaction);
  await notifyAudience(ctx, { schoolId: principal.schoolId, entity: 'activity', id, scope: activity.audience ? 1 : 0 }, {
    event: 'activity_published', entity_type: 'activity', entity_id: id, title: activity.title,
    body: (activity.description ?? '').slice(0, 200) || `${activity.activity_type === 'event' ? 'An event' : 'An announcement'} from school`,
  }, transaction);
}

/** One's own activity needs `activities.create` (checked first), anyone else's `activities.manage`. */
function requireEditRights(principal: Principal, activity: ActivityView): void {
  if (!(principal.type === 'staff' && activity.staff_id === principal.userId)) requirePermission(principal, 'activities.manage');
}

/**
 * Needs `activities.create`; the audience's grades, groups and students must be the school's, and a
 * student named by staff assigned to them unless they hold `activities.manage`. Posted as published,
 * it pushes to its families in the same transaction.
 */
export async function createActivity(ctx: AppContext, principal: Principal, input: NewActivity): Promise<ActivityView> {
  requirePermission(principal, 'activities.create');
  const data = parseInput(newActivitySchema, input);
  const staffId = await authorOf(principal, data.staff_id, 'an activity is authored by a staff member');
  const planned = schedule(data.status, data.publish_at);
  const event = await eventColumns(principal.schoolId, data);
  return transactionWithRetry(ctx, async (transaction) => {
    const audience = (await requestedAudience(principal, data, transaction)) ?? null;
    const files = data.attachment_ids && (await planAttachments(ctx, principal, data.attachment_ids, null, transaction));
    const created = await Activity.create({
      ...event,
      school_id: principal.schoolId,
      title: data.title,
      description: data.description ?? null,
      activity_type: data.activity_type,
      status: planned.status ?? 'published',
      publish_at: planned.publish_at ?? null,
      staff_id: staffId,
      student_id: soleStudent(audience),
      audience_scope: audience ? 1 : 0,
      ...(files ? { attachment_ids: files.ids } : {}),
    }, { transaction });
    if (files) await applyAttachments(ctx, principal, files, { type: 'activity', id: created.id }, transaction);
    await saveAudience(principal.schoolId, 'activity', created.id, audience, transaction, { fresh: true });
    await saveItemForm(ctx, principal.schoolId, 'activity', created.id, data.form, transaction, { fresh: true });
    await publishActivity(ctx, principal, created.id, transaction);
    return findActivity(ctx, principal, created.id, transaction);
  });
}

/** An activity of the caller's school (activities.create), else 404: a change of another school's is refused before its body is judged. */
export async function assertActivityFound(principal: Principal, id: number): Promise<void> {
  requirePermission(principal, 'activities.create');
  await assertInSchool(principal, Activity, 'Activity', id, { deleted_status: 0 });
}

/**
 * Editing needs `activities.create` for one's own activity and `activities.manage` for anyone
 * else's. The author never changes (a `staff_id` sent by staff must still be the caller); `status`
 * may move to any of draft, published, cancelled.
 */
export async function updateActivity(ctx: AppContext, principal: Principal, id: number, changes: ActivityChanges): Promise<ActivityView> {
  requirePermission(principal, 'activities.create');
  const data = parseInput(activityChangesSchema, changes);
  if (data.staff_id !== undefined && principal.type === 'staff' && data.staff_id !== principal.userId) {
    throw forbidden('staff_id must be your own id');
  }
  const { staff_id: _author, audience: _audience, student_id: _student, publish_at: publishAt, form, starts_at: _s, ends_at: _e, all_day: _d, location: _l, attachment_ids: attachmentIds, ...rest } = data;
  if (Object.values(data).every((v) => v === undefined)) throw badRequest('Send at least one field to change');
  const current = await findActivity(ctx, principal, id);
  requireEditRights(principal, current);
  if (current.published_at && (publishAt !== undefined || data.status === 'scheduled')) throw conflict('A published activity cannot be scheduled again');
  const planned = data.status !== undefined || publishAt !== undefined ? schedule(data.status, publishAt, current) : { status: undefined, publish_at: undefined };
  const patch = { ...rest, ...(planned.status !== undefined ? { status: planned.status } : {}), ...(planned.publish_at ? { publish_at: planned.publish_at } : {}) };
  const stored = { ...current, starts_at: current.starts_at ? new Date(current.starts_at) : null, ends_at: current.ends_at ? new Date(current.ends_at) : null };
  const event = await eventColumns(principal.schoolId, data, stored);
  // Changes of items with no audience or form yet lock the same index gap on MySQL: a deadlock's loser runs again.
  return transactionWithRetry(ctx, async (transaction) => {
    const audience = await requestedAudience(principal, data, transaction);
    const files = attachmentIds && (await planAttachments(ctx, principal, attachmentIds, { type: 'activity', id }, transaction));
    const formId = await saveItemForm(ctx, principal.schoolId, 'activity', id, form, transaction);
    const fields = {
      ...patch, ...event, ...(audience !== undefined ? { student_id: soleStudent(audience), audience_scope: audience ? 1 : 0 } : {}), ...(formId !== undefined ? { form_id: formId } : {}),
      ...(files ? { attachment_ids: files.ids } : {}),
    };
    // Sequelize leaves out the fields that were not sent.
    const [affected] = await Activity.update(fields, { where: { id, school_id: principal.schoolId, deleted_status: 0 }, transaction });
    // Deleted between the read and the write.
    if (affected === 0) throw notFound('Activity');
    if (files) await applyAttachments(ctx, principal, files, { type: 'activity', id }, transaction);
    if (audience !== undefined) await saveAudience(principal.schoolId, 'activity', id, audience, transaction);
    if (patch.status === 'published') await publishActivity(ctx, principal, id, transaction);
    return findActivity(ctx, principal, id, transaction);
  });
}

/**
 * Soft delete (`deleted_status` = 1): hidden from every feed, kept in the database; its attachments
 * are deleted with it. Same permissions as editing.
 */
export async function deleteActivity(ctx: AppContext, principal: Principal, id: number): Promise<void> {
  requirePermission(principal, 'activities.create');
  requireEditRights(principal, await findActivity(ctx, principal, id));
  await ctx.db.sequelize.transaction(async (transaction) => {
    const [affected] = await Activity.update({ deleted_status: 1 }, { where: { id, school_id: principal.schoolId, deleted_status: 0 }, transaction });
    if (affected === 0) throw notFound('Activity');
    await deleteAttachmentsOfItems(ctx, principal.schoolId, 'activity', [id], transaction);
  });
}

/**
 * The teachers' list: the school's published and cancelled activities plus the caller's own drafts,
 * newest first. Unfiltered, it is one ordered scan of activities_school_created that skips other
 * people's drafts (few, so it reads little more than the page); filtered by status, an ordered scan
 * of activities_feed, or of activities_author for the caller's drafts.
 */
export async function listTeacherActivities(ctx: AppContext, principal: Principal, input: TeacherActivityQuery = {}): Promise<ActivityView[]> {
  requirePermission(principal, 'activities.view');
  const { page, limit, status, activity_type, grade, group_id } = parseInput(teacherActivityQuerySchema, input);
  const me = principal.type === 'staff' ? principal.userId : 0;
  const params: Record<string, unknown> = { school: principal.schoolId, me, limit, offset: offsetOf({ page, limit }) };
  const clauses = ['a.school_id = :school', 'a.deleted_status = 0'];
  if (status === 'draft' || status === 'scheduled') {
    clauses.push('a.staff_id = :me', 'a.status = :status');
    params.status = status;
  } else if (status) {
    clauses.push('a.status = :status');
    params.status = status;
  } else clauses.push("(a.status NOT IN ('draft', 'scheduled') OR a.staff_id = :me)");
  if (activity_type) {
    clauses.push('a.activity_type = :type');
    params.type = activity_type;
  }
  clauses.push(...audienceFilterClauses('a', 'activity', { grade, group_id }, params));
  const rows = await ctx.db.select<ActivityRow>(
    `SELECT ${ACTIVITY_COLUMNS} FROM activities a ${AUTHOR} WHERE ${clauses.join(' AND ')} ${NEWEST} LIMIT :limit OFFSET :offset`,
    params,
  );
  return staffActivityViews(ctx, principal, rows);
}

/**
 * The parent's feed: published activities of the school that are school-wide or target one of the
 * parent's children, newest first. One backward walk of activities_feed (school_id, status,
 * deleted_status, created_at, id) that stops at the page's last row: most activities are school-wide,
 * so it reads little more than the page, with no sort and no temporary table. A school that mostly
 * targets single students makes the walk longer, never wider than that school's published rows.
 * MariaDB prefers the (student_id) indexes for the OR and then sorts the school's whole feed, so the
 * index is named; SQLite's planner picks it unasked.
 */
export async function parentFeed(ctx: AppContext, principal: Principal, input: ParentFeedQuery = {}): Promise<ActivityView[]> {
  if (principal.type !== 'parent') throw forbidden('The activity feed is for parents');
  const { page, limit, ...query } = parseInput(parentFeedQuerySchema, input);
  const params: Record<string, unknown> = { school: principal.schoolId, parent: principal.userId, limit, offset: offsetOf({ page, limit }) };
  if (query.student_id !== undefined) {
    await assertChildOf(ctx, principal, query.student_id);
    params.student = query.student_id;
  }
  if (query.activity_type !== undefined) params.type = query.activity_type;
  const rows = await ctx.db.select<ActivityRow & { audience_list: unknown }>(
    feedStatement(ctx.db.dialect === 'mysql', query.student_id !== undefined, query.activity_type !== undefined), params, { dateObjects: true },
  );
  return parentActivityViews(ctx, principal, rows);
}

/**
 * Activities as the parent `:parent` is shown them: each with their first read of it (the
 * item_reads_uq key) and its audience, for the caller's WHERE (which must keep to `:school`).
 */
export function parentActivitiesSelect(mysql: boolean, from = 'activities a'): string {
  return `SELECT ${ACTIVITY_COLUMNS}, r.read_at, ${audienceColumn('a', 'activity', mysql)} FROM ${from} ${AUTHOR}
      LEFT JOIN item_reads r ON r.school_id = a.school_id AND r.entity_type = 'activity' AND r.entity_id = a.id AND r.parent_id = :parent`;
}

/**
 * The parent feed's statement (also the benchmark ceilings'): the page of published activities the
 * parent may see. On MySQL the walk (`i`) and the test of who may see an item are made on
 * activities_feed's entries alone, which hold `audience_scope`, and only the items kept are read
 * from the table (`a`); without the split every entry walked was, a page reading 271 buffer-pool
 * pages at 1,000 schools instead of 197 (bench/README.md).
 */
export function parentFeedSql(mysql: boolean, options: { oneChild: boolean; type: string }): string {
  const walk = mysql ? 'i' : 'a';
  const from = mysql ? 'activities i FORCE INDEX (activities_feed) STRAIGHT_JOIN activities a ON a.id = i.id' : 'activities a';
  return `${parentActivitiesSelect(mysql, from)}
      WHERE ${walk}.school_id = :school AND ${walk}.status = 'published' AND ${walk}.deleted_status = 0 AND ${audienceVisible(walk, 'activity', options.oneChild, mysql)} ${options.type}
      ORDER BY ${walk}.created_at DESC, ${walk}.id DESC LIMIT :limit OFFSET :offset`;
}

// The feed's eight statements, each built once: a text built per request is a fresh string of 1.5 kB
// that the prepared statements' cache then hashes in full.
const feedStatements = new Map<number, string>();
function feedStatement(mysql: boolean, oneChild: boolean, byType: boolean): string {
  const key = (mysql ? 4 : 0) + (oneChild ? 2 : 0) + (byType ? 1 : 0);
  let sql = feedStatements.get(key);
  if (sql === undefined) {
    sql = parentFeedSql(mysql, { oneChild, type: byType ? 'AND a.activity_type = :type' : '' });
    feedStatements.set(key, sql);
  }
  return sql;
}

/** One activity of the parent's feed (a push opens it): anything the feed would not show them is 404. */
export async function parentActivity(ctx: AppContext, principal: Principal, id: number): Promise<ActivityView & { read_at: string | null }> {
  if (principal.type !== 'parent') throw forbidden('The activity feed is for parents');
  const mysql = ctx.db.dialect === 'mysql';
  const [row] = await ctx.db.select<ActivityRow & { audience_list: unknown }>(
    `${parentActivitiesSelect(mysql)}
      WHERE a.school_id = :school AND a.id = :id AND a.status = 'published' AND a.deleted_status = 0 AND ${audienceVisible('a', 'activity', false, mysql)}`,
    { school: principal.schoolId, parent: principal.userId, id },
  );
  if (!row) throw notFound('Activity');
  return (await parentActivityViews(ctx, principal, [row]))[0] as ActivityView & { read_at: string | null };
}

/** The web admins' list: every undeleted activity of the school (drafts included), newest first, with the total. */
export async function listWebActivities(ctx: AppContext, principal: Principal, input: WebActivityQuery = {}) {
  requireSchoolAdmin(principal);
  const query = parseInput(webActivityQuerySchema, input);
  const params: Record<string, unknown> = { school: principal.schoolId, limit: query.limit, offset: offsetOf(query) };
  const where = ['a.school_id = :school', 'a.deleted_status = 0', ...audienceFilterClauses('a', 'activity', query, params)].join(' AND ');
  const [rows, [count]] = await Promise.all([
    ctx.db.select<ActivityRow>(`SELECT ${ACTIVITY_COLUMNS} FROM activities a ${AUTHOR} WHERE ${where} ${NEWEST} LIMIT :limit OFFSET :offset`, params),
    ctx.db.select<{ total: number }>(`SELECT COUNT(*) AS total FROM activities a WHERE ${where}`, params),
  ]);
  return { records: await staffActivityViews(ctx, principal, rows), pagination: paginationOf(Number(count?.total ?? 0), query) };
}
