import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import yauzl from 'yauzl';
import { date, email, phone } from '../schemas.js';
import { readCsv, type CsvRow, type CsvTable } from './csv.js';
import type { ImportError } from './report.js';
import type { StaffRecord } from './staff-import.js';
import type { StudentRecord } from './students-import.js';

/** The files of a OneRoster bulk set this import reads; `demographics.csv` and (1.2) `roles.csv` are optional. */
const required = ['orgs.csv', 'users.csv', 'classes.csv', 'enrollments.csv'];
const optional = ['demographics.csv', 'roles.csv'];
/** A set unpacks to at most this much: a zip that claims more is refused rather than inflated. */
const MAX_UNPACKED_BYTES = 200 * 1024 * 1024;

export type RosterFiles = Map<string, Buffer>;

/** The set's CSV files from a .zip, by their base names (a set may sit in a folder inside the archive). */
export function filesFromZip(zip: Buffer): Promise<RosterFiles> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (err, archive) => {
      if (err || !archive) return reject(new Error('the file is not a zip archive'));
      const files: RosterFiles = new Map();
      let unpacked = 0;
      archive.on('error', reject);
      archive.on('end', () => resolve(files));
      archive.on('entry', (entry: yauzl.Entry) => {
        const base = path.posix.basename(entry.fileName).toLowerCase();
        if (entry.fileName.endsWith('/') || ![...required, ...optional].includes(base)) return archive.readEntry();
        unpacked += entry.uncompressedSize;
        if (unpacked > MAX_UNPACKED_BYTES) return reject(new Error('the archive unpacks to more than 200 MiB'));
        archive.openReadStream(entry, (openErr, stream) => {
          if (openErr || !stream) return reject(openErr ?? new Error(`${entry.fileName} cannot be read`));
          const parts: Buffer[] = [];
          stream.on('data', (d: Buffer) => parts.push(d));
          stream.on('error', reject);
          stream.on('end', () => {
            files.set(base, Buffer.concat(parts));
            archive.readEntry();
          });
        });
      });
      archive.readEntry();
    });
  });
}

/** The set's CSV files from a folder (the command line's `--file DIR`). */
export async function filesFromFolder(dir: string): Promise<RosterFiles> {
  const files: RosterFiles = new Map();
  for (const name of await readdir(dir)) {
    const base = name.toLowerCase();
    if ([...required, ...optional].includes(base) && (await stat(path.join(dir, name))).isFile()) files.set(base, await readFile(path.join(dir, name)));
  }
  return files;
}

/** OneRoster grade codes as the school's grades; any other value must name one of the school's grades itself. */
export function gradeOf(code: string): string {
  const c = code.trim().toUpperCase();
  if (/^(0?[1-9]|1[0-2])$/.test(c)) return String(Number(c));
  return ({ KG: 'UKG', PK: 'LKG', PR: 'Nursery', IT: 'Nursery' } as Record<string, string>)[c] ?? code.trim();
}

const list = (v: string | undefined) => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean);
const fullName = (v: Record<string, string>) => [v.givenname, v.familyname].filter(Boolean).join(' ');
const guardianRoles = new Set(['parent', 'guardian', 'relative']);
const genders: Record<string, string> = { male: 'male', m: 'male', female: 'female', f: 'female', other: 'other' };
const phoneOf = (v: Record<string, string>) => v.phone ?? v.sms;
const where = (table: CsvTable, row: CsvRow) => ({ file: table.file, line: row.line });

export interface RosterRecords {
  /** The users it read as students and teachers, imported or refused. */
  rows: number;
  students: StudentRecord[];
  staff: StaffRecord[];
  errors: ImportError[];
}

/**
 * A OneRoster 1.1 set (each user's `role` in users.csv) or 1.2 (roles in roles.csv) as the records the
 * CSV imports take: students (roll number from `identifier`, guardians from `agentSourcedIds`, whose
 * `phone` or `sms` is the parent's phone), teachers (designation Subject Teacher, assigned the
 * students of the classes they teach) and each class as a group named by its title.
 */
