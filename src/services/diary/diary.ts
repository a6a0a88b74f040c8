import { QueryTypes, type Transaction } from 'sequelize';
import { z } from 'zod';
import type { AppContext, Principal } from '../../context.js';
import { day, iso } from '../../db.js';
import { badRequest, fieldError, forbidden, notFound } from '../../errors.js';
import { DiaryEntry, Grade, Student } from '../../models/index.js';
import { hasPermission, requirePermission } from '../access/guards.js';
import { assertAssigned, assertChildOf, childIds } from '../access/scope.js';
import { authorOf } from '../access/found.js';
import { attachmentsOf, type AttachmentView } from '../attachments/attachments.js';
import { applyAttachments, attachmentIdsInput, planAttachments } from '../attachments/attaching.js';
import { deleteAttachmentsOfItems } from '../attachments/removal.js';
import { offsetOf, type PageRequest } from '../pagination.js';
import { date, id, longText, title } from '../schemas.js';
import { parseInput } from '../validation.js';

export interface DiaryView {
  id: number;
  school_id: string;
  staff_id: number;
  author_name: string | null;
  grade: string | null;
  student_id: number | null;
  title: string;
  description: string | null;
  due_date: string | null;
  created_at: string;
  updated_at: string;
  attachments: AttachmentView[];
}

interface DiaryRow {
  id: number;
  school_id: string;
  staff_id: number;
  author_name: string | null;
  grade: string | null;
  student_id: number | null;
  title: string;
  description: string | null;
  due_date: unknown;
  created_at: unknown;
  updated_at: unknown;
  attachment_ids: unknown;
}

const view = (r: DiaryRow): Omit<DiaryView, 'attachments'> => ({
  id: Number(r.id), school_id: r.school_id, staff_id: Number(r.staff_id), author_name: r.author_name ?? null, grade: r.grade ?? null,
  student_id: r.student_id === null || r.student_id === undefined ? null : Number(r.student_id), title: r.title,
  description: r.description ?? null, due_date: day(r.due_date), created_at: iso(r.created_at)!, updated_at: iso(r.updated_at)!,
});

const COLUMNS = `d.id, d.school_id, d.staff_id, st.name AS author_name, d.grade, d.student_id, d.title, d.description, d.due_date,
                 d.created_at, d.updated_at, d.attachment_ids`;
const FROM = 'FROM diary_entries d LEFT JOIN staff st ON st.id = d.staff_id AND st.school_id = d.school_id';
const SELECT = `SELECT ${COLUMNS} ${FROM}`;

export const diaryGrade = () => z.string().trim().min(1).max(60);
const diaryFields = {
  grade: diaryGrade().nullable().optional().describe('A grade of the school; give exactly one of grade and student_id'),
  student_id: id().nullable().optional().describe('A student assigned to the caller; give exactly one of grade and student_id'),
  description: longText().nullable().optional(),
  due_date: date().nullable().optional(),
  /** Uploads to attach, in order (CONTRACT.md section 25); on a change, the whole new set. */
  attachment_ids: attachmentIdsInput.optional(),
};
/** Read here, not only by the REST route: the console and the command line send their input through these too. */
export const newDiarySchema = z.object({
  ...diaryFields,
  title: title(),
  staff_id: id().optional().describe('Who writes it: the caller (another id: 403); the console and the command line name a staff member of the school'),
});
export const diaryChangesSchema = z.object({
  ...diaryFields,
  title: title().optional(),
  staff_id: id().optional().describe('Who wrote it, which does not change: another id is 400'),
});
export type DiaryInput = z.input<typeof newDiarySchema>;
export type DiaryChanges = z.input<typeof diaryChangesSchema>;

/** The rows as views with their attachments, read in one query for the page. */
async function views(ctx: AppContext, schoolId: string, rows: DiaryRow[], transaction?: Transaction): Promise<DiaryView[]> {
  const files = await attachmentsOf(ctx, schoolId, rows.map((r) => r.attachment_ids), transaction);
  return rows.map((r, i) => ({ ...view(r), attachments: files[i]! }));
}

/** A calendar day's bounds in UTC, [start, next day's start), so timestamps are compared with the index. */
const startOf = (date: string) => new Date(`${date}T00:00:00.000Z`);
const endOf = (date: string) => new Date(startOf(date).getTime() + 86_400_000);

/**
 * Resolves an entry's target: exactly one of a grade of the school (400 otherwise) or a student the
 * caller teaches (403 otherwise; a school admin may name any student of the school).
 */
