import { Op, type Transaction } from 'sequelize';
import { z } from 'zod';
import { email, name, phone } from '../schemas.js';
import { Designation, Staff, StaffStudent, Student } from '../../models/index.js';
import type { CsvRow } from './csv.js';
import { noCounts, type Counts, type ImportError } from './report.js';
import { chunks } from '../batches.js';
import { issuesOf } from './students-import.js';
import { notADesignation } from '../staff/designations.js';

export const staffColumns = ['name', 'designation', 'phone_no', 'email', 'assigned_roll_nos'] as const;
export const requiredStaffColumns = ['name', 'designation', 'phone_no'] as const;

/** One staff member as every format gives it. */
export interface StaffRecord {
  file?: string;
  line: number;
  name: string;
  designation: string;
  phone_no: string;
  email?: string;
  /** Roll numbers of the students assigned to them (added to what they have). */
  assigned_roll_nos: string[];
}

const rollNos = z
  .string()
  .transform((v) => [...new Set(v.split(';').map((r) => r.trim()).filter(Boolean))])
  .pipe(z.array(z.string().max(32, 'a roll number is at most 32 characters')).max(5000));

const staffRow = z.object({
  name: name(),
  designation: name(),
  phone_no: phone(),
  email: email().optional(),
  assigned_roll_nos: rollNos.optional(),
});

export function staffFromCsv(row: CsvRow, file?: string): StaffRecord | ImportError[] {
  const parsed = staffRow.safeParse(row.values);
  if (!parsed.success) return issuesOf(parsed.error, { file, line: row.line });
  const v = parsed.data;
  return { file, line: row.line, name: v.name, designation: v.designation, phone_no: v.phone_no, email: v.email, assigned_roll_nos: v.assigned_roll_nos ?? [] };
}

const at = (r: { file?: string; line: number }) => (r.file ? { file: r.file, line: r.line } : { line: r.line });

type StaffRow = Pick<Staff, 'id' | 'name' | 'designation' | 'phone_no' | 'email' | 'status'>;

/**
 * Staff matched by phone: new ones are created (without a PIN: `reset-pin` lets them in), known ones
 * get the file's name, designation and e-mail; the named students are assigned to them (assignments
 * they already have stay). A designation the school does not have, an e-mail another staff member
 * uses, or a roll number of no student (in the school or earlier in the same import, `rollIds`) is an
 * error on that row. Runs in the caller's transaction; a dry run writes nothing.
 */
