import type { Transaction } from 'sequelize';
import type { AppContext, Principal } from '../../context.js';
import { day, iso } from '../../db.js';
import { badRequest, fieldError, forbidden, notFound } from '../../errors.js';
import { attendanceStatuses, type AttendanceStatus } from '../../models/attendance.js';
import { Attendance, Student } from '../../models/index.js';
import { requirePermission } from '../access/guards.js';
import { assertAssigned, assertChildOf, childIds } from '../access/scope.js';
import { transactionWithRetry } from '../transactions.js';

export { attendanceStatuses, type AttendanceStatus };

/** Every YYYY-MM-DD from `from` to `to`, both included (UTC days, so no DST surprises). */
export function datesBetween(from: string, to: string): string[] {
  const dates: string[] = [];
  const end = Date.parse(`${to}T00:00:00Z`);
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= end; t += 86_400_000) dates.push(new Date(t).toISOString().slice(0, 10));
  return dates;
}

/**
 * Marks a resolved leave's dates `excused` for the student, leaving any mark a teacher already made:
 * the unique key (school_id, student_id, date) turns the insert into insert-ignore. Returns how many
 * dates were newly marked.
 */
export async function excuseLeave(
  ctx: AppContext,
  input: { schoolId: string; studentId: number; from: string; to: string; staffId: number | null },
  transaction?: Transaction,
): Promise<number> {
  const dates = datesBetween(input.from, input.to);
  if (dates.length === 0) return 0;
  const rows = dates.map((date) => ({
    school_id: input.schoolId, student_id: input.studentId, date, status: 'excused' as const, marked_by_staff_id: input.staffId,
  }));
  const count = (t: Transaction) => Attendance.count({ where: { school_id: input.schoolId, student_id: input.studentId, date: dates }, transaction: t });
  // Both dialects report every row of an insert-ignore as created, so the new marks are counted instead.
  const run = async (t: Transaction) => {
    const before = await count(t);
    await Attendance.bulkCreate(rows, { ignoreDuplicates: true, transaction: t });
    return (await count(t)) - before;
  };
  return transaction ? run(transaction) : ctx.db.sequelize.transaction(run);
}

export interface MarkInput {
  date: string;
  records: Array<{ student_id: number; status: string }>;
}

/**
 * A teacher's marks for one date, all or nothing: every student must be assigned to the caller (a
 * school admin: of the school) before anything is written, then one upsert in one transaction.
 */
export async function markAttendance(ctx: AppContext, principal: Principal, input: MarkInput): Promise<{ date: string; saved: number }> {
  requirePermission(principal, 'attendance.manage');
  if (input.records.length === 0) throw fieldError('records', 'must name at least one student');
  const seen = new Set<number>();
  input.records.forEach((r, i) => {
    if (!(attendanceStatuses as readonly string[]).includes(r.status)) throw fieldError(`records.${i}.status`, `must be one of ${attendanceStatuses.join(', ')}`);
    if (seen.has(r.student_id)) throw fieldError(`records.${i}.student_id`, 'appears twice');
    seen.add(r.student_id);
  });
  const ids = [...seen];
  const staffId = principal.type === 'staff' ? principal.userId : null;
  // Rows in key order, so concurrent markings lock them in the same order; a deadlock that still happens runs the transaction again.
  const rows = [...input.records]
    .sort((x, y) => x.student_id - y.student_id)
    .map((r) => ({ school_id: principal.schoolId, student_id: r.student_id, date: input.date, status: r.status as AttendanceStatus, marked_by_staff_id: staffId }));
  await transactionWithRetry(ctx, async (transaction) => {
    if (staffId !== null) await assertAssigned(principal, ids, transaction);
    else if ((await Student.count({ where: { id: ids, school_id: principal.schoolId }, transaction })) !== ids.length) {
      throw forbidden('That student is not in your school');
    }
    await Attendance.bulkCreate(rows, {
      updateOnDuplicate: ['status', 'marked_by_staff_id', 'updated_at'], conflictAttributes: ['school_id', 'student_id', 'date'], transaction,
    });
  }, () => false);
  return { date: input.date, saved: ids.length };
}

