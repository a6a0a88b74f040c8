import { Op, QueryTypes, literal, type Transaction } from 'sequelize';
import { z } from 'zod';
import { date, id, pageQuery, title } from '../schemas.js';
import type { AppContext, Principal } from '../../context.js';
import { day, iso, sqlTime, txOf, type Tx } from '../../db.js';
import { chunks } from '../batches.js';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { AdminUser, Parent, Staff, WriteToReply, WriteToRequest } from '../../models/index.js';
import { writeToStatuses, writeToTypes, type WriteToStatus } from '../../models/write-to-request.js';
import { replyAuthors, type ReplyAuthor } from '../../models/write-to-reply.js';
import { enqueue } from '../../push/outbox.js';
import { deviceItems } from '../../push/targets.js';
import { assertInSchool } from '../access/found.js';
import { hasPermission, requireSchoolAdmin } from '../access/guards.js';
import { assertChildOf, childIds, isAssigned } from '../access/scope.js';
import { attachmentsOf, withAttachments, type AttachmentView } from '../attachments/attachments.js';
import { applyAttachments, attachmentIdsInput, planAttachments, type AttachmentPlan } from '../attachments/attaching.js';
import { excuseLeave } from '../attendance/attendance.js';
import { emitWebhookEvent, eventData } from '../webhooks/events.js';
import { notifyFamilies } from '../delivery/channel-choice.js';
import { offsetOf, paginationOf } from '../pagination.js';
import { parseInput } from '../validation.js';
import { diff, recordAudit } from '../audit/audit.js';

export { writeToStatuses, writeToTypes };
export { replyAuthors };
export type WriteToType = (typeof writeToTypes)[number];

const message = () => z.string().trim().min(1).max(10_000);

/** A leave covers one school year at most: resolving it writes an attendance mark for each of its days. */
export const MAX_LEAVE_DAYS = 366;

export const newWriteToInput = z
  .object({
    student_id: id().nullable().optional().describe('One of the parent\'s children; for a leave request it may be left out when the parent has one child'),
    type: z.enum(writeToTypes),
    subject: title().optional().describe('Defaults to the type, e.g. "Leave request"'),
    message: message(),
    leave_from: date().optional().describe('Required for type leave'),
    leave_to: date().optional().describe(`Required for type leave; not before leave_from, and at most ${MAX_LEAVE_DAYS} days from it`),
    attachment_ids: attachmentIdsInput.optional(),
  })
  .superRefine((v, issue) => {
    if (v.type !== 'leave') return;
    if (!v.leave_from) issue.addIssue({ code: 'custom', path: ['leave_from'], message: 'is required for a leave request' });
    if (!v.leave_to) issue.addIssue({ code: 'custom', path: ['leave_to'], message: 'is required for a leave request' });
    if (v.leave_from && v.leave_to && v.leave_from > v.leave_to) {
      issue.addIssue({ code: 'custom', path: ['leave_to'], message: 'must not be before leave_from' });
    } else if (v.leave_from && v.leave_to && Date.parse(v.leave_to) - Date.parse(v.leave_from) >= MAX_LEAVE_DAYS * 86_400_000) {
      issue.addIssue({ code: 'custom', path: ['leave_to'], message: `must be within ${MAX_LEAVE_DAYS} days of leave_from` });
    }
  })
  .meta({ if: { properties: { type: { const: 'leave' } } }, then: { required: ['leave_from', 'leave_to'] } });
export type NewWriteTo = z.input<typeof newWriteToInput>;

export const replyInput = z.object({ message: message(), attachment_ids: attachmentIdsInput.optional() });
export type ReplyInput = z.input<typeof replyInput>;

export const writeToChangesInput = z.object({
  status: z.enum(['resolved']).optional().describe('"resolved" needs write_to.manage or being the assigned staff'),
  assigned_staff_id: id().nullable().optional().describe('A staff member of the school, or null to unassign; needs write_to.manage'),
});
export type WriteToChanges = z.input<typeof writeToChangesInput>;

export const writeToListQuery = z.object({
  status: z.enum(writeToStatuses).optional().describe('Without it every thread but the archived ones'),
  type: z.enum(writeToTypes).optional(),
  ...pageQuery(20),
});
export type WriteToFilter = z.input<typeof writeToListQuery>;

