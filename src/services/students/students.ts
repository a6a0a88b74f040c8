import { Op, UniqueConstraintError } from 'sequelize';
import { z } from 'zod';
import { date, name, pageQuery, phone } from '../schemas.js';
import type { AppContext, Principal } from '../../context.js';
import { day, iso } from '../../db.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { Address, Parent, Student } from '../../models/index.js';
import { studentStatuses, type StudentStatus } from '../../models/student.js';
import { assertInSchool } from '../access/found.js';
import { requireSchoolAdmin } from '../access/guards.js';
import { assertAssigned, childIds } from '../access/scope.js';
import { offsetOf, paginationOf } from '../pagination.js';
import { findOrCreateParentByPhone, parentPhoneRace, setParentPin } from '../parents/parents.js';
import { transactionWithRetry, violates } from '../transactions.js';
import { parseInput } from '../validation.js';
import { emitWebhookEvent } from '../webhooks/events.js';
import { assertGrade } from './grades.js';

/*
 * The inputs, checked here so the API, the console and the command line refuse the same things with
 * the same 400; the REST routes declare these same schemas.
 */
export const studentFields = {
  student_full_name: name(),
  gender: z.string().trim().min(1).max(20).nullable().optional(),
  grade: z.string().trim().min(1).max(60).describe("One of the school's grades"),
  date_of_birth: date().nullable().optional(),
  blood_group: z.string().trim().min(1).max(8).nullable().optional(),
};

export const rollNoInput = () => z.union([z.string().trim().min(1).max(32), z.number().int().min(0).max(2_147_483_647).transform(String)]);

export const studentListStatuses = ['active', 'registered', 'inactive', 'archived', 'all'] as const;

export const studentListInput = z.object({
  search: z.string().trim().max(120).optional().describe('Name or roll number, case-insensitive'),
  grade: z.string().trim().min(1).max(60).optional(),
  status: z.enum(studentListStatuses).optional().describe('Without it, every student that is not archived'),
  ...pageQuery(),
});

export const studentChangesInput = z.object({
  student_full_name: studentFields.student_full_name.optional(),
  gender: studentFields.gender,
  grade: studentFields.grade.optional(),
  date_of_birth: studentFields.date_of_birth,
  blood_group: studentFields.blood_group,
  phone_no: phone().optional().describe("Links the student to that phone's parent in the school (created without a PIN when none)"),
  roll_no: rollNoInput().optional().describe('Unique in the school'),
  status: z.enum(studentStatuses).optional().describe('registered -> active, active <-> inactive'),
});

/** At least one field of a partial update. */
export const someField = (o: Record<string, unknown>) => Object.values(o).some((v) => v !== undefined);

export interface StudentView {
  id: number;
  student_full_name: string;
  gender: string | null;
  grade: string;
  date_of_birth: string | null;
  blood_group: string | null;
  phone_no: string | null;
  roll_no: string;
  status: StudentStatus;
  parent_id: number | null;
  created_at: string;
  updated_at: string;
}

type StudentRow = Pick<Student, keyof Omit<StudentView, 'created_at' | 'updated_at'>> & { created_at: unknown; updated_at: unknown };

export function studentView(r: StudentRow): StudentView {
  return {
    id: Number(r.id),
    student_full_name: r.student_full_name,
    gender: r.gender ?? null,
    grade: r.grade,
    date_of_birth: day(r.date_of_birth),
    blood_group: r.blood_group ?? null,
    phone_no: r.phone_no ?? null,
    roll_no: r.roll_no,
    status: r.status,
    parent_id: r.parent_id == null ? null : Number(r.parent_id),
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
  };
}

/** A duplicate roll number, on either database, as the contract's 409 naming `field`. */
export function rollNoConflict(err: unknown, field = 'roll_no'): unknown {
  if (err instanceof UniqueConstraintError && violates(err, 'students_school_roll_uq', 'students.roll_no')) {
    return conflict('A student with this roll number already exists', [{ field, message: 'already exists' }]);
  }
  return err;
}

export type StudentQuery = z.input<typeof studentListInput>;