export async function rosterRecords(files: RosterFiles): Promise<RosterRecords> {
  const errors: ImportError[] = required.filter((f) => !files.has(f)).map((f) => ({ file: f, line: 1, field: 'file', message: 'is missing from the OneRoster set' }));
  if (errors.length) return { rows: 0, students: [], staff: [], errors };
  // A row that cannot be read is reported with the others, after the files' own refusals.
  const unreadRows: ImportError[] = [];
  const table = async (name: string) => {
    const t = await readCsv(name, files.get(name)!);
    if (t.error) errors.push(t.error);
    unreadRows.push(...t.rowErrors);
    return t;
  };
  const users = await table('users.csv');
  const classes = await table('classes.csv');
  const enrollments = await table('enrollments.csv');
  const demographics = files.has('demographics.csv') ? await table('demographics.csv') : undefined;
  const roles = files.has('roles.csv') ? await table('roles.csv') : undefined;
  if (errors.length) return { rows: 0, students: [], staff: [], errors };
  for (const [t, columns] of [[users, ['sourcedid', 'givenname', 'familyname']], [classes, ['sourcedid', 'title']], [enrollments, ['classsourcedid', 'usersourcedid', 'role']]] as const) {
    for (const c of columns) if (!t.columns.includes(c)) errors.push({ file: t.file, line: 1, field: c, message: 'is a required column and the header lacks it' });
  }
  if (!roles && !users.columns.includes('role')) errors.push({ file: 'users.csv', line: 1, field: 'role', message: 'is needed in users.csv (OneRoster 1.1) when the set has no roles.csv (1.2)' });
  if (errors.length) return { rows: 0, students: [], staff: [], errors };
  errors.push(...unreadRows);

  const active = (row: CsvRow) => (row.values.status ?? 'active').toLowerCase() !== 'tobedeleted';
  const userRows = users.rows.filter(active);
  const byId = new Map(userRows.map((r) => [r.values.sourcedid!, r]));
  const roleOf = new Map<string, string>();
  if (roles) {
    // A user's primary role wins over a secondary one.
    for (const r of roles.rows.filter(active)) {
      const user = r.values.usersourcedid;
      if (!user || !r.values.role) continue;
      if (!roleOf.has(user) || (r.values.roletype ?? '').toLowerCase() === 'primary') roleOf.set(user, r.values.role.toLowerCase());
    }
  } else {
    for (const r of userRows) if (r.values.role) roleOf.set(r.values.sourcedid!, r.values.role.toLowerCase());
  }
  const demographicsOf = new Map((demographics?.rows ?? []).map((r) => [r.values.sourcedid, r]));
  const classTitle = new Map(classes.rows.filter(active).map((r) => [r.values.sourcedid!, r.values.title!]));
  const classStudents = new Map<string, string[]>();
  const classTeachers = new Map<string, string[]>();
  for (const e of enrollments.rows.filter(active)) {
    const into = e.values.role?.toLowerCase() === 'student' ? classStudents : e.values.role?.toLowerCase() === 'teacher' ? classTeachers : null;
    if (!into || !classTitle.has(e.values.classsourcedid!)) continue;
    into.set(e.values.classsourcedid!, [...(into.get(e.values.classsourcedid!) ?? []), e.values.usersourcedid!]);
  }

  const students: StudentRecord[] = [];
  const rollOf = new Map<string, string>();
  const groupsOf = new Map<string, string[]>();
  for (const [classId, members] of classStudents) for (const m of members) groupsOf.set(m, [...(groupsOf.get(m) ?? []), classTitle.get(classId)!]);
  for (const row of userRows) {
    const v = row.values;
    if (roleOf.get(v.sourcedid!) !== 'student') continue;
    const at = where(users, row);
    if (!v.identifier) {
      errors.push({ ...at, field: 'identifier', message: "is the student's roll number and is required" });
      continue;
    }
    const gradeCode = list(v.grades)[0];
    if (!gradeCode) {
      errors.push({ ...at, field: 'grades', message: 'is required for a student' });
      continue;
    }
    const demo = demographicsOf.get(v.sourcedid);
    const guardianRow = list(v.agentsourcedids).map((id) => byId.get(id)).find((g) => g && guardianRoles.has(roleOf.get(g.values.sourcedid!) ?? '') && phoneOf(g.values));
    // Every value of the student's guardian and demographics rows that cannot be taken is reported, not dropped.
    const problems: ImportError[] = [];
    let guardian: StudentRecord['guardian'];
    if (guardianRow) {
      const parsed = phone().safeParse(phoneOf(guardianRow.values));
      const mail = guardianRow.values.email ? email().safeParse(guardianRow.values.email) : undefined;
      if (!parsed.success) problems.push({ ...where(users, guardianRow), field: guardianRow.values.phone ? 'phone' : 'sms', message: parsed.error.issues[0]!.message });
      if (mail && !mail.success) problems.push({ ...where(users, guardianRow), field: 'email', message: 'is not a valid e-mail address' });
      if (parsed.success) guardian = { phone_no: parsed.data, father_name: fullName(guardianRow.values) || undefined, email: mail?.data };
    }
    if (demo && demographics) {
      if (demo.values.birthdate && !date().safeParse(demo.values.birthdate).success) problems.push({ ...where(demographics, demo), field: 'birthDate', message: 'is not a date YYYY-MM-DD' });
      if (demo.values.sex && !genders[demo.values.sex.toLowerCase()]) problems.push({ ...where(demographics, demo), field: 'sex', message: 'must be one of male, female or other (or left empty)' });
    }
    if (problems.length) {
      errors.push(...problems);
      continue;
    }
    rollOf.set(v.sourcedid!, v.identifier);
    students.push({
      file: users.file, line: row.line, roll_no: v.identifier, student_full_name: fullName(v) || v.identifier, grade: gradeOf(gradeCode), gradeColumn: 'grades',
      gender: demo?.values.sex ? genders[demo.values.sex.toLowerCase()] : undefined, date_of_birth: demo?.values.birthdate, guardian, groups: groupsOf.get(v.sourcedid!) ?? [],
    });
  }

  const staff: StaffRecord[] = [];
  for (const row of userRows) {
    const v = row.values;
    if (roleOf.get(v.sourcedid!) !== 'teacher') continue;
    const at = where(users, row);
    const parsed = phone().safeParse(phoneOf(v) ?? '');
    if (!phoneOf(v) || !parsed.success) {
      errors.push({ ...at, field: v.phone ? 'phone' : 'sms', message: phoneOf(v) ? parsed.error!.issues[0]!.message : "is needed for a teacher: staff are matched by phone" });
      continue;
    }
    const mail = v.email ? email().safeParse(v.email) : undefined;
    if (mail && !mail.success) {
      errors.push({ ...at, field: 'email', message: 'is not a valid e-mail address' });
      continue;
    }
    const taught = [...classTeachers].filter(([, teachers]) => teachers.includes(v.sourcedid!)).flatMap(([classId]) => classStudents.get(classId) ?? []);
    staff.push({
      file: users.file, line: row.line, name: fullName(v) || v.username || v.sourcedid!, designation: 'Subject Teacher', phone_no: parsed.data,
      email: mail?.data, assigned_roll_nos: [...new Set(taught.map((id) => rollOf.get(id)).filter((r): r is string => !!r))],
    });
  }
  // A guardian's row is judged for each child naming it: reported once.
  const reported = new Set<string>();
  const once = errors.filter((e) => !reported.has(`${e.file}:${e.line}:${e.field}`) && reported.add(`${e.file}:${e.line}:${e.field}`));
  const rows = userRows.filter((r) => ['student', 'teacher'].includes(roleOf.get(r.values.sourcedid!) ?? '')).length;
  return { rows, students, staff, errors: once };
}
