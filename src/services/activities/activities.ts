import { z } from 'zod';
import { pageQuery } from '../../api/schemas.js';
import type { AppContext, Principal } from '../../context.js';
import { iso } from '../../db.js';
import { badRequest, fieldError, forbidden, notFound } from '../../errors.js';
import { Activity, Staff, Student } from '../../models/index.js';
import { activityStatuses, activityTypes } from '../../models/activity.js';
import { requirePermission, requireSchoolAdmin } from '../access/guards.js';
import { assertAssigned, assertChildOf } from '../access/scope.js';
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
  /** Null: school-wide; a value targets one student. */
  student_id: recordId().nullable(),
};

export const newActivitySchema = z.object({
  title: activityFields.title,
  description: activityFields.description.optional(),
  activity_type: activityFields.activity_type.default('announcement'),
  // Posting publishes unless the author keeps a draft.
  status: activityFields.status.default('published'),
  staff_id: activityFields.staff_id.optional(),
  student_id: activityFields.student_id.optional(),
});
export type NewActivity = z.input<typeof newActivitySchema>;

export const activityChangesSchema = z.object({
  title: activityFields.title.optional(),
  description: activityFields.description.optional(),
  activity_type: activityFields.activity_type.optional(),
  status: activityFields.status.optional(),
  staff_id: activityFields.staff_id.optional(),
  student_id: activityFields.student_id.optional(),
});
export type ActivityChanges = z.input<typeof activityChangesSchema>;