const columns = `s.id, s.student_full_name, s.gender, s.grade, s.date_of_birth, s.blood_group, s.phone_no, s.roll_no, s.status,
  s.parent_id, s.created_at, s.updated_at`;

/** The school's students, one page of plain rows and one count; `search` matches name or roll number, case-insensitive. */
export async function listStudents(ctx: AppContext, principal: Principal, raw: StudentQuery) {
  requireSchoolAdmin(principal);
  const query = parseInput(studentListInput, raw);
  const where = ['s.school_id = :school'];
  const values: Record<string, unknown> = { school: principal.schoolId, limit: query.limit, offset: offsetOf(query) };
  if (!query.status) {
    where.push('s.status <> :archived');
    values.archived = 'archived';
  } else if (query.status !== 'all') {
    where.push('s.status = :status');
    values.status = query.status;
  }
  if (query.grade) {
    where.push('s.grade = :grade');
    values.grade = query.grade;
  }
  if (query.search) {
    // LIKE ignores case on its own (SQLite for ASCII, MySQL under the default _ci collations); LOWER()
    // on each entry doubled the search's cost on MariaDB.
    where.push("(s.student_full_name LIKE :q ESCAPE '!' OR s.roll_no LIKE :q ESCAPE '!')");
    values.q = `%${query.search.replace(/[!%_]/g, '!$&')}%`;
  }
  const filter = where.join(' AND ');
  // One statement: the page's ids and the total in one pass over an index (the search index tests
  // the pattern on its own entries; MariaDB would rather read every row through
  // students_school_status), then only the page's rows by primary key. A page past the end has no
  // row to carry the total: it is counted apart.
  const hint = query.search && ctx.db.dialect === 'mysql' ? 'FORCE INDEX (students_school_search)' : '';
  const rows = await ctx.db.select<StudentRow & { father_name: string | null; total: number }>(
    `SELECT ${columns}, p.father_name, page.total
       FROM (SELECT s.id, COUNT(*) OVER () AS total FROM students s ${hint} WHERE ${filter} ORDER BY s.id ASC LIMIT :limit OFFSET :offset) page
       JOIN students s ON s.id = page.id AND s.school_id = :school
       LEFT JOIN parents p ON p.id = s.parent_id AND p.school_id = s.school_id
      ORDER BY s.id ASC`,
    values,
  );
  const total = rows.length > 0
    ? Number(rows[0]!.total)
    : Number((await ctx.db.select<{ n: number }>(`SELECT COUNT(*) AS n FROM students s WHERE ${filter}`, values))[0]?.n ?? 0);
  return {
    students: rows.map((r) => ({ ...studentView(r), father_name: r.father_name ?? null })),
    pagination: paginationOf(total, query),
  };
}

/** A student of the caller's school (super_admin, admin), else 404: a change of another school's is refused before its body is judged. */
export async function assertStudentFound(principal: Principal, id: number): Promise<void> {
  requireSchoolAdmin(principal);
  await assertInSchool(principal, Student, 'Student', id);
}

async function findStudent(principal: Principal, id: number): Promise<Student> {
  const student = await Student.findOne({ where: { id, school_id: principal.schoolId } });
  if (!student) throw notFound('Student');
  return student;
}

const addressView = (a: Pick<Address, 'address_type' | 'address' | 'city' | 'pincode'>) => ({
  address_type: a.address_type,
  address: a.address,
  city: a.city ?? null,
  pincode: a.pincode == null ? null : Number(a.pincode),
});

/** One student with its guardian and addresses, for the web app and the console. */
export async function getStudent(_ctx: AppContext, principal: Principal, id: number) {
  requireSchoolAdmin(principal);
  const student = await findStudent(principal, id);
  const [parent, addresses] = await Promise.all([
    student.parent_id === null
      ? null
      : Parent.findOne({ where: { id: student.parent_id, school_id: principal.schoolId }, attributes: ['id', 'father_name', 'mother_name', 'phone_no', 'email', 'pin_hash'], raw: true }),
    Address.findAll({ where: { school_id: principal.schoolId, owner_type: 'student', owner_id: student.id }, order: [['id', 'ASC']], raw: true }),
  ]);
  return {
    ...studentView(student),
    guardian: parent && {
      id: Number(parent.id), father_name: parent.father_name, mother_name: parent.mother_name ?? null, phone_no: parent.phone_no,
      email: parent.email ?? null, has_pin: parent.pin_hash !== null,
    },
    addresses: addresses.map(addressView),
  };
}