export interface WriteToView {
  id: number;
  school_id: string;
  parent_id: number;
  student_id: number | null;
  type: WriteToType;
  subject: string;
  message: string;
  status: WriteToStatus;
  assigned_staff_id: number | null;
  leave_from: string | null;
  leave_to: string | null;
  created_at: string;
  updated_at: string;
  resolved_at: string | null;
  replies_count: number;
  attachments: AttachmentView[];
}

export interface QueueItemView extends WriteToView {
  student_name: string | null;
  parent_name: string | null;
}

export interface ReplyView {
  id: number;
  write_to_id: number;
  author_type: ReplyAuthor;
  author_id: number;
  author_name: string | null;
  message: string;
  created_at: string;
  attachments: AttachmentView[];
}

export interface ThreadView extends WriteToView {
  replies: ReplyView[];
}

const subjects: Record<WriteToType, string> = {
  leave: 'Leave request', complaint: 'Complaint', query: 'Query', feedback: 'Feedback', other: 'Message',
};

const COLUMNS = `w.id, w.school_id, w.parent_id, w.student_id, w.type, w.subject, w.message, w.status, w.assigned_staff_id,
  w.leave_from, w.leave_to, w.created_at, w.updated_at, w.resolved_at, w.replies_count, w.attachment_ids`;

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function view(r: Record<string, unknown>): Omit<WriteToView, 'attachments'> {
  return {
    id: Number(r.id),
    school_id: String(r.school_id),
    parent_id: Number(r.parent_id),
    student_id: num(r.student_id),
    type: r.type as WriteToType,
    subject: String(r.subject),
    message: String(r.message),
    status: r.status as WriteToStatus,
    assigned_staff_id: num(r.assigned_staff_id),
    leave_from: day(r.leave_from),
    leave_to: day(r.leave_to),
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
    resolved_at: iso(r.resolved_at),
    replies_count: Number(r.replies_count),
  };
}

const replyView = (r: Record<string, unknown>): Omit<ReplyView, 'attachments'> => ({
  id: Number(r.id),
  write_to_id: Number(r.write_to_id),
  author_type: r.author_type as ReplyView['author_type'],
  author_id: Number(r.author_id),
  author_name: (r.author_name as string | null) ?? null,
  message: String(r.message),
  created_at: iso(r.created_at)!,
});

/** A bound read inside the caller's transaction (ctx.db.select runs outside any). */
function select(ctx: AppContext, sql: string, replacements: Record<string, unknown>, transaction?: Transaction) {
  return ctx.db.sequelize.query<Record<string, unknown>>(sql, { replacements, type: QueryTypes.SELECT, transaction });
}

function requireParent(principal: Principal): void {
  if (principal.type !== 'parent') throw forbidden('This is for parents');
}

/** The school's side of a thread: staff (their rbac decides the rest), and the admins who work the whole queue (super_admin, admin). */
function requireSchool(principal: Principal): void {
  if (principal.type === 'admin') requireSchoolAdmin(principal);
  else if (principal.type !== 'staff') throw forbidden('This is for the school');
}

async function findThreadRow(ctx: AppContext, schoolId: string, threadId: number, transaction?: Transaction, parentId?: number): Promise<Record<string, unknown>> {
  const [row] = await select(
    ctx,
    `SELECT ${COLUMNS} FROM write_to_requests w WHERE w.id = :id AND w.school_id = :school${parentId === undefined ? '' : ' AND w.parent_id = :parent'}`,
    { id: threadId, school: schoolId, parent: parentId },
    transaction,
  );
  if (!row) throw notFound('Write-to request');
  return row;
}

/** The rows as views with their attachments, read in one query for the page. */
const views = (ctx: AppContext, schoolId: string, rows: Array<Record<string, unknown>>, transaction?: Transaction) =>
  withAttachments(ctx, schoolId, rows.map((r) => ({ view: view(r), attachment_ids: r.attachment_ids })), transaction);

async function findThread(ctx: AppContext, schoolId: string, threadId: number, transaction?: Transaction, parentId?: number): Promise<WriteToView> {
  const [thread] = await views(ctx, schoolId, [await findThreadRow(ctx, schoolId, threadId, transaction, parentId)], transaction);
  return thread!;
}