async function target(principal: Principal, grade: string | null | undefined, studentId: number | null | undefined) {
  const hasGrade = grade !== undefined && grade !== null && grade.trim() !== '';
  const hasStudent = studentId !== undefined && studentId !== null;
  if (hasGrade === hasStudent) {
    throw badRequest('Give exactly one of grade or student_id', [
      { field: 'grade', message: 'give exactly one of grade or student_id' },
      { field: 'student_id', message: 'give exactly one of grade or student_id' },
    ]);
  }
  if (hasGrade) {
    const row = await Grade.findOne({ where: { school_id: principal.schoolId, name: grade.trim() }, attributes: ['name'], raw: true });
    if (!row) throw fieldError('grade', 'is not a grade of this school');
    return { grade: row.name, student_id: null };
  }
  if (principal.type === 'staff') await assertAssigned(principal, [studentId!]);
  else if (!(await Student.findOne({ where: { id: studentId!, school_id: principal.schoolId }, attributes: ['id'], raw: true }))) {
    throw forbidden('That student is not in your school');
  }
  return { grade: null, student_id: studentId! };
}

async function findView(ctx: AppContext, schoolId: string, id: number, transaction?: Transaction): Promise<DiaryView> {
  const [row] = await ctx.db.sequelize.query<DiaryRow>(`${SELECT} WHERE d.id = :id AND d.school_id = :school AND d.deleted_status = 0`, {
    replacements: { id, school: schoolId }, type: QueryTypes.SELECT, transaction,
  });
  if (!row) throw notFound('Diary entry');
  const [entry] = await views(ctx, schoolId, [row], transaction);
  return entry!;
}

/**
 * A staff member's diary entry (homework or a class note) for a grade or one of their students, with
 * its attachments; the school office (console) writes one for a staff member it names, for any student.
 */
export async function createDiaryEntry(ctx: AppContext, principal: Principal, given: DiaryInput): Promise<DiaryView> {
  requirePermission(principal, 'diary.create');
  const input = parseInput(newDiarySchema, given);
  const author = await authorOf(principal, input.staff_id, 'a diary entry is written by a staff member');
  const aim = await target(principal, input.grade, input.student_id);
  return ctx.db.sequelize.transaction(async (transaction) => {
    const files = input.attachment_ids && (await planAttachments(ctx, principal, input.attachment_ids, null, transaction));
    const entry = await DiaryEntry.create({
      school_id: principal.schoolId, staff_id: author, ...aim, title: input.title,
      description: input.description ?? null, due_date: input.due_date ?? null, ...(files ? { attachment_ids: files.ids } : {}),
    }, { transaction });
    if (files) await applyAttachments(ctx, principal, files, { type: 'diary', id: entry.id }, transaction);
    return findView(ctx, principal.schoolId, entry.id, transaction);
  });
}

/** The entry, undeleted, in the caller's school, once the caller may change it: their own with diary.create, anyone's with diary.manage. */
export async function assertDiaryEntryEditable(principal: Principal, id: number): Promise<{ author: number }> {
  requirePermission(principal, 'diary.create');
  const entry = await DiaryEntry.findOne({ where: { id, school_id: principal.schoolId, deleted_status: 0 }, attributes: ['staff_id'], raw: true });
  if (!entry) throw notFound('Diary entry');
  const own = principal.type === 'staff' && entry.staff_id === principal.userId;
  if (!own) requirePermission(principal, 'diary.manage');
  return { author: Number(entry.staff_id) };
}

/** Changes an entry; naming grade or student_id retargets it, again to exactly one of the two; `attachment_ids` replaces its attachments. */
export async function updateDiaryEntry(ctx: AppContext, principal: Principal, id: number, given: DiaryChanges): Promise<DiaryView> {
  const { author } = await assertDiaryEntryEditable(principal, id);
  const changes = parseInput(diaryChangesSchema, given);
  if (changes.staff_id !== undefined && changes.staff_id !== author) throw fieldError('staff_id', 'cannot change: an entry stays with the staff member who wrote it');
  const retarget = changes.grade !== undefined || changes.student_id !== undefined;
  const values = {
    ...(retarget ? await target(principal, changes.grade, changes.student_id) : {}),
    ...(changes.title !== undefined ? { title: changes.title } : {}),
    ...(changes.description !== undefined ? { description: changes.description } : {}),
    ...(changes.due_date !== undefined ? { due_date: changes.due_date } : {}),
  };
  if (Object.keys(values).length === 0 && changes.attachment_ids === undefined) return findView(ctx, principal.schoolId, id);
  return ctx.db.sequelize.transaction(async (transaction) => {
    const files = changes.attachment_ids && (await planAttachments(ctx, principal, changes.attachment_ids, { type: 'diary', id }, transaction));
    const [affected] = await DiaryEntry.update({ ...values, ...(files ? { attachment_ids: files.ids } : {}) }, { where: { id, school_id: principal.schoolId, deleted_status: 0 }, transaction });
    if (affected === 0) throw notFound('Diary entry');
    if (files) await applyAttachments(ctx, principal, files, { type: 'diary', id }, transaction);
    return findView(ctx, principal.schoolId, id, transaction);
  });
}