export async function applyStaff(
  schoolId: string, records: StaffRecord[], options: { dryRun: boolean; transaction?: Transaction; rollIds?: Map<string, number> },
): Promise<{ counts: Counts; errors: ImportError[] }> {
  const { transaction } = options;
  const counts = noCounts();
  const errors: ImportError[] = [];
  // Locked while the import writes, as a single staff member's designation is (see designationFor).
  const designations = new Map((await Designation.findAll({
    where: { school_id: schoolId }, attributes: ['name'], raw: true, transaction, ...(transaction ? { lock: transaction.LOCK.SHARE } : {}),
  })).map((d) => [d.name.toLowerCase(), d.name]));
  const phones = records.map((r) => r.phone_no);
  const known = new Map<string, StaffRow>();
  for (const batch of chunks([...new Set(phones)])) {
    for (const s of await Staff.findAll({ where: { school_id: schoolId, phone_no: { [Op.in]: batch } }, attributes: ['id', 'name', 'designation', 'phone_no', 'email', 'status'], raw: true, transaction })) {
      known.set(s.phone_no, s as StaffRow);
    }
  }
  const emails = records.flatMap((r) => (r.email ? [r.email] : []));
  const emailOwners = new Map<string, string>();
  for (const batch of chunks([...new Set(emails)])) {
    for (const s of await Staff.findAll({ where: { school_id: schoolId, email: { [Op.in]: batch } }, attributes: ['phone_no', 'email'], raw: true, transaction })) emailOwners.set(s.email!, s.phone_no);
  }
  const rollIds = new Map(options.rollIds ?? []);
  const rolls = [...new Set(records.flatMap((r) => r.assigned_roll_nos))].filter((r) => !rollIds.has(r));
  for (const batch of chunks(rolls)) {
    for (const s of await Student.findAll({ where: { school_id: schoolId, roll_no: { [Op.in]: batch } }, attributes: ['id', 'roll_no'], raw: true, transaction })) rollIds.set(s.roll_no, s.id);
  }

  const seenPhones = new Map<string, number>();
  const seenEmails = new Map<string, string>();
  const plans: Array<{ record: StaffRecord; row?: StaffRow; change: Partial<StaffRow>; designation: string }> = [];
  for (const r of records) {
    const first = seenPhones.get(r.phone_no);
    if (first !== undefined) {
      errors.push({ ...at(r), field: 'phone_no', message: `${r.phone_no} is already on line ${first}` });
      continue;
    }
    seenPhones.set(r.phone_no, r.line);
    const designation = designations.get(r.designation.toLowerCase());
    if (!designation) {
      errors.push({ ...at(r), field: 'designation', message: notADesignation(r.designation) });
      continue;
    }
    if (r.email && ((emailOwners.has(r.email) && emailOwners.get(r.email) !== r.phone_no) || (seenEmails.has(r.email) && seenEmails.get(r.email) !== r.phone_no))) {
      errors.push({ ...at(r), field: 'email', message: `${r.email} belongs to another staff member` });
      continue;
    }
    if (r.email) seenEmails.set(r.email, r.phone_no);
    const missing = r.assigned_roll_nos.filter((roll) => !rollIds.has(roll));
    if (missing.length) {
      errors.push({ ...at(r), field: 'assigned_roll_nos', message: `no student has the roll number ${missing.join(', ')}` });
      continue;
    }
    const row = known.get(r.phone_no);
    const change: Partial<StaffRow> = {};
    if (row) {
      if (r.name !== row.name) change.name = r.name;
      if (designation !== row.designation) change.designation = designation;
      if (r.email && r.email !== row.email) change.email = r.email;
    }
    plans.push({ record: r, row, change, designation });
  }

  // Which assignments each row adds to what the staff member has.
  const existingIds = plans.flatMap((p) => (p.row ? [p.row.id] : []));
  const assigned = new Set<string>();
  for (const batch of chunks(existingIds)) {
    for (const a of await StaffStudent.findAll({ where: { school_id: schoolId, staff_id: { [Op.in]: batch } }, attributes: ['staff_id', 'student_id'], raw: true, transaction })) {
      assigned.add(`${a.staff_id}:${a.student_id}`);
    }
  }
  const additions = (p: (typeof plans)[number], staffId: number | undefined) =>
    p.record.assigned_roll_nos.map((roll) => rollIds.get(roll)!).filter((studentId) => staffId === undefined || !assigned.has(`${staffId}:${studentId}`));
  for (const p of plans) {
    if (!p.row) counts.created++;
    else if (Object.keys(p.change).length || additions(p, p.row.id).length) counts.updated++;
    else counts.unchanged++;
  }
  if (options.dryRun || errors.length > 0) return { counts, errors };

  const fresh = plans.filter((p) => !p.row);
  for (const batch of chunks(fresh)) {
    await Staff.bulkCreate(batch.map((p) => ({
      school_id: schoolId, name: p.record.name, designation: p.designation, phone_no: p.record.phone_no, email: p.record.email ?? null,
    })), { transaction });
  }
  const ids = new Map(plans.flatMap((p) => (p.row ? [[p.record.phone_no, p.row.id] as const] : [])));
  for (const batch of chunks(fresh.map((p) => p.record.phone_no))) {
    for (const s of await Staff.findAll({ where: { school_id: schoolId, phone_no: { [Op.in]: batch } }, attributes: ['id', 'phone_no'], raw: true, transaction })) ids.set(s.phone_no, s.id);
  }
  const changed = plans.filter((p) => p.row && Object.keys(p.change).length);
  for (const batch of chunks(changed)) {
    await Staff.bulkCreate(batch.map((p) => ({ ...p.row!, school_id: schoolId, ...p.change })), { updateOnDuplicate: ['name', 'designation', 'email', 'updated_at'], conflictAttributes: ['id'], transaction });
  }
  const links = plans.flatMap((p) => additions(p, p.row?.id).map((student_id) => ({ school_id: schoolId, staff_id: ids.get(p.record.phone_no)!, student_id })));
  for (const batch of chunks(links)) await StaffStudent.bulkCreate(batch, { ignoreDuplicates: true, transaction });
  return { counts, errors };
}