/** A request with its replies, oldest first: the attachments of all of them read in one query. */
async function threadOf(ctx: AppContext, schoolId: string, thread: Record<string, unknown>): Promise<ThreadView> {
  const replies = await ctx.db.select(
    `SELECT id, write_to_id, author_type, author_id, author_name, message, created_at, attachment_ids FROM write_to_replies
      WHERE school_id = :school AND write_to_id = :id ORDER BY id ASC`,
    { school: schoolId, id: Number(thread.id) },
  );
  const [files, ...replyFiles] = await attachmentsOf(ctx, schoolId, [thread.attachment_ids, ...replies.map((r) => r.attachment_ids)]);
  return { ...view(thread), attachments: files!, replies: replies.map((r, i) => ({ ...replyView(r), attachments: replyFiles[i]! })) };
}

/**
 * Who hears of a leave request: the class teacher of the student's grade when that grade has an
 * active one, else every active staff member the student is assigned to.
 */
async function leaveRecipients(ctx: AppContext, schoolId: string, studentId: number, transaction: Transaction): Promise<number[]> {
  const classTeacher = await select(
    ctx,
    `SELECT g.class_teacher_id AS staff_id FROM students s
       JOIN grades g ON g.school_id = s.school_id AND g.name = s.grade
       JOIN staff t ON t.id = g.class_teacher_id AND t.school_id = s.school_id AND t.status = 1
      WHERE s.school_id = :school AND s.id = :student`,
    { school: schoolId, student: studentId },
    transaction,
  );
  const rows = classTeacher.length > 0 ? classTeacher : await select(
    ctx,
    `SELECT ss.staff_id FROM staff_students ss
       JOIN staff t ON t.id = ss.staff_id AND t.school_id = ss.school_id AND t.status = 1
      WHERE ss.school_id = :school AND ss.student_id = :student`,
    { school: schoolId, student: studentId },
    transaction,
  );
  return rows.map((r) => Number(r.staff_id));
}

/** The student a request is about: one of the parent's children (403 otherwise); a leave needs one. */
async function requestStudent(ctx: AppContext, principal: Principal, input: { student_id?: number | null; type: WriteToType }): Promise<number | null> {
  if (input.student_id != null) {
    await assertChildOf(ctx, principal, input.student_id);
    return input.student_id;
  }
  if (input.type !== 'leave') return null;
  const children = await childIds(ctx, principal.schoolId, principal.userId, { includeArchived: false });
  if (children.length !== 1) throw badRequest('student_id is required for a leave request', [{ field: 'student_id', message: 'is required for a leave request' }]);
  return children[0]!;
}

const INSERT_THREAD = `INSERT INTO write_to_requests
    (school_id, parent_id, student_id, type, subject, message, status, leave_from, leave_to, replies_count, attachment_ids, created_at, updated_at)
  VALUES (:school_id, :parent_id, :student_id, :type, :subject, :message, 'open', :leave_from, :leave_to, 0, :attachment_ids, :now, :now)`;

/** A request as its webhook events carry it: as the API shows it. */
const writeToEventData = (v: WriteToView) => eventData('write_to', v.id, v);

/**
 * A parent's new request. Most are one bound INSERT with its audit event. A leave request notifies
 * its student's class teacher. Either way the school's webhooks for `write_to.created` get the
 * event in the same transaction: the request and its outbox rows commit together, so nothing is
 * lost nor sent for a request that failed.
 */
