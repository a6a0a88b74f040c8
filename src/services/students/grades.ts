import { UniqueConstraintError, type Transaction } from 'sequelize';
import { z } from 'zod';
import { id as idField } from '../schemas.js';
import type { AppContext, Principal } from '../../context.js';
import { badRequest, conflict, fieldError, forbidden, notFound } from '../../errors.js';
import { AudienceTarget, Grade, School, Staff, Student } from '../../models/index.js';
import { assertInSchool } from '../access/found.js';
import { requireSchoolAdmin } from '../access/guards.js';
import { parseInput } from '../validation.js';
import { recordAudit } from '../audit/audit.js';
import { writeIn } from '../../db.js';

const gradeName = () => z.string().trim().min(1).max(60);
const classTeacher = () => idField().nullable().optional().describe('An active staff member of the school');

export const newGradeInput = z.object({ name: gradeName(), class_teacher_id: classTeacher() });
export const gradeChangesInput = z.object({
  name: gradeName().optional().describe('Renames the grade on its students and in the audiences of activities and notices too'),
  class_teacher_id: classTeacher(),
  sort_order: z.number().int().min(0).max(1_000_000).optional(),
});

export interface GradeView {
  id: number;
  name: string;
  class_teacher_id: number | null;
  sort_order: number;
}

const view = (g: Pick<Grade, 'id' | 'name' | 'class_teacher_id' | 'sort_order'>): GradeView => ({
  id: Number(g.id),
  name: g.name,
  class_teacher_id: g.class_teacher_id === null ? null : Number(g.class_teacher_id),
  sort_order: Number(g.sort_order),
});

/** A school that takes public requests (the grade list, the admission form): unknown 404, suspended 403. */
export async function assertSchoolOpen(schoolId: string, transaction?: Transaction): Promise<{ id: string; name: string }> {
  const school = await School.findByPk(schoolId, { attributes: ['id', 'name', 'status'], raw: true, transaction });
  if (!school) throw notFound('School');
  if (school.status !== 'active') throw forbidden('School access is suspended');
  return { id: school.id, name: school.name };
}

/** The school's grades in their display order; public, for the admission form. */
export async function listGrades(schoolId: string): Promise<GradeView[]> {
  await assertSchoolOpen(schoolId);
  const rows = await Grade.findAll({
    where: { school_id: schoolId },
    attributes: ['id', 'name', 'class_teacher_id', 'sort_order'],
    order: [['sort_order', 'ASC'], ['id', 'ASC']],
    raw: true,
  });
  return rows.map(view);
}

/**
 * A student's grade must name one of the school's grades (400 naming `field`). Inside a transaction
 * the grade row is read with a shared lock, so it cannot be renamed or deleted before the student is saved.
 */
export async function assertGrade(schoolId: string, name: string, transaction: Transaction | undefined, field = 'grade'): Promise<void> {
  const row = await Grade.findOne({
    where: { school_id: schoolId, name },
    attributes: ['id', 'name'],
    transaction,
    ...(transaction ? { lock: transaction.LOCK.SHARE } : {}),
  });
  // MySQL compares names case-insensitively; the exact name keeps both databases alike.
  if (!row || row.name !== name) throw fieldError(field, "is not one of the school's grades");
}

async function assertClassTeacher(schoolId: string, staffId: number, transaction?: Transaction): Promise<void> {
  const staff = await Staff.findOne({ where: { id: staffId, school_id: schoolId }, attributes: ['id', 'status'], raw: true, transaction });
  if (!staff) throw notFound('Staff');
  if (Number(staff.status) !== 1) throw fieldError('class_teacher_id', 'is an archived staff member');
}

const duplicateName = (err: unknown) =>
  err instanceof UniqueConstraintError ? conflict('A grade with this name already exists', [{ field: 'name', message: 'already exists' }]) : err;

export type NewGrade = z.input<typeof newGradeInput>;

