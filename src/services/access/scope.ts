import { Op, type Transaction } from 'sequelize';
import type { AppContext, Principal } from '../../context.js';
import { forbidden } from '../../errors.js';
import { StaffStudent } from '../../models/index.js';

/**
 * Who may see which student. Staff see the students assigned to them; parents see their own
 * children. Every later feature asks here, so the rule lives once.
 */
export async function assignedStudentIds(schoolId: string, staffId: number, transaction?: Transaction): Promise<number[]> {
  const rows = await StaffStudent.findAll({ where: { school_id: schoolId, staff_id: staffId }, attributes: ['student_id'], raw: true, transaction });
  return rows.map((r) => r.student_id);
}

export async function isAssigned(schoolId: string, staffId: number, studentId: number, transaction?: Transaction): Promise<boolean> {
  const row = await StaffStudent.findOne({ where: { school_id: schoolId, staff_id: staffId, student_id: studentId }, attributes: ['id'], raw: true, transaction });
  return row !== null;
}

/** Every given student must be assigned to the staff member: 403 otherwise. */
export async function assertAssigned(principal: Principal, studentIds: number[], transaction?: Transaction): Promise<void> {
  const unique = [...new Set(studentIds)];
  if (unique.length === 0) return;
  const count = await StaffStudent.count({
    where: { school_id: principal.schoolId, staff_id: principal.userId, student_id: { [Op.in]: unique } },
    transaction,
  });
  if (count !== unique.length) throw forbidden('That student is not assigned to you');
}

/** The parent's children in the school (archived ones included unless excluded), by id. */
export async function childIds(ctx: AppContext, schoolId: string, parentId: number, options: { includeArchived?: boolean } = {}): Promise<number[]> {
  const rows = await ctx.db.select<{ id: number }>(
    `SELECT id FROM students WHERE school_id = :school AND parent_id = :parent${options.includeArchived === false ? ' AND status <> :archived' : ''} ORDER BY id ASC`,
    { school: schoolId, parent: parentId, archived: 'archived' },
  );
  return rows.map((r) => Number(r.id));
}

/** A student id named by a parent must be one of their children: 403 otherwise. */
export async function assertChildOf(ctx: AppContext, principal: Principal, studentId: number): Promise<void> {
  const rows = await ctx.db.select('SELECT id FROM students WHERE id = :id AND school_id = :school AND parent_id = :parent', {
    id: studentId, school: principal.schoolId, parent: principal.userId,
  });
  if (rows.length === 0) throw forbidden('That student is not linked to you');
}