export async function createWriteTo(ctx: AppContext, principal: Principal, input: NewWriteTo): Promise<WriteToView> {
  requireParent(principal);
  const data = parseInput(newWriteToInput, input);
  const studentId = await requestStudent(ctx, principal, data);
  const isLeave = data.type === 'leave';
  const fields = {
    school_id: principal.schoolId, parent_id: principal.userId, student_id: studentId, type: data.type,
    subject: data.subject ?? subjects[data.type], message: data.message,
    leave_from: isLeave ? data.leave_from! : null, leave_to: isLeave ? data.leave_to! : null,
  };
  if (!(isLeave && studentId !== null)) {
    const now = new Date();
    const record = async (tx: Tx, files: AttachmentPlan | null, transaction?: Transaction) => {
      const attachmentIds = files ? files.ids : null;
      const id = await tx.write(INSERT_THREAD, { ...fields, attachment_ids: attachmentIds && JSON.stringify(attachmentIds), now: sqlTime(ctx.db.dialect, now) });
      if (files) await applyAttachments(ctx, principal, files, { type: 'write_to', id }, transaction!);
      await recordAudit([{ schoolId: principal.schoolId, action: 'write_to.create', entityType: 'write_to', entityId: id, changes: diff(null, { ...fields, attachment_ids: attachmentIds }) }], tx);
      const [created] = await views(ctx, principal.schoolId, [
        { ...fields, id, status: 'open', assigned_staff_id: null, resolved_at: null, replies_count: 0, created_at: now, updated_at: now, attachment_ids: attachmentIds },
      ], transaction);
      await emitWebhookEvent(principal.schoolId, 'write_to.created', writeToEventData(created!), tx);
      return created!;
    };
    // Without files, bound statements in one transaction; with them, Sequelize's, in which the attachments are taken.
    if (data.attachment_ids === undefined) return ctx.db.transact((tx) => record(tx, null));
    const attachmentIds = data.attachment_ids;
    return ctx.db.sequelize.transaction(async (transaction) =>
      record(txOf(ctx.db, transaction), await planAttachments(ctx, principal, attachmentIds, null, transaction), transaction));
  }
  return ctx.db.sequelize.transaction(async (transaction) => {
    const files = data.attachment_ids && (await planAttachments(ctx, principal, data.attachment_ids, null, transaction));
    const row = await WriteToRequest.create({ ...fields, ...(files ? { attachment_ids: files.ids } : {}) }, { transaction });
    if (files) await applyAttachments(ctx, principal, files, { type: 'write_to', id: row.id }, transaction);
    const [student] = await select(ctx, 'SELECT student_full_name FROM students WHERE id = :id AND school_id = :school', { id: studentId, school: principal.schoolId }, transaction);
    const items = await deviceItems(
      { schoolId: principal.schoolId, userType: 'staff', userIds: await leaveRecipients(ctx, principal.schoolId, studentId, transaction) },
      {
        event: 'write_to_leave', entity_type: 'write_to', entity_id: row.id,
        title: `Leave request: ${(student?.student_full_name as string | undefined) ?? 'a student'}`,
        body: `${data.leave_from} to ${data.leave_to}: ${row.subject}`,
      },
      transaction,
    );
    await enqueue(items, transaction);
    const [created] = await views(ctx, principal.schoolId, [row.get({ plain: true }) as unknown as Record<string, unknown>], transaction);
    await emitWebhookEvent(principal.schoolId, 'write_to.created', writeToEventData(created!), transaction);
    return created!;
  });
}

function listWhere(filter: { status?: WriteToStatus; type?: WriteToType }) {
  return [
    filter.status ? 'w.status = :status' : "w.status <> 'archived'",
    ...(filter.type ? ['w.type = :type'] : []),
  ].join(' AND ');
}

/** The parent's own requests, newest first; archived ones only when asked for with status=archived. */
export async function listParentWriteTo(ctx: AppContext, principal: Principal, filter: WriteToFilter) {
  requireParent(principal);
  const f = parseInput(writeToListQuery, filter);
  const where = `w.school_id = :school AND w.parent_id = :parent AND ${listWhere(f)}`;
  const params = { school: principal.schoolId, parent: principal.userId, status: f.status, type: f.type, limit: f.limit, offset: offsetOf(f) };
  const [rows, [count]] = await Promise.all([
    ctx.db.select(`SELECT ${COLUMNS} FROM write_to_requests w WHERE ${where} ORDER BY w.created_at DESC, w.id DESC LIMIT :limit OFFSET :offset`, params),
    ctx.db.select<{ n: number }>(`SELECT COUNT(*) AS n FROM write_to_requests w WHERE ${where}`, params),
  ]);
  return { requests: await views(ctx, principal.schoolId, rows), pagination: paginationOf(Number(count?.n ?? 0), f) };
}

/** One of the parent's requests with its replies, oldest first; anyone else's answers 404. */
export async function getParentWriteTo(ctx: AppContext, principal: Principal, threadId: number): Promise<ThreadView> {
  requireParent(principal);
  return threadOf(ctx, principal.schoolId, await findThreadRow(ctx, principal.schoolId, threadId, undefined, principal.userId));
}

