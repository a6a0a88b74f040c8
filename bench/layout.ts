import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The shape of the generated data: every school gets the same share, so one school is 1/1000 of the full set. */
export const perSchool = {
  staff: 30,
  students: 300,
  /** The first `twoChildParents` parents have two children each, the rest one. */
  parents: 250,
  twoChildParents: 50,
  admins: 3,
  activities: 1000,
  notices: 200,
  writeTo: 500,
  sessions: 2000,
  reactions: 300,
} as const;

export const FULL_SCHOOLS = 1000;

/** Every generated parent and staff member has this PIN, every admin this password (hashed once, cost 10). */
export const BENCH_PIN = '1234';
export const BENCH_PASSWORD = 'bench-password-1';

export const benchDir = path.dirname(fileURLToPath(import.meta.url));
export const dataDir = path.join(benchDir, '.data');
export const repoRoot = path.resolve(benchDir, '..');

/** Replaces what stands between `<!-- bench:<name>:start -->` and its end marker in bench/README.md. */
export function writeReadmeSection(name: string, body: string): void {
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const file = path.join(benchDir, 'README.md');
  const text = readFileSync(file, 'utf8');
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`bench/README.md has no ${start} ... ${end} section`);
  writeFileSync(file, `${text.slice(0, a + start.length)}\n\n${body}\n\n${text.slice(b)}`);
}

export const MYSQL_ROOT_URL = process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';

export const schoolId = (index: number) => `bench-${String(index + 1).padStart(4, '0')}`;
export const staffId = (school: number, k: number) => school * perSchool.staff + k + 1;
export const studentId = (school: number, k: number) => school * perSchool.students + k + 1;
export const parentId = (school: number, k: number) => school * perSchool.parents + k + 1;
export const adminId = (school: number, k: number) => school * perSchool.admins + k + 1;
export const parentPhone = (id: number) => `9${String(id).padStart(9, '0')}`;
export const staffPhone = (id: number) => `8${String(id).padStart(9, '0')}`;
export const adminEmail = (school: number, k: number) => `admin${k + 1}@${schoolId(school)}.bench.example`;

/** The parent of student k of a school (local indexes), and a parent's children. */
export function parentOfStudent(k: number): number {
  const two = perSchool.twoChildParents;
  return k < two * 2 ? Math.floor(k / 2) : two + (k - two * 2);
}
export function childrenOfParent(p: number): number[] {
  const two = perSchool.twoChildParents;
  return p < two ? [p * 2, p * 2 + 1] : [two * 2 + (p - two)];
}

/** Staff roles by local index: 0 principal, 1-15 class teachers (one per grade), 16-25 subject teachers, 26-29 office. */
export function designationOf(k: number): string {
  if (k === 0) return 'Principal';
  if (k <= 15) return 'Class Teacher';
  if (k <= 25) return 'Subject Teacher';
  return 'Office Staff';
}
export const classTeacherOfGrade = (g: number) => 1 + g;
export const subjectTeacherOfStudent = (k: number) => 16 + (k % 10);

export const firstNames = ['Asha', 'Ravi', 'Meena', 'Arjun', 'Priya', 'Kiran', 'Divya', 'Rahul', 'Sneha', 'Vikram', 'Anita', 'Rohan',
  'Kavya', 'Aditya', 'Isha', 'Nikhil', 'Pooja', 'Sanjay', 'Lakshmi', 'Manoj', 'Nisha', 'Suresh', 'Tara', 'Varun'];
export const lastNames = ['Rao', 'Sharma', 'Iyer', 'Patel', 'Nair', 'Reddy', 'Gupta', 'Menon', 'Das', 'Joshi', 'Kulkarni', 'Shah',
  'Pillai', 'Verma', 'Bose', 'Kapoor'];

/** A small seeded PRNG (mulberry32): the same seed gives the same data set. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** What the generator leaves for the runner: where the data is, its size and the secrets it was made with. */
export interface DatasetMeta {
  name: string;
  dialect: 'mysql' | 'sqlite';
  databaseUrl?: string;
  sqliteFile?: string;
  schools: number;
  jwtSecret: string;
  adminCookieSecret: string;
  migrations: string[];
  generatedAt: string;
  seconds: number;
  rows: Record<string, number>;
  timings: Record<string, number>;
}

export const metaFile = (name: string) => path.join(dataDir, `${name}.json`);

export function readMeta(name: string): DatasetMeta | null {
  const file = metaFile(name);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as DatasetMeta) : null;
}

export function writeMeta(meta: DatasetMeta): void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(metaFile(meta.name), JSON.stringify(meta, null, 2) + '\n', { mode: 0o600 });
}

export function withDatabase(rootUrl: string, database: string): string {
  const u = new URL(rootUrl);
  u.pathname = `/${database}`;
  return u.toString();
}
