import { Op, type Transaction } from 'sequelize';
import { z } from 'zod';
import { email, name, phone } from '../schemas.js';
import type { AppContext } from '../../context.js';
import { day } from '../../db.js';
import { Address, Grade, Group, GroupMember, Parent, School, Student } from '../../models/index.js';
import { enqueue, type OutboxItem } from '../../push/outbox.js';
import { newPinSetup, pinSetupMessage } from '../admission/admission.js';
import { addressInput } from '../staff/staff.js';
import { rollNoInput, studentFields } from '../students/students.js';
import { chunks } from '../batches.js';
import type { CsvRow } from './csv.js';
import { applyGroups } from './groups-import.js';
import { distinctNames } from '../groups/groups.js';
import { noCounts, type Counts, type ImportError } from './report.js';

/** The school's own students file: its columns, and the ones a row cannot do without. */
export const studentColumns = [
  'roll_no', 'student_full_name', 'gender', 'grade', 'date_of_birth', 'blood_group', 'phone_no', 'father_name', 'mother_name', 'email',
  'address', 'city', 'pincode', 'groups',
] as const;
export const requiredStudentColumns = ['roll_no', 'student_full_name', 'grade'] as const;

/** One student as every format gives it, with where it came from. */
export interface StudentRecord {
  file?: string;
  line: number;
  roll_no: string;
  student_full_name: string;
  gender?: string;
  grade: string;
  /** The file's column the grade came from, which its error names: `grade` unless said (OneRoster's `grades`). */
  gradeColumn?: string;
  date_of_birth?: string;
  blood_group?: string;
  guardian?: { phone_no: string; father_name?: string; mother_name?: string; email?: string };
  address?: { address: string; city?: string; pincode?: number };
  groups: string[];
}

export const groupNames = z
  .string()
  .transform((v) => [...new Set(v.split(';').map((g) => g.trim()).filter(Boolean))])
  .pipe(z.array(z.string().max(120, 'a group name is at most 120 characters')).max(50));

const studentRow = z.object({
  roll_no: rollNoInput(),
  student_full_name: studentFields.student_full_name,
  gender: studentFields.gender.unwrap().unwrap().optional(),
  grade: studentFields.grade,
  date_of_birth: studentFields.date_of_birth.unwrap().unwrap().optional(),
  blood_group: studentFields.blood_group.unwrap().unwrap().optional(),
  phone_no: phone().optional(),
  father_name: name().optional(),
  mother_name: name().optional(),
  email: email().optional(),
  address: addressInput.shape.address.optional(),
  city: z.string().trim().max(120).optional(),
  pincode: z.coerce.number().int().min(1).max(99_999_999).optional(),
  groups: groupNames.optional(),
});

/** A row's schema errors, one per field (the first said of it). */
export function issuesOf(error: z.ZodError, at: { file?: string; line: number }): ImportError[] {
  const byField = new Map<string, string>();
  for (const i of error.issues) {
    const field = String(i.path[0] ?? 'row');
    if (!byField.has(field)) byField.set(field, i.message);
  }
  return [...byField].map(([field, message]) => ({ ...(at.file ? { file: at.file } : {}), line: at.line, field, message }));
}

/** A row of the students file as a record, or the errors naming its fields. */
export function studentFromCsv(row: CsvRow, file?: string): StudentRecord | ImportError[] {
  const parsed = studentRow.safeParse(row.values);
  if (!parsed.success) return issuesOf(parsed.error, { file, line: row.line });
  const v = parsed.data;
  const guardianOnly = !v.phone_no && (v.father_name || v.mother_name || v.email);
  if (guardianOnly) return [{ ...(file ? { file } : {}), line: row.line, field: 'phone_no', message: "is needed to name the guardian (parents are matched by phone)" }];
  if (!v.address && (v.city || v.pincode)) return [{ ...(file ? { file } : {}), line: row.line, field: 'address', message: 'is needed with city or pincode' }];
  return {
    file, line: row.line, roll_no: v.roll_no, student_full_name: v.student_full_name, gender: v.gender, grade: v.grade,
    date_of_birth: v.date_of_birth, blood_group: v.blood_group,
    guardian: v.phone_no ? { phone_no: v.phone_no, father_name: v.father_name, mother_name: v.mother_name, email: v.email } : undefined,
    address: v.address ? { address: v.address, city: v.city, pincode: v.pincode } : undefined,
    groups: v.groups ?? [],
  };
}