export const teacherActivityQuerySchema = z.object({
  activity_type: activityFields.activity_type.optional(),
  status: activityFields.status.optional(),
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

export const webActivityQuerySchema = z.object(pageQuery(10));
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
  created_at: string;
  updated_at: string;
}

interface ActivityRow {
  id: number;
  school_id: string;
  title: string;
  description: string | null;
  activity_type: string;
  status: string;
  staff_id: number;
  author_name: string | null;
  student_id: number | null;
  created_at: unknown;
  updated_at: unknown;
}

const view = (r: ActivityRow): ActivityView => ({
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
  created_at: iso(r.created_at)!,
  updated_at: iso(r.updated_at)!,
});

const COLUMNS = `a.id, a.school_id, a.title, a.description, a.activity_type, a.status, a.staff_id, s.name AS author_name,
  a.student_id, a.created_at, a.updated_at`;
const AUTHOR = 'LEFT JOIN staff s ON s.id = a.staff_id AND s.school_id = a.school_id';
const NEWEST = 'ORDER BY a.created_at DESC, a.id DESC';

/** One undeleted activity of the caller's school; anything else (absent, deleted, another school's) is 404. */
async function findActivity(ctx: AppContext, principal: Principal, id: number): Promise<ActivityView> {
  const rows = await ctx.db.select<ActivityRow>(
    `SELECT ${COLUMNS} FROM activities a ${AUTHOR} WHERE a.id = :id AND a.school_id = :school AND a.deleted_status = 0`,
    { id, school: principal.schoolId },
  );
  if (rows.length === 0) throw notFound('Activity');
  return view(rows[0]!);
}

/**
 * The student an activity targets: for staff one assigned to them (403), for an admin any student of
 * the school (404 otherwise, never confirming another school's).
 */
async function assertTargetable(principal: Principal, studentId: number): Promise<void> {
  if (principal.type === 'staff') return assertAssigned(principal, [studentId]);
  const student = await Student.findOne({ where: { id: studentId, school_id: principal.schoolId }, attributes: ['id'], raw: true });
  if (!student) throw notFound('Student');
}

/** Staff author their own activities; an admin (console, command line) names the staff member. */
async function authorOf(principal: Principal, staffId: number | undefined): Promise<number> {
  if (principal.type === 'staff') {
    if (staffId !== undefined && staffId !== principal.userId) throw forbidden('staff_id must be your own id');
    return principal.userId;
  }
  if (staffId === undefined) throw fieldError('staff_id', 'is required: an activity is authored by a staff member');
  const staff = await Staff.findOne({ where: { id: staffId, school_id: principal.schoolId }, attributes: ['id'], raw: true });
  if (!staff) throw notFound('Staff member');
  return staffId;
}

/** One's own activity needs `activities.create` (checked first), anyone else's `activities.manage`. */
function requireEditRights(principal: Principal, activity: ActivityView): void {
  if (!(principal.type === 'staff' && activity.staff_id === principal.userId)) requirePermission(principal, 'activities.manage');
}

/** Needs `activities.create`; a target student must be assigned to the calling staff member. */
export async function createActivity(ctx: AppContext, principal: Principal, input: NewActivity): Promise<ActivityView> {
  requirePermission(principal, 'activities.create');
  const data = parseInput(newActivitySchema, input);
  const staffId = await authorOf(principal, data.staff_id);
  if (data.student_id != null) await assertTargetable(principal, data.student_id);
  const created = await Activity.create({
    school_id: principal.schoolId,
    title: data.title,
    description: data.description ?? null,
    activity_type: data.activity_type,
    status: data.status,
    staff_id: staffId,
    student_id: data.student_id ?? null,
  });
  return findActivity(ctx, principal, created.id);
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
  const { staff_id: _author, ...patch } = data;
  if (Object.values(patch).every((v) => v === undefined)) throw badRequest('Send at least one field to change');
  const current = await findActivity(ctx, principal, id);
  requireEditRights(principal, current);
  if (patch.student_id != null && patch.student_id !== current.student_id) await assertTargetable(principal, patch.student_id);
  // Sequelize leaves out the fields that were not sent.
  const [affected] = await Activity.update(patch, { where: { id, school_id: principal.schoolId, deleted_status: 0 } });
  // Deleted between the read and the write.
  if (affected === 0) throw notFound('Activity');
  return findActivity(ctx, principal, id);
}

/** Soft delete (`deleted_status` = 1): hidden from every feed, kept in the database. Same permissions as editing. */
export async function deleteActivity(ctx: AppContext, principal: Principal, id: number): Promise<void> {
  requirePermission(principal, 'activities.create');
  requireEditRights(principal, await findActivity(ctx, principal, id));
  const [affected] = await Activity.update({ deleted_status: 1 }, { where: { id, school_id: principal.schoolId, deleted_status: 0 } });
  if (affected === 0) throw notFound('Activity');
}

/**
 * The teachers' list: the school's published and cancelled activities plus the caller's own drafts,
 * newest first. Unfiltered, it is one ordered scan of activities_school_created that skips other
 * people's drafts (few, so it reads little more than the page); filtered by status, an ordered scan
 * of activities_feed, or of activities_author for the caller's drafts.
 */
export async function listTeacherActivities(ctx: AppContext, principal: Principal, input: TeacherActivityQuery = {}): Promise<ActivityView[]> {
  requirePermission(principal, 'activities.view');
  const { page, limit, status, activity_type } = parseInput(teacherActivityQuerySchema, input);
  const me = principal.type === 'staff' ? principal.userId : 0;
  const params: Record<string, unknown> = { school: principal.schoolId, me, limit, offset: offsetOf({ page, limit }) };
  const clauses = ['a.school_id = :school', 'a.deleted_status = 0'];
  if (status === 'draft') clauses.push('a.staff_id = :me', "a.status = 'draft'");
  else if (status) {
    clauses.push('a.status = :status');
    params.status = status;
  } else clauses.push("(a.status <> 'draft' OR a.staff_id = :me)");
  if (activity_type) {
    clauses.push('a.activity_type = :type');
    params.type = activity_type;
  }
  const rows = await ctx.db.select<ActivityRow>(
    `SELECT ${COLUMNS} FROM activities a ${AUTHOR} WHERE ${clauses.join(' AND ')} ${NEWEST} LIMIT :limit OFFSET :offset`,
    params,
  );
  return rows.map(view);
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
  let target = 'a.student_id IN (SELECT c.id FROM students c WHERE c.school_id = :school AND c.parent_id = :parent)';
  if (query.student_id !== undefined) {
    await assertChildOf(ctx, principal, query.student_id);
    target = 'a.student_id = :student';
    params.student = query.student_id;
  }
  let type = '';
  if (query.activity_type) {
    type = 'AND a.activity_type = :type';
    params.type = query.activity_type;
  }
  const hint = ctx.db.dialect === 'mysql' ? 'FORCE INDEX (activities_feed)' : '';
  const rows = await ctx.db.select<ActivityRow>(
    `SELECT ${COLUMNS} FROM activities a ${hint} ${AUTHOR}
      WHERE a.school_id = :school AND a.status = 'published' AND a.deleted_status = 0 AND (a.student_id IS NULL OR ${target}) ${type}
      ${NEWEST} LIMIT :limit OFFSET :offset`,
    params,
  );
  return rows.map(view);
}

/** The web admins' list: every undeleted activity of the school (drafts included), newest first, with the total. */
export async function listWebActivities(ctx: AppContext, principal: Principal, input: WebActivityQuery = {}) {
  requireSchoolAdmin(principal);
  const query = parseInput(webActivityQuerySchema, input);
  const params = { school: principal.schoolId, limit: query.limit, offset: offsetOf(query) };
  const [rows, [count]] = await Promise.all([
    ctx.db.select<ActivityRow>(
      `SELECT ${COLUMNS} FROM activities a ${AUTHOR} WHERE a.school_id = :school AND a.deleted_status = 0 ${NEWEST} LIMIT :limit OFFSET :offset`,
      params,
    ),
    ctx.db.select<{ total: number }>('SELECT COUNT(*) AS total FROM activities WHERE school_id = :school AND deleted_status = 0', params),
  ]);
  return { records: rows.map(view), pagination: paginationOf(Number(count?.total ?? 0), query) };
}
