import { Op, type Transaction } from 'sequelize';
import type { Principal } from '../../context.js';
import { forbidden } from '../../errors.js';
import { StaffStudent, Student } from '../../models/index.js';

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

/** The parent's children in the school (archived ones included unless excluded). */
export async function childIds(schoolId: string, parentId: number, options: { includeArchived?: boolean } = {}): Promise<number[]> {
  const rows = await Student.findAll({
    where: { school_id: schoolId, parent_id: parentId, ...(options.includeArchived === false ? { status: { [Op.ne]: 'archived' } } : {}) },
    attributes: ['id'],
    order: [['id', 'ASC']],
    raw: true,
  });
  return rows.map((r) => r.id);
}

/** A student id named by a parent must be one of their children: 403 otherwise. */
export async function assertChildOf(principal: Principal, studentId: number): Promise<void> {
  const ids = await childIds(principal.schoolId, principal.userId);
  if (!ids.includes(studentId)) throw forbidden('That student is not linked to you');
}
