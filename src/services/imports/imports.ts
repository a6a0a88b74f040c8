import type { Readable } from 'node:stream';
import type { Transaction } from 'sequelize';
import { z } from 'zod';
import type { AppContext, Principal } from '../../context.js';
import { AppError } from '../../errors.js';
import { requireSchoolAdmin } from '../access/guards.js';
import { parseInput } from '../validation.js';
import { missingColumns, readCsv } from './csv.js';
import { filesFromFolder, filesFromZip, rosterRecords, type RosterFiles } from './oneroster.js';
import { addCounts, groupsReport, importKinds, noCounts, type Counts, type ImportError, type ImportKind, type ImportReport } from './report.js';
import { applyStaff, requiredStaffColumns, staffFromCsv, type StaffRecord } from './staff-import.js';
import { chunks } from '../batches.js';
import { applyStudents, checkStudents, guardianConflicts, requiredStudentColumns, studentFromCsv, type StudentRecord } from './students-import.js';
import { recordAudit } from '../audit/audit.js';

export { importKinds, type ImportKind, type ImportReport };

const flag = z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]);

export const importOptionsInput = z.object({
  kind: z.enum(importKinds).describe('students or staff (the school\'s own CSV), or oneroster (a OneRoster 1.1 / 1.2 bulk set as a .zip)'),
  dry_run: flag.default(false).describe('true: check the file and count what it would do, writing nothing'),
  partial: flag.default(false).describe('true: apply the valid rows and report the others; false (default): any invalid row and nothing is written'),
});
export type ImportOptions = z.input<typeof importOptionsInput>;

/** What an import reads: a CSV file's bytes (or a stream of them), a OneRoster .zip, or a folder of a OneRoster set. */
export type ImportSource = { csv: Buffer | Readable } | { zip: Buffer } | { folder: string };

/** The largest file an import takes (the API answers 413 above it). */
export const IMPORT_MAX_BYTES = 20 * 1024 * 1024;


interface Parsed {
  students: StudentRecord[];
  staff: StaffRecord[];
  errors: ImportError[];
  rows: number;
}

async function parse(kind: ImportKind, source: ImportSource): Promise<Parsed> {
  if (kind === 'oneroster') {
    let files: RosterFiles;
    try {
      files = 'zip' in source ? await filesFromZip(source.zip) : 'folder' in source ? await filesFromFolder(source.folder) : new Map();
    } catch (err) {
      return { students: [], staff: [], rows: 0, errors: [{ line: 1, field: 'file', message: (err as Error).message }] };
    }
    if (!('zip' in source || 'folder' in source)) return { students: [], staff: [], rows: 0, errors: [{ line: 1, field: 'file', message: 'a OneRoster set comes as a .zip (or, from the command line, a folder)' }] };
    const r = await rosterRecords(files);
    const conflicts = guardianConflicts(r.students);
    return { students: withoutLines(r.students, conflicts), staff: r.staff, errors: [...r.errors, ...conflicts], rows: r.rows };
  }
  if (!('csv' in source)) return { students: [], staff: [], rows: 0, errors: [{ line: 1, field: 'file', message: `a ${kind} import is a CSV file` }] };
  const table = await readCsv(`${kind}.csv`, source.csv);
  const bare = (e: ImportError): ImportError => ({ line: e.line, field: e.field, message: e.message });
  if (table.error) return { students: [], staff: [], rows: 0, errors: [bare(table.error)] };
  const missing = missingColumns(table, kind === 'students' ? requiredStudentColumns : requiredStaffColumns).map(bare);
  if (missing.length) return { students: [], staff: [], rows: table.rows.length, errors: missing };
  const out: Parsed = { students: [], staff: [], errors: table.rowErrors.map(bare), rows: table.rows.length + table.rowErrors.filter((e) => e.line > 1).length };
  for (const row of table.rows) {
    const record = kind === 'students' ? studentFromCsv(row) : staffFromCsv(row);
    if (Array.isArray(record)) out.errors.push(...record);
    else if (kind === 'students') out.students.push(record as StudentRecord);
    else out.staff.push(record as StaffRecord);
  }
  // A row that disagrees with an earlier one on their guardian is not applied, partial or not.
  const conflicts = guardianConflicts(out.students).map(bare);
  out.errors.push(...conflicts);
  out.students = withoutLines(out.students, conflicts);
  return out;
}

/** Thrown inside the import's transaction to undo it. */
class Undo extends Error {}

const byPosition = (a: ImportError, b: ImportError) => (a.file ?? '').localeCompare(b.file ?? '') || a.line - b.line || a.field.localeCompare(b.field);
const withoutLines = <T extends { file?: string; line: number }>(records: T[], errors: ImportError[]) => {
  const bad = new Set(errors.map((e) => `${e.file ?? ''}:${e.line}`));
  return records.filter((r) => !bad.has(`${r.file ?? ''}:${r.line}`));
};