/** registered -> active, active <-> inactive; archiving and restoring have their own calls. */
const transitions: Record<StudentStatus, StudentStatus[]> = { registered: ['active'], active: ['inactive'], inactive: ['active'], archived: [] };

export type StudentChanges = z.input<typeof studentChangesInput>;

/**
 * Edits a student. A status change must be an allowed transition (409 otherwise), an archived student
 * cannot be edited (409), the grade must be the school's (400), the roll number unique (409), and a
 * new phone links the student to that phone's parent in the school, created without a PIN if needed.
 */
export async function updateStudent(ctx: AppContext, principal: Principal, id: number, raw: StudentChanges): Promise<StudentView> {
  requireSchoolAdmin(principal);
  const changes = parseInput(studentChangesInput, raw);
  if (!someField(changes)) throw badRequest('Send at least one field to change');
  const schoolId = principal.schoolId;
  try {
    return await transactionWithRetry(ctx, async (transaction) => {
      const student = await Student.findOne({ where: { id, school_id: schoolId }, transaction, lock: transaction.LOCK.UPDATE });
      if (!student) throw notFound('Student');
      if (student.status === 'archived') throw conflict('An archived student cannot be edited; restore it first');
      const { phone_no: phone, status, ...fields } = changes;
      const current = student.status as StudentStatus;
      if (status !== undefined && status !== current && !transitions[current].includes(status)) {
        throw conflict(`A student cannot go from ${current} to ${status}`, [{ field: 'status', message: `cannot change from ${current} to ${status}` }]);
      }
      if (fields.grade !== undefined) await assertGrade(schoolId, fields.grade, transaction);
      const patch: Partial<z.output<typeof studentChangesInput> & { parent_id: number }> = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
      if (status !== undefined) patch.status = status;
      if (phone !== undefined && (phone !== student.phone_no || student.parent_id === null)) {
        const { parent } = await findOrCreateParentByPhone(schoolId, phone, {}, transaction);
        patch.phone_no = phone;
        patch.parent_id = parent.id;
      }
      await student.update(patch, { transaction });
      return studentView(student);
    }, parentPhoneRace);
  } catch (err) {
    throw rollNoConflict(err);
  }
}

/**
 * Any state -> archived; archiving an archived student changes nothing. The change is conditional on
 * the state, so only the request that archives sends the school's webhooks `student.archived`.
 */
export async function archiveStudent(ctx: AppContext, principal: Principal, id: number): Promise<StudentView> {
  requireSchoolAdmin(principal);
  return ctx.db.sequelize.transaction(async (transaction) => {
    const [archived] = await Student.update({ status: 'archived' }, { where: { id, school_id: principal.schoolId, status: { [Op.ne]: 'archived' } }, transaction });
    const row = await Student.findOne({ where: { id, school_id: principal.schoolId }, transaction });
    if (!row) throw notFound('Student');
    const student = studentView(row);
    if (archived === 1) {
      await emitWebhookEvent(principal.schoolId, 'student.archived', { entity_type: 'student', entity_id: id, ...student }, transaction);
    }
    return student;
  });
}

/** archived -> inactive; any other state: 409. The update is conditional on the state, so two restores cannot both win. */
export async function restoreStudent(_ctx: AppContext, principal: Principal, id: number): Promise<StudentView> {
  requireSchoolAdmin(principal);
  const student = await findStudent(principal, id);
  const [restored] = await Student.update({ status: 'inactive' }, { where: { id, school_id: principal.schoolId, status: 'archived' } });
  if (restored === 0) throw conflict(`Only an archived student can be restored; this one is ${student.status}`);
  await student.reload();
  return studentView(student);
}