async function addReply(
  ctx: AppContext,
  principal: Principal,
  threadId: number,
  authorName: string | null,
  text: string,
  files: AttachmentPlan | undefined,
  transaction: Transaction,
): Promise<ReplyView> {
  const reply = await WriteToReply.create(
    {
      school_id: principal.schoolId, write_to_id: threadId, author_type: principal.type,
      author_id: principal.userId, author_name: authorName, message: text, ...(files ? { attachment_ids: files.ids } : {}),
    },
    { transaction },
  );
  if (files) await applyAttachments(ctx, principal, files, { type: 'write_to_reply', id: reply.id }, transaction);
  const [attachments] = await attachmentsOf(ctx, principal.schoolId, [reply.attachment_ids], transaction);
  return { ...replyView(reply.get({ plain: true }) as unknown as Record<string, unknown>), attachments: attachments! };
}

/** One of the parent's own threads, else 404: a reply to anyone else's is refused before its body is judged. */
export async function assertOwnThreadFound(principal: Principal, threadId: number): Promise<void> {
  requireParent(principal);
  await assertInSchool(principal, WriteToRequest, 'Write-to request', threadId, { parent_id: principal.userId });
}

/**
 * A parent's reply. One conditional UPDATE counts it and reopens a resolved thread (resolved_at is
 * assigned before status: MySQL evaluates the assignments in order), and refuses an archived one.
 */
export async function parentReply(ctx: AppContext, principal: Principal, threadId: number, input: ReplyInput): Promise<ReplyView> {
  requireParent(principal);
  const { message: text, attachment_ids: attachmentIds } = parseInput(replyInput, input);
  return ctx.db.sequelize.transaction(async (transaction) => {
    const files = attachmentIds && (await planAttachments(ctx, principal, attachmentIds, null, transaction));
    const [changed] = await WriteToRequest.update(
      {
        resolved_at: literal("CASE WHEN status = 'resolved' THEN NULL ELSE resolved_at END"),
        status: literal("CASE WHEN status = 'resolved' THEN 'open' ELSE status END"),
        replies_count: literal('replies_count + 1'),
      },
      { where: { id: threadId, school_id: principal.schoolId, parent_id: principal.userId, status: { [Op.ne]: 'archived' } }, transaction },
    );
    if (changed === 0) {
      await findThread(ctx, principal.schoolId, threadId, transaction, principal.userId);
      throw conflict('This request is archived and takes no more replies');
    }
    const parent = await Parent.findOne({ where: { id: principal.userId, school_id: principal.schoolId }, attributes: ['father_name', 'mother_name'], raw: true, transaction });
    return addReply(ctx, principal, threadId, parent?.father_name ?? parent?.mother_name ?? null, text, files, transaction);
  });
}

/** A thread of the caller's school, for the school's side, else 404: an update of anyone else's is refused before its body is judged. */
export async function assertThreadFound(ctx: AppContext, principal: Principal, threadId: number): Promise<void> {
  requireSchool(principal);
  await findThread(ctx, principal.schoolId, threadId);
}

/** Staff see threads of students assigned to them and threads assigned to them; write_to.manage sees the school's. */
async function canSee(principal: Principal, thread: Pick<WriteToView, 'assigned_staff_id' | 'student_id'>, transaction?: Transaction): Promise<boolean> {
  if (hasPermission(principal, 'write_to.manage')) return true;
  if (principal.type !== 'staff') return false;
  if (thread.assigned_staff_id === principal.userId) return true;
  return thread.student_id !== null && isAssigned(principal.schoolId, principal.userId, thread.student_id, transaction);
}

async function visibleThreadRow(ctx: AppContext, principal: Principal, threadId: number, transaction?: Transaction): Promise<Record<string, unknown>> {
  requireSchool(principal);
  const row = await findThreadRow(ctx, principal.schoolId, threadId, transaction);
  // A thread the caller may not see is as absent as one that is not there: its id tells nothing.
  if (!(await canSee(principal, view(row), transaction))) throw notFound('Write-to request');
  return row;
}

/**
 * The school's queue, newest first: the threads the caller can see (see canSee; the admins and
 * write_to.manage see them all), with the student's and the parent's names; archived ones only
 * with status=archived.
 */
