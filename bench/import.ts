/**
 * The roster import benchmark (`npm run bench -- --only import`): a students CSV of 5,000 rows (with
 * guardians, siblings sharing a phone, addresses and groups) and a staff CSV assigning them, imported
 * through the service into a fresh school on MariaDB and on SQLite, then imported again (every row
 * matched, nothing to write). Times are wall-clock seconds of `runImport`, in process.
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { closeContext, createContext } from '../src/bootstrap.js';
import { loadConfig } from '../src/config.js';
import { operatorPrincipal } from '../src/services/access/guards.js';
import { runImport, type ImportReport } from '../src/services/imports/imports.js';
import { createSchool } from '../src/services/schools/schools.js';
import { staffColumns } from '../src/services/imports/staff-import.js';
import { studentColumns } from '../src/services/imports/students-import.js';
import { dataDir, firstNames, lastNames, MYSQL_ROOT_URL, writeReadmeSection } from './layout.js';

export interface ImportBench {
  database: 'mariadb' | 'sqlite';
  rows: number;
  seconds: number;
  again_seconds: number;
  staff_rows: number;
  staff_seconds: number;
  report: Pick<ImportReport, 'created' | 'updated' | 'unchanged' | 'guardians_created'>;
}

const grades = ['Nursery', 'LKG', 'UKG', ...Array.from({ length: 12 }, (_, i) => String(i + 1))];
const pick = <T>(list: readonly T[], i: number) => list[i % list.length]!;

/** The school's students file: every fifth family has two children; four in five rows name a bus route or a team. */
export function studentsCsv(rows: number): string {
  const lines = [studentColumns.join(',')];
  for (let i = 0; i < rows; i++) {
    const family = Math.floor(i * 0.8);
    const last = pick(lastNames, family);
    const groups = i % 5 === 4 ? '' : `Bus ${1 + (family % 20)};${pick(['Football', 'Chess', 'Choir', 'Robotics'], i)}`;
    lines.push([
      `B${100000 + i}`, `${pick(firstNames, i)} ${last}`, i % 2 ? 'male' : 'female', pick(grades, i), `20${10 + (i % 12)}-0${1 + (i % 9)}-1${i % 10}`, pick(['A+', 'B+', 'O+', 'AB-'], i),
      `9${String(700000000 + family).padStart(9, '0')}`, `${pick(firstNames, family + 3)} ${last}`, `${pick(firstNames, family + 7)} ${last}`, `family${family}@example.com`,
      `"${1 + (family % 200)} Lake Road, Block ${family % 7}"`, 'Pune', String(411001 + (family % 50)), groups,
    ].join(','));
  }
  return lines.join('\n') + '\n';
}

/** The staff file: each teacher assigned 50 of the students. */
export function staffCsv(teachers: number, students: number): string {
  const lines = [staffColumns.join(',')];
  for (let t = 0; t < teachers; t++) {
    const rolls = Array.from({ length: Math.min(50, students) }, (_, k) => `B${100000 + ((t * 50 + k) % students)}`).join(';');
    lines.push([`${pick(firstNames, t)} ${pick(lastNames, t + 5)}`, t % 3 ? 'Subject Teacher' : 'Class Teacher', `8${String(700000000 + t).padStart(9, '0')}`, `teacher${t}@example.com`, rolls].join(','));
  }
  return lines.join('\n') + '\n';
}

async function freshTarget(database: ImportBench['database'], name: string): Promise<{ databaseUrl?: string; sqliteStorage?: string; dataDir: string }> {
  const dir = path.join(dataDir, `${name}-run`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  if (database === 'sqlite') return { sqliteStorage: path.join(dir, 'import.sqlite'), dataDir: dir };
  const conn = await mysql.createConnection(MYSQL_ROOT_URL);
  await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
  await conn.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
  await conn.end();
  return { databaseUrl: `${MYSQL_ROOT_URL}/${name}`, dataDir: dir };
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const value = await work();
  return [value, Math.round((performance.now() - started) / 10) / 100];
}

export async function benchImport(options: { rows: number; smoke: boolean; log: (line: string) => void }): Promise<ImportBench[]> {
  const results: ImportBench[] = [];
  const students = Buffer.from(studentsCsv(options.rows));
  const teachers = Math.max(2, Math.round(options.rows / 50));
  const staff = Buffer.from(staffCsv(teachers, options.rows));
  for (const database of ['mariadb', 'sqlite'] as const) {
    const target = await freshTarget(database, options.smoke ? 'sp_bench_import_smoke' : 'sp_bench_import');
    const ctx = await createContext({ ...loadConfig({ DATA_DIR: target.dataDir, LOG_LEVEL: 'silent', JWT_SECRET: 'bench-import-secret-0123456789abcdef', ADMIN_COOKIE_SECRET: 'bench-import-secret-0123456789abcdef' }), ...target, runJobs: false }, { redis: false });
    try {
      await createSchool(ctx, { school_id: 'importing', school_name: 'Importing School', admin: { name: 'Head', email: `head@${database}.import.example`, password: 'bench-password-1' } });
      const principal = operatorPrincipal('importing');
      const [report, seconds] = await timed(() => runImport(ctx, principal, { kind: 'students' }, { csv: students }));
      if (!report.applied || report.created !== options.rows) throw new Error(`the ${database} import did not apply: ${JSON.stringify({ ...report, errors: report.errors.slice(0, 5) })}`);
      const [again, againSeconds] = await timed(() => runImport(ctx, principal, { kind: 'students' }, { csv: students }));
      if (again.unchanged !== options.rows) throw new Error(`the second ${database} import changed rows: ${JSON.stringify({ ...again, errors: again.errors.slice(0, 5) })}`);
      const [staffReport, staffSeconds] = await timed(() => runImport(ctx, principal, { kind: 'staff' }, { csv: staff }));
      if (!staffReport.applied) throw new Error(`the ${database} staff import did not apply: ${JSON.stringify(staffReport.errors.slice(0, 5))}`);
      const r = { created: report.created, updated: report.updated, unchanged: report.unchanged, guardians_created: report.guardians_created };
      results.push({ database, rows: options.rows, seconds, again_seconds: againSeconds, staff_rows: teachers, staff_seconds: staffSeconds, report: r });
      options.log(`  ${database}: ${options.rows} students in ${seconds} s (${r.guardians_created} guardians), again in ${againSeconds} s; ${teachers} staff in ${staffSeconds} s`);
    } finally {
      await closeContext(ctx);
    }
  }
  return results;
}

/** Rewrites the import section of bench/README.md with this run's figures. */
export function writeImportReport(results: ImportBench[], facts: string): void {
  const table = [
    '| database | students | seconds | guardians created | the same file again (seconds) | staff rows | staff seconds | target (< 30 s) |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
    ...results.map((r) => `| ${r.database} | ${r.rows.toLocaleString('en')} | ${r.seconds} | ${r.report.guardians_created.toLocaleString('en')} | ${r.again_seconds} | ${r.staff_rows} | ${r.staff_seconds} | ${r.seconds < 30 ? 'met' : '**not met**'} |`),
  ];
  writeReadmeSection('import', `${facts}\n\n${table.join('\n')}`);
}