/** Rows read in batches of keys, never one statement a row. */
async function byKeys<T>(keys: string[], read: (batch: string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  for (const batch of chunks([...new Set(keys)])) out.push(...(await read(batch)));
  return out;
}

const at = (r: { file?: string; line: number }) => (r.file ? { file: r.file, line: r.line } : { line: r.line });

/**
 * The errors that need the school's data: a grade the school does not have, a roll number twice in
 * the file, an archived student the file would change. The records that pass go on.
 */
export async function checkStudents(schoolId: string, records: StudentRecord[], transaction?: Transaction): Promise<{ valid: StudentRecord[]; errors: ImportError[] }> {
  const grades = new Set((await Grade.findAll({ where: { school_id: schoolId }, attributes: ['name'], raw: true, transaction })).map((g) => g.name));
  const seen = new Map<string, number>();
  const errors: ImportError[] = [];
  const valid: StudentRecord[] = [];
  for (const r of records) {
    const first = seen.get(r.roll_no);
    if (first !== undefined) {
      errors.push({ ...at(r), field: 'roll_no', message: `${r.roll_no} is already on line ${first}` });
      continue;
    }
    seen.set(r.roll_no, r.line);
    if (!grades.has(r.grade)) {
      errors.push({ ...at(r), field: r.gradeColumn ?? 'grade', message: `"${r.grade}" is not one of the school's grades` });
      continue;
    }
    valid.push(r);
  }
  return { valid, errors };
}

type StudentRow = Pick<Student, 'id' | 'roll_no' | 'student_full_name' | 'gender' | 'grade' | 'date_of_birth' | 'blood_group' | 'phone_no' | 'parent_id' | 'status'>;
type ParentRow = Pick<Parent, 'id' | 'phone_no' | 'father_name' | 'mother_name' | 'email' | 'unverified_email'>;
type AddressRow = Pick<Address, 'id' | 'owner_id' | 'address' | 'city' | 'pincode'>;

const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

/**
 * Rows naming one guardian phone agree on that guardian's names and e-mail (a row that leaves one
 * empty agrees with any): otherwise which the parent got would hang on the rows' order, and each
 * import of the file would change them back and forth.
 */
export function guardianConflicts(records: StudentRecord[]): ImportError[] {
  // Per phone, the first value each field was given and the line it came on.
  const seen = new Map<string, Partial<Record<'father_name' | 'mother_name' | 'email', { value: string; line: number }>>>();
  const errors: ImportError[] = [];
  for (const r of records) {
    if (!r.guardian) continue;
    const known = seen.get(r.guardian.phone_no) ?? {};
    seen.set(r.guardian.phone_no, known);
    for (const field of ['father_name', 'mother_name', 'email'] as const) {
      const value = r.guardian[field];
      if (!value) continue;
      const before = known[field];
      if (!before) known[field] = { value, line: r.line };
      else if (before.value !== value) errors.push({ file: r.file, line: r.line, field, message: `differs from line ${before.line} for the same guardian phone` });
    }
  }
  return errors;
}

/**
 * Matches the records against the school (students by roll number, guardians by phone), then, unless
 * it is a dry run, writes what differs in batches: new guardians (without a PIN, each sent a set-up
 * link by SMS through the outbox), new and changed students, their current address, their groups.
 * A value the file leaves empty keeps what the school has. Runs in the caller's transaction.
 */
export async function applyStudents(
  ctx: AppContext, schoolId: string, records: StudentRecord[], options: { dryRun: boolean; transaction?: Transaction },
): Promise<{ counts: Counts; errors: ImportError[]; ids: Map<string, number> }> {
  const { transaction } = options;
  const counts = noCounts();
  const errors: ImportError[] = [];
  const students = new Map(
    (await byKeys(records.map((r) => r.roll_no), (batch) => Student.findAll({
      where: { school_id: schoolId, roll_no: { [Op.in]: batch } },
      attributes: ['id', 'roll_no', 'student_full_name', 'gender', 'grade', 'date_of_birth', 'blood_group', 'phone_no', 'parent_id', 'status'],
      raw: true, transaction,
    }))).map((s) => [s.roll_no, s as StudentRow]),
  );
  const guardians = records.flatMap((r) => (r.guardian ? [r.guardian] : []));
  const parents = new Map(
    (await byKeys(guardians.map((g) => g.phone_no), (batch) => Parent.findAll({
      where: { school_id: schoolId, phone_no: { [Op.in]: batch } }, attributes: ['id', 'phone_no', 'father_name', 'mother_name', 'email', 'unverified_email'], raw: true, transaction,
    }))).map((p) => [p.phone_no, p as ParentRow]),
  );
  const existingIds = [...students.values()].map((s) => String(s.id));
  const addresses = new Map(
    (await byKeys(existingIds, (batch) => Address.findAll({
      where: { school_id: schoolId, owner_type: 'student', address_type: 'current', owner_id: { [Op.in]: batch.map(Number) } },
      attributes: ['id', 'owner_id', 'address', 'city', 'pincode'], order: [['id', 'ASC']], raw: true, transaction,
    }))).reverse().map((a) => [a.owner_id, a as AddressRow]),
  );

  // The groups each known student is in, by name without case.
  const groupsOf = new Map<number, Set<string>>();
  const names = new Map<number, string>();
  if (records.some((r) => r.groups.length)) {
    for (const g of await Group.findAll({ where: { school_id: schoolId, deleted_key: 0 }, attributes: ['id', 'name'], raw: true, transaction })) names.set(g.id, g.name.toLowerCase());
    for (const m of await byKeys(existingIds, (batch) => GroupMember.findAll({
      where: { school_id: schoolId, student_id: { [Op.in]: batch.map(Number) } }, attributes: ['student_id', 'group_id'], raw: true, transaction,
    }))) {
      const name = names.get(m.group_id);
      if (name) groupsOf.set(m.student_id, (groupsOf.get(m.student_id) ?? new Set()).add(name));
    }
  }

  // Guardians: a phone new to the school becomes one parent, however many rows name it.
  const newParents = new Map<string, NonNullable<StudentRecord['guardian']>>();
  const parentChanges = new Map<number, Partial<ParentRow>>();
  for (const g of guardians) {
    const known = parents.get(g.phone_no);
    if (!known) {
      if (!newParents.has(g.phone_no)) newParents.set(g.phone_no, g);
      continue;
    }
    const change: Partial<ParentRow> = { ...parentChanges.get(known.id) };
    for (const field of ['father_name', 'mother_name'] as const) if (g[field] && !same(g[field], known[field])) change[field] = g[field];
    // An address from the school's roster counts as verified, the one the parent has yet to confirm too.
    if (g.email && (!same(g.email, known.email) || known.unverified_email !== null)) Object.assign(change, { email: g.email, unverified_email: null });
    if (Object.keys(change).length) parentChanges.set(known.id, change);
  }

  const fresh: StudentRecord[] = [];
  const changed: Array<{ record: StudentRecord; row: StudentRow; change: Partial<StudentRow> }> = [];
  const addressWrites: StudentRecord[] = [];
  const groupWrites: StudentRecord[] = [];
  for (const r of records) {
    const row = students.get(r.roll_no);
    if (!row) {
      fresh.push(r);
      continue;
    }
    const change: Partial<StudentRow> = {};
    for (const field of ['student_full_name', 'gender', 'grade', 'date_of_birth', 'blood_group'] as const) {
      const value = r[field];
      if (value !== undefined && !same(value, field === 'date_of_birth' ? day(row[field]) : row[field])) (change as Record<string, unknown>)[field] = value;
    }
    if (r.guardian && !same(r.guardian.phone_no, row.phone_no)) change.phone_no = r.guardian.phone_no;
    const address = addresses.get(row.id);
    const addressDiffers = r.address && (!address || !same(r.address.address, address.address) || (r.address.city !== undefined && !same(r.address.city, address.city))
      || (r.address.pincode !== undefined && !same(r.address.pincode, address.pincode)));
    const parentDiffers = r.guardian && parents.has(r.guardian.phone_no) && parentChanges.has(parents.get(r.guardian.phone_no)!.id);
    const groupsDiffer = r.groups.some((g) => !groupsOf.get(row.id)?.has(g.toLowerCase()));
    if (Object.keys(change).length === 0 && !addressDiffers && !parentDiffers && !groupsDiffer) {
      counts.unchanged++;
      continue;
    }
    if (row.status === 'archived') {
      errors.push({ ...at(r), field: 'roll_no', message: `${r.roll_no} is an archived student: restore it before changing it` });
      continue;
    }
    changed.push({ record: r, row, change });
    if (addressDiffers) addressWrites.push(r);
    if (groupsDiffer) groupWrites.push(r);
  }
  counts.created = fresh.length;
  counts.updated = changed.length;
  counts.guardians_created = newParents.size;
  const grouped = [...fresh, ...groupWrites].filter((r) => r.groups.length);
  const known = new Set(names.values());
  counts.new_groups = distinctNames(grouped.flatMap((r) => r.groups)).filter((g) => !known.has(g.toLowerCase()));
  const ids = new Map([...students.values()].map((s) => [s.roll_no, s.id]));
  if (options.dryRun || errors.length > 0) return { counts, errors, ids };

  // Guardians first: the students link to them.
  const setups = new Map<string, ReturnType<typeof newPinSetup>>();
  for (const batch of chunks([...newParents.values()])) {
    await Parent.bulkCreate(batch.map((g) => {
      const setup = newPinSetup(ctx, schoolId);
      setups.set(g.phone_no, setup);
      return {
        school_id: schoolId, phone_no: g.phone_no, father_name: g.father_name ?? null, mother_name: g.mother_name ?? null, email: g.email ?? null,
        pin_setup_token_hash: setup.fields.pin_setup_token_hash, pin_setup_expires_at: setup.fields.pin_setup_expires_at,
      };
    }), { transaction });
  }
  if (newParents.size) {
    for (const p of await byKeys([...newParents.keys()], (batch) => Parent.findAll({
      where: { school_id: schoolId, phone_no: { [Op.in]: batch } }, attributes: ['id', 'phone_no', 'father_name', 'mother_name', 'email', 'unverified_email'], raw: true, transaction,
    }))) parents.set(p.phone_no, p as ParentRow);
  }
  const knownParents = new Map([...parents.values()].map((p) => [p.id, p]));
  // Upserts by id name the key they meet: SQLite's ON CONFLICT must name one constraint, and
  // Sequelize would otherwise list the columns of every unique key of the table.
  for (const batch of chunks([...parentChanges])) {
    await Parent.bulkCreate(batch.map(([id, change]) => ({ ...knownParents.get(id)!, school_id: schoolId, ...change })), {
      updateOnDuplicate: ['father_name', 'mother_name', 'email', 'unverified_email', 'updated_at'], conflictAttributes: ['id'], transaction,
    });
  }

  const parentOf = (r: StudentRecord) => (r.guardian ? parents.get(r.guardian.phone_no)!.id : null);
  for (const batch of chunks(fresh)) {
    await Student.bulkCreate(batch.map((r) => ({
      school_id: schoolId, roll_no: r.roll_no, student_full_name: r.student_full_name, gender: r.gender ?? null, grade: r.grade,
      date_of_birth: r.date_of_birth ?? null, blood_group: r.blood_group ?? null, phone_no: r.guardian?.phone_no ?? null, parent_id: parentOf(r), status: 'active' as const,
    })), { transaction });
  }
  for (const s of await byKeys(fresh.map((r) => r.roll_no), (batch) => Student.findAll({
    where: { school_id: schoolId, roll_no: { [Op.in]: batch } }, attributes: ['id', 'roll_no'], raw: true, transaction,
  }))) ids.set(s.roll_no, s.id);

  // Changed students in one upsert a batch, keyed by their ids (every column given, as an insert needs).
  for (const batch of chunks(changed.filter((c) => Object.keys(c.change).length || c.record.guardian))) {
    await Student.bulkCreate(batch.map(({ record, row, change }) => ({
      id: row.id, school_id: schoolId, roll_no: row.roll_no, student_full_name: row.student_full_name, gender: row.gender, grade: row.grade,
      date_of_birth: day(row.date_of_birth), blood_group: row.blood_group, phone_no: row.phone_no, status: row.status, ...change,
      parent_id: record.guardian ? parentOf(record) : row.parent_id,
    })), { updateOnDuplicate: ['student_full_name', 'gender', 'grade', 'date_of_birth', 'blood_group', 'phone_no', 'parent_id', 'updated_at'], conflictAttributes: ['id'], transaction });
  }

  const addressRows = [...fresh.filter((r) => r.address), ...addressWrites].map((r) => {
    const owner = ids.get(r.roll_no)!;
    const known = addresses.get(owner);
    return {
      ...(known ? { id: known.id } : {}), school_id: schoolId, owner_type: 'student' as const, owner_id: owner, address_type: 'current',
      address: r.address!.address, city: r.address!.city ?? known?.city ?? null, pincode: r.address!.pincode ?? known?.pincode ?? null,
    };
  });
  for (const batch of chunks(addressRows.filter((a) => !('id' in a)))) await Address.bulkCreate(batch, { transaction });
  for (const batch of chunks(addressRows.filter((a) => 'id' in a))) {
    await Address.bulkCreate(batch, { updateOnDuplicate: ['address', 'city', 'pincode', 'updated_at'], conflictAttributes: ['id'], transaction });
  }

  counts.new_groups = await applyGroups(schoolId, grouped.map((r) => ({ studentId: ids.get(r.roll_no)!, groups: r.groups })), transaction);

  if (newParents.size) {
    const school = await School.findByPk(schoolId, { attributes: ['name', 'country'], raw: true, transaction });
    const firstChild = new Map<string, number>();
    for (const r of records) if (r.guardian && newParents.has(r.guardian.phone_no) && !firstChild.has(r.guardian.phone_no)) firstChild.set(r.guardian.phone_no, ids.get(r.roll_no)!);
    const messages: OutboxItem[] = [...newParents.keys()].map((phoneNo) =>
      pinSetupMessage(ctx, { name: school?.name ?? schoolId, country: school?.country ?? null }, { id: parents.get(phoneNo)!.id, school_id: schoolId, phone_no: phoneNo }, firstChild.get(phoneNo)!, setups.get(phoneNo)!,
        "your child's school has registered you as a parent"));
    for (const batch of chunks(messages)) await enqueue(batch, transaction);
  }
  return { counts, errors, ids };
}