export async function listStaffQueue(ctx: AppContext, principal: Principal, filter: WriteToFilter) {
  requireSchool(principal);
  const f = parseInput(writeToListQuery, filter);
  const scoped = hasPermission(principal, 'write_to.manage')
    ? ''
    : ` AND (w.assigned_staff_id = :me
             OR w.student_id IN (SELECT ss.student_id FROM staff_students ss WHERE ss.school_id = :school AND ss.staff_id = :me))`;
  const where = `w.school_id = :school AND ${listWhere(f)}${scoped}`;
  const params = { school: principal.schoolId, me: principal.userId, status: f.status, type: f.type, limit: f.limit, offset: offsetOf(f) };
  const [rows, [count]] = await Promise.all([
    ctx.db.select(
      `SELECT ${COLUMNS}, s.student_full_name AS student_name, p.father_name AS parent_name
         FROM write_to_requests w
         LEFT JOIN students s ON s.id = w.student_id AND s.school_id = w.school_id
         LEFT JOIN parents p ON p.id = w.parent_id AND p.school_id = w.school_id
        WHERE ${where} ORDER BY w.created_at DESC, w.id DESC LIMIT :limit OFFSET :offset`,
      params,
    ),
    ctx.db.select<{ n: number }>(`SELECT COUNT(*) AS n FROM write_to_requests w WHERE ${where}`, params),
  ]);
  const requests: QueueItemView[] = (await views(ctx, principal.schoolId, rows)).map((request, i) => ({
    ...request,
    student_name: (rows[i]!.student_name as string | null) ?? null,
    parent_name: (rows[i]!.parent_name as string | null) ?? null,
  }));
  return { requests, pagination: paginationOf(Number(count?.n ?? 0), f) };
}

/** A thread in the caller's queue, with its replies oldest first. */
export async function getStaffWriteTo(ctx: AppContext, principal: Principal, threadId: number): Promise<ThreadView> {
  return threadOf(ctx, principal.schoolId, await visibleThreadRow(ctx, principal, threadId));
}

/** The name a reply from the school carries: the staff member's, or the admin user's. */
async function schoolAuthorName(principal: Principal, transaction: Transaction): Promise<string | null> {
  const row = principal.type === 'admin'
    ? await AdminUser.findOne({ where: { id: principal.userId }, attributes: ['name'], raw: true, transaction })
    : await Staff.findOne({ where: { id: principal.userId, school_id: principal.schoolId }, attributes: ['name'], raw: true, transaction });
  return row?.name ?? null;
}

/**
 * A reply from the school, by staff (`author_type` staff) or an admin (`admin`): the first one moves
 * an open thread to in_progress, an archived thread refuses it (409), and the thread's parent is
 * told by their channel, in the same transaction.
 */
export async function schoolReply(ctx: AppContext, principal: Principal, threadId: number, input: ReplyInput): Promise<ReplyView> {
  const { message: text, attachment_ids: attachmentIds } = parseInput(replyInput, input);
  return ctx.db.sequelize.transaction(async (transaction) => {
    const thread = view(await visibleThreadRow(ctx, principal, threadId, transaction));
    const files = attachmentIds && (await planAttachments(ctx, principal, attachmentIds, null, transaction));
    const [changed] = await WriteToRequest.update(
      { status: literal("CASE WHEN status = 'open' THEN 'in_progress' ELSE status END"), replies_count: literal('replies_count + 1') },
      { where: { id: threadId, school_id: principal.schoolId, status: { [Op.ne]: 'archived' } }, transaction },
    );
    if (changed === 0) throw conflict('This request is archived and takes no more replies');
    const reply = await addReply(ctx, principal, threadId, await schoolAuthorName(principal, transaction), text, files, transaction);
    await notifyFamilies(ctx, principal.schoolId, [thread.parent_id], {
      event: 'write_to_reply', entity_type: 'write_to', entity_id: threadId, reply_id: reply.id,
      title: `Reply to "${thread.subject}"`, body: text.length > 200 ? `${text.slice(0, 197)}...` : text,
    }, transaction);
    return reply;
  });
}

async function assignableStaff(schoolId: string, staffId: number, transaction: Transaction): Promise<void> {
  const staff = await Staff.findOne({ where: { id: staffId, school_id: schoolId }, attributes: ['status'], raw: true, transaction });
  if (!staff) throw notFound('Staff');
  if (staff.status !== 1) throw conflict('That staff member is archived');
}