/** A new grade goes after the school's others. */
export async function createGrade(ctx: AppContext, principal: Principal, raw: NewGrade): Promise<GradeView> {
  requireSchoolAdmin(principal);
  const input = parseInput(newGradeInput, raw);
  const schoolId = principal.schoolId;
  if (input.class_teacher_id != null) await assertClassTeacher(schoolId, input.class_teacher_id);
  return ctx.db.sequelize
    .transaction(async (transaction) => {
      const last = (await Grade.max('sort_order', { where: { school_id: schoolId }, transaction })) as number | null;
      const grade = await Grade.create(
        { school_id: schoolId, name: input.name, class_teacher_id: input.class_teacher_id ?? null, sort_order: last === null ? 0 : Number(last) + 1 },
        { transaction },
      );
      return view(grade);
    })
    .catch((err: unknown) => {
      throw duplicateName(err);
    });
}

export type GradeChanges = z.input<typeof gradeChangesInput>;

/** A grade of the caller's school (super_admin, admin), else 404: a change of another school's is refused before its body is judged. */
export async function assertGradeFound(principal: Principal, id: number): Promise<void> {
  requireSchoolAdmin(principal);
  await assertInSchool(principal, Grade, 'Grade', id);
}

/** Renaming a grade renames it on its students and in the audiences that name it, in the same transaction. */
export async function updateGrade(ctx: AppContext, principal: Principal, id: number, raw: GradeChanges): Promise<GradeView> {
  requireSchoolAdmin(principal);
  const changes = parseInput(gradeChangesInput, raw);
  if (Object.values(changes).every((v) => v === undefined)) throw badRequest('Send at least one field to change');
  const schoolId = principal.schoolId;
  if (changes.class_teacher_id != null) await assertClassTeacher(schoolId, changes.class_teacher_id);
  return ctx.db.sequelize
    .transaction(async (transaction) => {
      const grade = await Grade.findOne({ where: { id, school_id: schoolId }, transaction, lock: transaction.LOCK.UPDATE });
      if (!grade) throw notFound('Grade');
      const oldName = grade.name;
      await grade.update(
        {
          ...(changes.name !== undefined ? { name: changes.name } : {}),
          ...(changes.class_teacher_id !== undefined ? { class_teacher_id: changes.class_teacher_id } : {}),
          ...(changes.sort_order !== undefined ? { sort_order: changes.sort_order } : {}),
        },
        { transaction },
      );
      if (changes.name !== undefined && changes.name !== oldName) {
        await Student.update({ grade: changes.name }, { where: { school_id: schoolId, grade: oldName }, transaction });
        // Audiences name grades by name: the posts for the grade stay with it.
        await AudienceTarget.update({ grade: changes.name }, { where: { school_id: schoolId, entity_type: ['activity', 'noticeboard'], grade: oldName }, transaction });
      }
      return view(grade);
    })
    .catch((err: unknown) => {
      throw duplicateName(err);
    });
}

/** Refused (409) while any student, archived ones included, is in the grade: one statement, so no student slips in between. */
export async function deleteGrade(ctx: AppContext, principal: Principal, id: number): Promise<void> {
  requireSchoolAdmin(principal);
  const deleted = await ctx.db.sequelize.transaction(async (transaction) => {
    const n = await writeIn(ctx.db, transaction,
      `DELETE FROM grades WHERE id = :id AND school_id = :school
          AND NOT EXISTS (SELECT 1 FROM students s WHERE s.school_id = :school AND s.grade = grades.name)`,
      { id, school: principal.schoolId },
    );
    if (n > 0) await recordAudit([{ schoolId: principal.schoolId, action: 'grade.delete', entityType: 'grade', entityId: id }], transaction);
    return n;
  });
  if (deleted > 0) return;
  const exists = await Grade.findOne({ where: { id, school_id: principal.schoolId }, attributes: ['id'], raw: true });
  if (!exists) throw notFound('Grade');
  throw conflict('Students are still in this grade; move them to another grade first');
}