/**
 * A roster import for the caller's school (super_admin, admin; the operator from the command line):
 * students matched by roll number, staff and guardians by phone, so the same file twice changes
 * nothing. By default all or nothing: a file with any invalid row writes nothing and the report lists
 * every invalid row by line and field (the API answers 422). `partial` applies the valid rows, one
 * transaction a batch; `dry_run` checks and counts without writing. `progress` hears of each batch.
 */
export async function runImport(
  ctx: AppContext, principal: Principal, options: ImportOptions, source: ImportSource, progress?: (done: number, total: number) => void,
): Promise<ImportReport> {
  requireSchoolAdmin(principal);
  const o = parseInput(importOptionsInput, options);
  const school = principal.schoolId;
  const parsed = await parse(o.kind, source);
  const report = (counts: Counts, errors: ImportError[], applied: boolean): ImportReport => ({
    kind: o.kind, dry_run: o.dry_run, partial: o.partial, rows: parsed.rows, ...counts, ...groupsReport(counts), errors: [...errors].sort(byPosition), applied,
  });

  // Every check, against the school as it is, before anything is written: the report lists all the errors at once.
  const checked = await checkStudents(school, parsed.students);
  const planned = await applyStudents(ctx, school, checked.valid, { dryRun: true });
  const plannedRolls = new Map([...planned.ids, ...checked.valid.map((r) => [r.roll_no, planned.ids.get(r.roll_no) ?? 0] as const)]);
  // A teacher of a student the set refuses (its own error says why) keeps the rest of their class.
  const accepted = withoutLines(checked.valid, planned.errors);
  const acceptedRolls = new Set(accepted.map((r) => r.roll_no));
  const refused = new Set(parsed.students.filter((r) => !acceptedRolls.has(r.roll_no)).map((r) => r.roll_no));
  for (const record of parsed.staff) record.assigned_roll_nos = record.assigned_roll_nos.filter((roll) => !refused.has(roll));
  const staffPlan = await applyStaff(school, parsed.staff, { dryRun: true, rollIds: plannedRolls });
  const errors = [...parsed.errors, ...checked.errors, ...planned.errors, ...staffPlan.errors];
  progress?.(0, parsed.students.length + parsed.staff.length);
  if (o.dry_run) return report(addCounts(planned.counts, staffPlan.counts), errors, false);
  if (errors.length && !o.partial) return report(noCounts(), errors, false);

  const students = accepted;
  const staff = withoutLines(parsed.staff, staffPlan.errors);
  const total = students.length + staff.length;
  const counts = noCounts();
  let done = 0;
  const inTransaction = <T>(work: (t: Transaction) => Promise<T>) => ctx.db.sequelize.transaction(work);
  const applyAll = async (transaction?: Transaction) => {
    const ids = new Map<string, number>();
    for (const batch of chunks(students)) {
      const run = async (t: Transaction) => {
        const r = await applyStudents(ctx, school, batch, { dryRun: false, transaction: t });
        if (r.errors.length) throw new Undo(JSON.stringify(r.errors));
        return r;
      };
      const r = transaction ? await run(transaction) : await inTransaction(run);
      for (const [roll, id] of r.ids) ids.set(roll, id);
      addCounts(counts, r.counts);
      progress?.((done += batch.length), total);
    }
    for (const batch of chunks(staff)) {
      const run = async (t: Transaction) => {
        const r = await applyStaff(school, batch, { dryRun: false, transaction: t, rollIds: ids });
        if (r.errors.length) throw new Undo(JSON.stringify(r.errors));
        return r;
      };
      addCounts(counts, (transaction ? await run(transaction) : await inTransaction(run)).counts);
      progress?.((done += batch.length), total);
    }
  };
  try {
    if (o.partial) await applyAll();
    else await inTransaction(applyAll);
  } catch (err) {
    // The school changed between the check and the write (another import, an edit): nothing of this batch stays.
    if (err instanceof Undo) return report(counts, [...errors, ...(JSON.parse(err.message) as ImportError[])], o.partial && done > 0);
    throw err;
  }
  const applied = report(counts, o.partial ? errors : [], true);
  // The rows' own events say what changed; this one says which import it was.
  await recordAudit([{ schoolId: school, action: 'import.apply', entityType: 'import', entityId: null, changes: { import: [null, { kind: o.kind, partial: o.partial, rows: parsed.rows, ...counts, ...groupsReport(counts) }] } }]);
  return applied;
}

/** The API's 422 for an all-or-nothing import that had errors: the report in `data`, its errors as `details`. */
export function rejectedImport(report: ImportReport): AppError {
  return new AppError('UNPROCESSABLE', `The file has ${report.errors.length} invalid row(s); nothing was imported`, report.errors as unknown as Array<Record<string, unknown>>, undefined, report);
}