/** Soft delete: the entry leaves every list and its comments' entity becomes invisible to parents; its attachments are deleted with it. */
export async function deleteDiaryEntry(ctx: AppContext, principal: Principal, id: number): Promise<void> {
  await assertDiaryEntryEditable(principal, id);
  await ctx.db.sequelize.transaction(async (transaction) => {
    const [affected] = await DiaryEntry.update({ deleted_status: 1 }, { where: { id, school_id: principal.schoolId, deleted_status: 0 }, transaction });
    if (affected === 0) throw notFound('Diary entry');
    await deleteAttachmentsOfItems(ctx, principal.schoolId, 'diary', [id], transaction);
  });
}

export interface StaffDiaryQuery extends PageRequest {
  grade?: string;
  /** Entries written on that day (UTC). */
  date?: string;
}

/**
 * The teachers' diary, newest first: grade-wide entries and entries for the caller's own students or
 * by the caller; with diary.manage (or as a school admin) every entry of the school. `grade` also
 * matches entries for single students of that grade.
 */
export async function listStaffDiary(ctx: AppContext, principal: Principal, query: StaffDiaryQuery): Promise<DiaryView[]> {
  requirePermission(principal, 'diary.create');
  const seesAll = principal.type !== 'staff' || hasPermission(principal, 'diary.manage');
  const where = ['d.school_id = :school', 'd.deleted_status = 0'];
  const params: Record<string, unknown> = { school: principal.schoolId, me: principal.userId, grade: query.grade ?? null, limit: query.limit, offset: offsetOf(query) };
  if (!seesAll) {
    where.push(`(d.student_id IS NULL OR d.staff_id = :me
                 OR d.student_id IN (SELECT ss.student_id FROM staff_students ss WHERE ss.school_id = :school AND ss.staff_id = :me))`);
  }
  if (query.grade) where.push('(d.grade = :grade OR d.student_id IN (SELECT gs.id FROM students gs WHERE gs.school_id = :school AND gs.grade = :grade))');
  if (query.date) {
    where.push('d.created_at >= :start AND d.created_at < :end');
    Object.assign(params, { start: startOf(query.date), end: endOf(query.date) });
  }
  const rows = await ctx.db.select<DiaryRow>(`${SELECT} WHERE ${where.join(' AND ')} ORDER BY d.created_at DESC, d.id DESC LIMIT :limit OFFSET :offset`, params);
  return views(ctx, principal.schoolId, rows);
}

export interface ParentDiaryQuery extends PageRequest {
  student_id?: number;
  from?: string;
  to?: string;
}

/** A parent's diary, newest first: entries for their children (or the one named) and for those children's grades. */
export async function listParentDiary(ctx: AppContext, principal: Principal, query: ParentDiaryQuery): Promise<DiaryView[]> {
  if (principal.type !== 'parent') throw forbidden('This is for parents');
  if (query.from && query.to && query.from > query.to) throw fieldError('from', 'must not be after to');
  if (query.student_id !== undefined) await assertChildOf(ctx, principal, query.student_id);
  const kids = query.student_id !== undefined ? [query.student_id] : await childIds(ctx, principal.schoolId, principal.userId);
  if (kids.length === 0) return [];
  const grades = [...new Set((await Student.findAll({ where: { id: kids, school_id: principal.schoolId }, attributes: ['grade'], raw: true })).map((s) => s.grade))];
  const where = ['d.school_id = :school', 'd.deleted_status = 0', '(d.student_id IN (:kids) OR (d.student_id IS NULL AND d.grade IN (:grades)))'];
  const params: Record<string, unknown> = { school: principal.schoolId, parent: principal.userId, kids, grades, limit: query.limit, offset: offsetOf(query) };
  if (query.from) {
    where.push('d.created_at >= :start');
    params.start = startOf(query.from);
  }
  if (query.to) {
    where.push('d.created_at < :end');
    params.end = endOf(query.to);
  }
  const rows = await ctx.db.select<DiaryRow & { read_at: unknown }>(
    `SELECT ${COLUMNS}, r.read_at ${FROM}
       LEFT JOIN item_reads r ON r.school_id = d.school_id AND r.entity_type = 'diary' AND r.entity_id = d.id AND r.parent_id = :parent
      WHERE ${where.join(' AND ')} ORDER BY d.created_at DESC, d.id DESC LIMIT :limit OFFSET :offset`,
    params,
  );
  // Each entry with when this parent first read it (null while unread).
  return (await views(ctx, principal.schoolId, rows)).map((entry, i) => ({ ...entry, read_at: iso(rows[i]!.read_at) }));
}