export interface RollCallEntry {
  student_id: number;
  student_full_name: string;
  roll_no: string;
  grade: string;
  status: AttendanceStatus | null;
  marked_by_staff_id: number | null;
  marked_at: string | null;
}

/**
 * The roll for a date: the caller's assigned students (a school admin: the school's), optionally of one
 * grade, each with its mark or null when unmarked, in the school's grade order. Archived students are left out.
 */
export async function listStaffAttendance(ctx: AppContext, principal: Principal, query: { date: string; grade?: string }): Promise<RollCallEntry[]> {
  requirePermission(principal, 'attendance.manage');
  const scope = principal.type === 'staff'
    ? 'JOIN staff_students ss ON ss.school_id = s.school_id AND ss.student_id = s.id AND ss.staff_id = :me'
    : '';
  const rows = await ctx.db.select<{
    student_id: number; student_full_name: string; roll_no: string; grade: string; status: AttendanceStatus | null; marked_by_staff_id: number | null; marked_at: unknown;
  }>(
    `SELECT s.id AS student_id, s.student_full_name, s.roll_no, s.grade, a.status, a.marked_by_staff_id, a.updated_at AS marked_at
       FROM students s
       ${scope}
       LEFT JOIN attendance a ON a.school_id = s.school_id AND a.student_id = s.id AND a.date = :date
       LEFT JOIN grades g ON g.school_id = s.school_id AND g.name = s.grade
      WHERE s.school_id = :school AND s.status <> 'archived' ${query.grade ? 'AND s.grade = :grade' : ''}
      ORDER BY g.sort_order, s.grade, s.student_full_name, s.id`,
    { school: principal.schoolId, me: principal.userId, date: query.date, grade: query.grade ?? null },
  );
  return rows.map((r) => ({
    student_id: Number(r.student_id), student_full_name: r.student_full_name, roll_no: r.roll_no, grade: r.grade, status: r.status ?? null,
    marked_by_staff_id: r.marked_by_staff_id === null ? null : Number(r.marked_by_staff_id), marked_at: iso(r.marked_at),
  }));
}

export type AttendanceSummary = Record<AttendanceStatus, number>;

export interface ChildAttendance {
  student_id: number;
  from: string | null;
  to: string | null;
  marks: Array<{ date: string; status: AttendanceStatus }>;
  summary: AttendanceSummary;
}

/**
 * A child's marks between two dates (either may be left open), oldest first, with a count per status.
 * Without student_id: the parent's first child by id.
 */
export async function childAttendance(
  ctx: AppContext,
  principal: Principal,
  query: { student_id?: number; from?: string; to?: string },
): Promise<ChildAttendance> {
  if (principal.type !== 'parent') throw forbidden('This is for parents');
  if (query.from && query.to && query.from > query.to) throw badRequest('from must not be after to', [{ field: 'from', message: 'must not be after to' }]);
  let studentId = query.student_id;
  if (studentId !== undefined) await assertChildOf(ctx, principal, studentId);
  else [studentId] = await childIds(ctx, principal.schoolId, principal.userId);
  if (studentId === undefined) throw notFound('Student');
  const rows = await ctx.db.select<{ date: unknown; status: AttendanceStatus }>(
    `SELECT a.date, a.status FROM attendance a
      WHERE a.school_id = :school AND a.student_id = :student ${query.from ? 'AND a.date >= :from' : ''} ${query.to ? 'AND a.date <= :to' : ''}
      ORDER BY a.date ASC`,
    { school: principal.schoolId, student: studentId, from: query.from ?? null, to: query.to ?? null },
  );
  const summary: AttendanceSummary = { present: 0, absent: 0, late: 0, excused: 0 };
  const marks = rows.map((r) => {
    if (r.status in summary) summary[r.status] += 1;
    return { date: day(r.date)!, status: r.status };
  });
  return { student_id: studentId, from: query.from ?? null, to: query.to ?? null, marks, summary };
}