/**
 * Resolve and / or assign a thread. Resolving needs write_to.manage or being the assigned staff, and
 * marks a leave's dates excused where no attendance mark exists yet; assigning needs write_to.manage.
 * Each change is a conditional UPDATE on the state it expects, so a concurrent change gets a 409.
 */
export async function updateWriteTo(ctx: AppContext, principal: Principal, threadId: number, changes: WriteToChanges): Promise<WriteToView> {
  requireSchool(principal);
  const c = parseInput(writeToChangesInput, changes);
  if (c.status === undefined && c.assigned_staff_id === undefined) throw badRequest('Send status or assigned_staff_id');
  const manage = hasPermission(principal, 'write_to.manage');
  return ctx.db.sequelize.transaction(async (transaction) => {
    const thread = await findThread(ctx, principal.schoolId, threadId, transaction);
    const now = new Date();
    if (c.assigned_staff_id !== undefined) {
      if (!manage) throw forbidden('Assigning a request needs the permission write_to.manage');
      if (c.assigned_staff_id !== null) await assignableStaff(principal.schoolId, c.assigned_staff_id, transaction);
    }
    if (c.status === 'resolved') {
      const mine = principal.type === 'staff' && thread.assigned_staff_id === principal.userId;
      if (!manage && !mine) throw forbidden('Resolving a request needs write_to.manage or being its assigned staff');
      const [changed] = await WriteToRequest.update(
        { status: 'resolved', resolved_at: now },
        {
          where: {
            id: threadId, school_id: principal.schoolId, status: { [Op.in]: ['open', 'in_progress'] },
            ...(manage ? {} : { assigned_staff_id: principal.userId }),
          },
          transaction,
        },
      );
      if (changed === 0) throw conflict(`This request is ${thread.status === 'archived' ? 'archived' : 'already resolved'}`);
      if (thread.type === 'leave' && thread.student_id !== null && thread.leave_from && thread.leave_to) {
        await excuseLeave(
          ctx,
          { schoolId: principal.schoolId, studentId: thread.student_id, from: thread.leave_from, to: thread.leave_to, staffId: principal.type === 'staff' ? principal.userId : null },
          transaction,
        );
      }
    }
    if (c.assigned_staff_id !== undefined) {
      const [changed] = await WriteToRequest.update(
        { assigned_staff_id: c.assigned_staff_id },
        { where: { id: threadId, school_id: principal.schoolId, status: { [Op.ne]: 'archived' } }, transaction },
      );
      if (changed === 0) throw conflict('This request is archived');
    }
    const updated = await findThread(ctx, principal.schoolId, threadId, transaction);
    if (c.status === 'resolved') await emitWebhookEvent(principal.schoolId, 'write_to.resolved', writeToEventData(updated), transaction);
    return updated;
  });
}

export const resolveWriteTo = (ctx: AppContext, principal: Principal, threadId: number) => updateWriteTo(ctx, principal, threadId, { status: 'resolved' });

/** The maintenance job: threads resolved more than WRITE_TO_ARCHIVE_DAYS ago become archived, in every school. */
export async function archiveResolvedThreads(ctx: AppContext, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - ctx.config.writeToArchiveDays * 86_400_000);
  const due = await ctx.db.select<{ id: number; school_id: string }>('SELECT id, school_id FROM write_to_requests WHERE status = :resolved AND resolved_at <= :cutoff', { resolved: 'resolved', cutoff });
  let archived = 0;
  for (const batch of chunks(due)) {
    archived += await ctx.db.sequelize.transaction(async (transaction) => {
      const [, n] = (await ctx.db.sequelize.query(
        'UPDATE write_to_requests SET status = :archived, updated_at = :now WHERE status = :resolved AND id IN (:ids)',
        { replacements: { archived: 'archived', resolved: 'resolved', now: sqlTime(ctx.db.dialect, now), ids: batch.map((r) => Number(r.id)) }, type: QueryTypes.UPDATE, transaction },
      )) as unknown as [unknown, number];
      await recordAudit(batch.map((r) => ({ schoolId: r.school_id, action: 'write_to.archive', entityType: 'write_to' as const, entityId: Number(r.id), changes: { status: ['resolved', 'archived'] } })), transaction);
      return n;
    });
  }
  return archived;
}