/** Sets the PIN of the parent linked to the student and ends that parent's sessions (admins only). */
export async function resetParentPin(ctx: AppContext, principal: Principal, studentId: number, pin: string): Promise<{ parent_id: number }> {
  requireSchoolAdmin(principal);
  const student = await findStudent(principal, studentId);
  if (student.parent_id === null) throw conflict('This student has no linked parent; set its phone_no first');
  await setParentPin(ctx, principal.schoolId, student.parent_id, pin);
  return { parent_id: student.parent_id };
}

const teacherColumns = ['id', 'student_full_name', 'roll_no', 'grade', 'gender', 'date_of_birth', 'blood_group', 'status'] as const;

const teacherView = (s: Pick<Student, (typeof teacherColumns)[number]>) => ({
  id: Number(s.id),
  student_full_name: s.student_full_name,
  roll_no: s.roll_no,
  grade: s.grade,
  gender: s.gender ?? null,
  date_of_birth: day(s.date_of_birth),
  blood_group: s.blood_group ?? null,
  status: s.status,
});

function requireStaff(principal: Principal) {
  if (principal.type !== 'staff') throw forbidden('This is for staff');
}

/**
 * The students assigned to the calling staff member (archived ones left out), by name: one join
 * from staff_students_uq (school, staff) to the students, sorted in the few rows a teacher has.
 */
export async function teacherStudents(ctx: AppContext, principal: Principal, query: { grade?: string } = {}) {
  requireStaff(principal);
  const values: Record<string, unknown> = { school: principal.schoolId, me: principal.userId, archived: 'archived' };
  let grade = '';
  if (query.grade) {
    grade = 'AND s.grade = :grade';
    values.grade = query.grade;
  }
  const rows = await ctx.db.select<Pick<Student, (typeof teacherColumns)[number]>>(
    `SELECT ${teacherColumns.map((c) => `s.${c}`).join(', ')} FROM staff_students a
       JOIN students s ON s.id = a.student_id AND s.school_id = a.school_id
      WHERE a.school_id = :school AND a.staff_id = :me AND s.status <> :archived ${grade}
      ORDER BY s.student_full_name ASC, s.id ASC`,
    values,
  );
  return rows.map(teacherView);
}

/** One student for staff: another school's or an archived one is 404, one not assigned to the caller 403. */
export async function teacherStudentDetail(_ctx: AppContext, principal: Principal, id: number) {
  requireStaff(principal);
  const student = await Student.findOne({ where: { id, school_id: principal.schoolId, status: { [Op.ne]: 'archived' } }, attributes: [...teacherColumns, 'parent_id'], raw: true });
  if (!student) throw notFound('Student');
  await assertAssigned(principal, [id]);
  const parent = student.parent_id === null
    ? null
    : await Parent.findOne({ where: { id: student.parent_id, school_id: principal.schoolId }, attributes: ['father_name', 'mother_name', 'phone_no'], raw: true });
  return { ...teacherView(student), guardian: parent && { father_name: parent.father_name, mother_name: parent.mother_name ?? null, phone_no: parent.phone_no } };
}

/**
 * A parent's child: the first by id, or the one named, which must be theirs and not archived (403
 * otherwise, whoever's it is). No child at all: 404.
 */
export async function studentDetailForParent(ctx: AppContext, principal: Principal, studentId?: number) {
  if (principal.type !== 'parent') throw forbidden('This is for parents');
  const ids = await childIds(ctx, principal.schoolId, principal.userId, { includeArchived: false });
  if (studentId !== undefined && !ids.includes(studentId)) throw forbidden('That student is not linked to you');
  const id = studentId ?? ids[0];
  if (id === undefined) throw new AppError('NOT_FOUND', 'No student is linked to you');
  const [student, parent] = await Promise.all([
    Student.findOne({ where: { id, school_id: principal.schoolId }, attributes: [...teacherColumns], raw: true }),
    Parent.findOne({ where: { id: principal.userId, school_id: principal.schoolId }, attributes: ['father_name', 'mother_name', 'phone_no', 'email'], raw: true }),
  ]);
  if (!student || !parent) throw notFound('Student');
  return {
    student: teacherView(student),
    guardian: { father_name: parent.father_name, mother_name: parent.mother_name ?? null, phone_no: parent.phone_no, email: parent.email ?? null },
  };
}
