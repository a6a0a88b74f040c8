/**
 * The benchmark's data generator: schools with their staff, students, parents, activities, notices,
 * write-to threads, sessions and reactions, written straight to the database with multi-row INSERTs
 * (never through the API or model instances). The project's migrations create the schema first; the
 * large tables' secondary indexes are dropped during the load and rebuilt in one sorted pass after.
 *
 *   tsx bench/generate.ts                         1,000 schools on MariaDB (database sp_bench)
 *   tsx bench/generate.ts --schools 1 --name sp_bench_one
 *   tsx bench/generate.ts --sqlite --schools 10   the embedded SQLite variant
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import bcrypt from 'bcrypt';
import mysql from 'mysql2/promise';
import sqlite3 from 'sqlite3';
import { migrate, openDatabase } from '../src/db.js';
import { defaultDesignations, defaultGrades } from '../seeders/base.js';
import {
  adminEmail, adminId, BENCH_PASSWORD, BENCH_PIN, childrenOfParent, classTeacherOfGrade, dataDir, designationOf, firstNames,
  FULL_SCHOOLS, lastNames, MYSQL_ROOT_URL, parentId, parentOfStudent, parentPhone, perSchool, rng, schoolId, sha256, staffId,
  staffPhone, studentId, subjectTeacherOfStudent, withDatabase, writeMeta, type DatasetMeta,
} from './layout.js';

type Value = string | number | boolean | null | Date;
type Row = Value[];

const DAY = 86_400_000;
const BATCH = 2000;

/** Where rows go: one multi-row INSERT per batch, with the dialect's literal syntax. */
interface Sink {
  dialect: 'mysql' | 'sqlite';
  exec(sql: string): Promise<void>;
  literal(v: Value): string;
  /** Runs `load` with the table's secondary indexes dropped, then rebuilds them as the migrations declared them; returns the rebuild's seconds. */
  withoutIndexes(table: string, load: () => Promise<void>): Promise<number>;
  close(): Promise<void>;
}

const mysqlDate = (d: Date) => d.toISOString().slice(0, 23).replace('T', ' ');
// Sequelize's SQLite dialect stores DATE(3) as this text; the service compares against the same format.
const sqliteDate = (d: Date) => `${mysqlDate(d)} +00:00`;

async function mysqlSink(url: string): Promise<Sink> {
  const conn = await mysql.createConnection({ uri: url, multipleStatements: false });
  await conn.query('SET SESSION unique_checks = 0, foreign_key_checks = 0');
  const literal = (v: Value): string => {
    if (v === null) return 'NULL';
    if (typeof v === 'number') return String(v);
    if (typeof v === 'boolean') return v ? '1' : '0';
    if (v instanceof Date) return `'${mysqlDate(v)}'`;
    return `'${v.replace(/[\\']/g, (c) => '\\' + c)}'`;
  };
  return {
    dialect: 'mysql',
    exec: async (sql) => {
      await conn.query(sql);
    },
    literal,
    async withoutIndexes(table, load) {
      const [rows] = await conn.query(`SHOW INDEX FROM \`${table}\``);
      const indexes = new Map<string, { unique: boolean; columns: string[] }>();
      for (const r of rows as Array<{ Key_name: string; Non_unique: number; Column_name: string; Seq_in_index: number }>) {
        if (r.Key_name === 'PRIMARY') continue;
        const ix = indexes.get(r.Key_name) ?? { unique: Number(r.Non_unique) === 0, columns: [] };
        ix.columns[r.Seq_in_index - 1] = r.Column_name;
        indexes.set(r.Key_name, ix);
      }
      if (indexes.size > 0) {
        await conn.query(`ALTER TABLE \`${table}\` ${[...indexes.keys()].map((n) => `DROP INDEX \`${n}\``).join(', ')}`);
      }
      await load();
      const since = performance.now();
      if (indexes.size > 0) {
        const adds = [...indexes].map(([n, ix]) => `ADD ${ix.unique ? 'UNIQUE ' : ''}INDEX \`${n}\` (${ix.columns.map((c) => `\`${c}\``).join(', ')})`);
        await conn.query(`ALTER TABLE \`${table}\` ${adds.join(', ')}`);
      }
      return (performance.now() - since) / 1000;
    },
    close: () => conn.end(),
  };
}

async function sqliteSink(file: string): Promise<Sink> {
  const db = await new Promise<sqlite3.Database>((resolve, reject) => {
    const d = new sqlite3.Database(file, (err) => (err ? reject(err) : resolve(d)));
  });
  const exec = (sql: string) => new Promise<void>((resolve, reject) => db.exec(sql, (err) => (err ? reject(err) : resolve())));
  const all = <T>(sql: string) => new Promise<T[]>((resolve, reject) => db.all(sql, (err, rows) => (err ? reject(err) : resolve(rows as T[]))));
  await exec('PRAGMA synchronous = OFF');
  return {
    dialect: 'sqlite',
    exec,
    literal: (v) => {
      if (v === null) return 'NULL';
      if (typeof v === 'number') return String(v);
      if (typeof v === 'boolean') return v ? '1' : '0';
      if (v instanceof Date) return `'${sqliteDate(v)}'`;
      return `'${v.replace(/'/g, "''")}'`;
    },
    async withoutIndexes(table, load) {
      const indexes = await all<{ name: string; sql: string | null }>(
        `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = '${table}' AND sql IS NOT NULL`,
      );
      for (const ix of indexes) await exec(`DROP INDEX "${ix.name}"`);
      await exec('BEGIN');
      await load();
      await exec('COMMIT');
      const since = performance.now();
      for (const ix of indexes) await exec(ix.sql!);
      return (performance.now() - since) / 1000;
    },
    close: () => new Promise<void>((resolve, reject) => db.close((err) => (err ? reject(err) : resolve()))),
  };
}

/** Streams rows into multi-row INSERTs, building the next statement while the previous one runs. */
async function insertAll(sink: Sink, table: string, columns: string[], rows: Iterable<Row>): Promise<number> {
  const head = `INSERT INTO ${table} (${columns.join(', ')}) VALUES `;
  let batch: string[] = [];
  let pending: Promise<void> | null = null;
  let count = 0;
  const flush = async () => {
    const sql = head + batch.join(',');
    batch = [];
    if (pending) await pending;
    pending = sink.exec(sql);
  };
  for (const row of rows) {
    batch.push('(' + row.map(sink.literal).join(',') + ')');
    count++;
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  if (pending) await pending;
  return count;
}

interface Plan {
  schools: number;
  now: Date;
  seed: number;
  pinHash: string;
  passwordHash: string;
}

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
const personName = (n: number) => `${firstNames[n % firstNames.length]} ${lastNames[Math.floor(n / firstNames.length) % lastNames.length]}`;
const words = 'school class parents students teacher week term sports science library music trip exam meeting art project garden'.split(' ');
const sentence = (r: () => number, n: number) => Array.from({ length: n }, () => pick(r, words)).join(' ');

/** Rows of a tenant table spread over the schools in time order, as a live service would have written them. */
function* timeline(plan: Plan, total: number, days: number, seed: number): Generator<{ k: number; school: number; at: Date; r: () => number }> {
  // Schools come from their own stream, so a table's school of row k can be recomputed without its content.
  const schoolOf = rng(plan.seed ^ seed);
  const r = rng((plan.seed ^ seed) + 0x9e3779b9);
  const start = plan.now.getTime() - days * DAY;
  const step = (days * DAY) / total;
  for (let k = 0; k < total; k++) yield { k, school: Math.floor(schoolOf() * plan.schools), at: new Date(start + k * step), r };
}

function* schools(p: Plan): Generator<Row> {
  const at = new Date(p.now.getTime() - 400 * DAY);
  for (let s = 0; s < p.schools; s++) yield [schoolId(s), `Bench School ${s + 1}`, 'active', at, at];
}

function* admins(p: Plan): Generator<Row> {
  const roles = ['super_admin', 'admin', 'it_contact'];
  const at = new Date(p.now.getTime() - 400 * DAY);
  for (let s = 0; s < p.schools; s++) {
    for (let k = 0; k < perSchool.admins; k++) {
      yield [adminId(s, k), schoolId(s), personName(s * 7 + k), adminEmail(s, k), p.passwordHash, roles[k % roles.length]!, at, at];
    }
  }
}

function* designations(p: Plan): Generator<Row> {
  const at = new Date(p.now.getTime() - 400 * DAY);
  for (let s = 0; s < p.schools; s++) {
    for (const d of defaultDesignations) yield [schoolId(s), d.name, JSON.stringify(d.rbac), at, at];
  }
}

function* grades(p: Plan): Generator<Row> {
  const at = new Date(p.now.getTime() - 400 * DAY);
  for (let s = 0; s < p.schools; s++) {
    for (let g = 0; g < defaultGrades.length; g++) {
      yield [schoolId(s), defaultGrades[g]!, g, staffId(s, classTeacherOfGrade(g)), at, at];
    }
  }
}

function* staff(p: Plan): Generator<Row> {
  const at = new Date(p.now.getTime() - 380 * DAY);
  for (let s = 0; s < p.schools; s++) {
    for (let k = 0; k < perSchool.staff; k++) {
      const id = staffId(s, k);
      yield [id, schoolId(s), personName(id * 3), designationOf(k), staffPhone(id), `staff${k + 1}@${schoolId(s)}.bench.example`, p.pinHash, null, 1, at, at];
    }
  }
}

function* parents(p: Plan): Generator<Row> {
  const at = new Date(p.now.getTime() - 360 * DAY);
  for (let s = 0; s < p.schools; s++) {
    for (let k = 0; k < perSchool.parents; k++) {
      const id = parentId(s, k);
      yield [id, schoolId(s), `${personName(id)}`, `${personName(id + 11)}`, parentPhone(id), null, p.pinHash, at, at];
    }
  }
}

function studentStatus(k: number): string {
  const m = k % 100;
  return m < 90 ? 'active' : m < 95 ? 'registered' : m < 98 ? 'inactive' : 'archived';
}

function* students(p: Plan): Generator<Row> {
  const at = new Date(p.now.getTime() - 360 * DAY);
  const r = rng(p.seed ^ 0x5151);
  for (let s = 0; s < p.schools; s++) {
    for (let k = 0; k < perSchool.students; k++) {
      const id = studentId(s, k);
      const parent = parentId(s, parentOfStudent(k));
      const born = new Date(Date.UTC(2008 + Math.floor(r() * 14), Math.floor(r() * 12), 1 + Math.floor(r() * 28)));
      yield [id, schoolId(s), parent, personName(id * 5 + 1), k % 2 ? 'female' : 'male', defaultGrades[k % defaultGrades.length]!,
        born.toISOString().slice(0, 10), pick(r, ['A+', 'B+', 'O+', 'AB+', 'O-']), parentPhone(parent), String(k + 1), studentStatus(k), at, at];
    }
  }
}

function* staffStudents(p: Plan): Generator<Row> {
  const at = new Date(p.now.getTime() - 350 * DAY);
  for (let s = 0; s < p.schools; s++) {
    for (let k = 0; k < perSchool.students; k++) {
      const student = studentId(s, k);
      yield [schoolId(s), staffId(s, classTeacherOfGrade(k % defaultGrades.length)), student, at, at];
      yield [schoolId(s), staffId(s, subjectTeacherOfStudent(k)), student, at, at];
    }
  }
}

/** Groups per school (bus routes, teams); a student is in one or two of them. */
const GROUPS = 20;
const groupId = (school: number, g: number) => school * GROUPS + g + 1;

function* studentGroups(p: Plan): Generator<Row> {
  const at = new Date(p.now.getTime() - 355 * DAY);
  for (let s = 0; s < p.schools; s++) {
    for (let g = 0; g < GROUPS; g++) yield [groupId(s, g), schoolId(s), g < 12 ? `Bus route ${g + 1}` : `Team ${g - 11}`, null, 0, at, at];
  }
}

function* groupMembers(p: Plan): Generator<Row> {
  const at = new Date(p.now.getTime() - 355 * DAY);
  for (let s = 0; s < p.schools; s++) {
    for (let k = 0; k < perSchool.students; k++) {
      yield [schoolId(s), groupId(s, k % GROUPS), studentId(s, k), at, at];
      if (k % 2 === 0 && (k * 7) % GROUPS !== k % GROUPS) yield [schoolId(s), groupId(s, (k * 7) % GROUPS), studentId(s, k), at, at];
    }
  }
}

/** A well-spread integer from a row number, so an item's audience can be recomputed from its number alone. */
const mix = (k: number, salt: number) => Math.imul((k + 1) ^ salt, 2654435761) >>> 0;

type Target = { grade?: string; group?: number; student?: number };

/** Activities: 40% for the whole school, 40% a grade, 15% a group, 5% one student. Notices: 60%, 30%, 10%, none. */
function audienceOf(kind: 'activity' | 'noticeboard', k: number, school: number): Target | null {
  const bucket = mix(k, kind === 'activity' ? 0xa11 : 0xb22) % 100;
  const pickOf = mix(k, 0x5eed);
  const [wide, grade, group] = kind === 'activity' ? [40, 80, 95] : [60, 90, 100];
  if (bucket < wide) return null;
  if (bucket < grade) return { grade: defaultGrades[pickOf % defaultGrades.length]! };
  if (bucket < group) return { group: groupId(school, pickOf % GROUPS) };
  return { student: studentId(school, pickOf % perSchool.students) };
}

function* activities(p: Plan): Generator<Row> {
  for (const { k, school, at, r } of timeline(p, p.schools * perSchool.activities, 365, 0xa1)) {
    const x = r();
    const status = x < 0.85 ? 'published' : x < 0.95 ? 'draft' : 'cancelled';
    const audience = audienceOf('activity', k, school);
    yield [k + 1, schoolId(school), `${pick(r, ['Sports day', 'Science fair', 'Field trip', 'Class photo', 'Art week', 'Reading hour'])} ${k + 1}`,
      sentence(r, 30), r() < 0.3 ? 'event' : 'announcement', staffId(school, 1 + Math.floor(r() * 25)), audience?.student ?? null, audience ? 1 : 0,
      status === 'published' ? at : null, status, r() < 0.03 ? 1 : 0, at, at];
  }
}

function* notices(p: Plan): Generator<Row> {
  const types = ['holiday', 'event', 'meeting', 'exam', 'fee', 'general'];
  for (const { k, school, at, r } of timeline(p, p.schools * perSchool.notices, 365, 0xb2)) {
    const byStaff = r() < 0.3;
    yield [k + 1, schoolId(school), `Notice ${k + 1}: ${sentence(r, 4)}`, sentence(r, 40), pick(r, types), r() < 0.1, byStaff ? 'staff' : 'admin',
      byStaff ? staffId(school, 0) : adminId(school, 0), audienceOf('noticeboard', k, school) ? 1 : 0, at, r() < 0.02 ? 1 : 0, at, at];
  }
}

/** The audience rows of the activities and notices that have one, recomputed from each item's number and school. */
function* audienceTargets(p: Plan): Generator<Row> {
  const noticeSchool = rng(p.seed ^ 0xb2);
  for (const [kind, total, schoolOf] of [
    ['activity', p.schools * perSchool.activities, (k: number) => activitySchool(p, k + 1)],
    ['noticeboard', p.schools * perSchool.notices, () => Math.floor(noticeSchool() * p.schools)],
  ] as const) {
    const at = new Date(p.now.getTime() - 365 * DAY);
    for (let k = 0; k < total; k++) {
      const school = schoolOf(k);
      const a = audienceOf(kind, k, school);
      if (a) yield [schoolId(school), kind, k + 1, a.student ?? null, a.grade ?? null, a.group ?? null, at, at];
    }
  }
}

function* writeTo(p: Plan): Generator<Row> {
  const types = ['query', 'query', 'leave', 'complaint', 'feedback', 'other'];
  for (const { k, school, at, r } of timeline(p, p.schools * perSchool.writeTo, 365, 0xc3)) {
    const parentK = Math.floor(r() * perSchool.parents);
    const kids = childrenOfParent(parentK);
    const studentK = kids[Math.floor(r() * kids.length)]!;
    const type = pick(r, types);
    const ageDays = (p.now.getTime() - at.getTime()) / DAY;
    // Old threads are mostly resolved and then archived, as the maintenance job leaves them.
    const status = ageDays < 7 ? pick(r, ['open', 'open', 'in_progress']) : ageDays < 45 ? pick(r, ['open', 'in_progress', 'resolved']) : 'archived';
    const resolvedAt = status === 'resolved' || status === 'archived' ? new Date(at.getTime() + 2 * DAY) : null;
    const leaveFrom = type === 'leave' ? new Date(at.getTime() + DAY).toISOString().slice(0, 10) : null;
    const leaveTo = type === 'leave' ? new Date(at.getTime() + 3 * DAY).toISOString().slice(0, 10) : null;
    yield [k + 1, schoolId(school), parentId(school, parentK), studentId(school, studentK), type, `${type} ${k + 1}`, sentence(r, 25), status,
      r() < 0.5 ? staffId(school, classTeacherOfGrade(studentK % defaultGrades.length)) : null, leaveFrom, leaveTo, resolvedAt, 0, at, resolvedAt ?? at];
  }
}

/** Mobile sessions last 30 days, admin ones 12 hours: most of four months of logins have expired or were revoked. */
function* sessions(p: Plan): Generator<Row> {
  for (const { k, school, at, r } of timeline(p, p.schools * perSchool.sessions, 120, 0xd4)) {
    const x = r();
    const [type, user] = x < 0.85 ? ['parent', parentId(school, Math.floor(r() * perSchool.parents))]
      : x < 0.97 ? ['staff', staffId(school, Math.floor(r() * perSchool.staff))]
      : ['admin', adminId(school, Math.floor(r() * perSchool.admins))];
    const expires = new Date(at.getTime() + (type === 'admin' ? DAY / 2 : 30 * DAY));
    const lastSeen = new Date(Math.min(p.now.getTime(), at.getTime() + r() * (expires.getTime() - at.getTime())));
    const revoked = r() < 0.05;
    const token = sha256(`${p.seed}:session:${k}`);
    yield [k + 1, schoolId(school), sha256(token), type, user, type === 'admin' ? null : `fcm-${token.slice(0, 40)}`, `device-${k % 9973}`,
      type === 'admin' ? 'admin console' : pick(r, ['Pixel 8', 'iPhone 15', 'Galaxy A54', 'Redmi Note 13']), 'bench/1.0', '10.0.0.1', at, lastSeen, expires,
      !revoked, revoked ? lastSeen : null];
  }
}

/** Parents' reactions to their school's activities; the unique key drops the rare duplicate pair. */
function* reactions(p: Plan): Generator<Row> {
  const r = rng(p.seed ^ 0xe5);
  const total = p.schools * perSchool.activities;
  const seen = new Set<string>();
  for (let k = 0; k < p.schools * perSchool.reactions; k++) {
    const activity = 1 + Math.floor(r() * total);
    const school = activitySchool(p, activity);
    const parent = parentId(school, Math.floor(r() * perSchool.parents));
    const key = `${activity}:${parent}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const at = new Date(p.now.getTime() - r() * 300 * DAY);
    yield [schoolId(school), 'activity', activity, parent, null, r() < 0.7 ? 'like' : 'love', at, at];
  }
}

// Each activity's school, replayed from the activities timeline's own school stream (same seed).
let activitySchools: Uint16Array | null = null;
function activitySchool(p: Plan, activity: number): number {
  if (!activitySchools) {
    const schoolOf = rng(p.seed ^ 0xa1);
    activitySchools = new Uint16Array(p.schools * perSchool.activities);
    for (let k = 0; k < activitySchools.length; k++) activitySchools[k] = Math.floor(schoolOf() * p.schools);
  }
  return activitySchools[activity - 1]!;
}

const tables: Array<{ table: string; columns: string[]; rows: (p: Plan) => Iterable<Row>; dropIndexes?: boolean }> = [
  { table: 'schools', columns: ['id', 'name', 'status', 'created_at', 'updated_at'], rows: schools },
  { table: 'admin_users', columns: ['id', 'school_id', 'name', 'email', 'password_hash', 'role', 'created_at', 'updated_at'], rows: admins },
  { table: 'designations', columns: ['school_id', 'name', 'rbac', 'created_at', 'updated_at'], rows: designations },
  { table: 'grades', columns: ['school_id', 'name', 'sort_order', 'class_teacher_id', 'created_at', 'updated_at'], rows: grades },
  {
    table: 'staff', rows: staff, dropIndexes: true,
    columns: ['id', 'school_id', 'name', 'designation', 'phone_no', 'email', 'pin_hash', 'rbac', 'status', 'created_at', 'updated_at'],
  },
  {
    table: 'parents', rows: parents, dropIndexes: true,
    columns: ['id', 'school_id', 'father_name', 'mother_name', 'phone_no', 'email', 'pin_hash', 'created_at', 'updated_at'],
  },
  {
    table: 'students', rows: students, dropIndexes: true,
    columns: ['id', 'school_id', 'parent_id', 'student_full_name', 'gender', 'grade', 'date_of_birth', 'blood_group', 'phone_no', 'roll_no', 'status', 'created_at', 'updated_at'],
  },
  { table: 'staff_students', columns: ['school_id', 'staff_id', 'student_id', 'created_at', 'updated_at'], rows: staffStudents, dropIndexes: true },
  { table: 'student_groups', columns: ['id', 'school_id', 'name', 'description', 'deleted_key', 'created_at', 'updated_at'], rows: studentGroups },
  { table: 'group_members', columns: ['school_id', 'group_id', 'student_id', 'created_at', 'updated_at'], rows: groupMembers, dropIndexes: true },
  {
    table: 'activities', rows: activities, dropIndexes: true,
    columns: ['id', 'school_id', 'title', 'description', 'activity_type', 'staff_id', 'student_id', 'audience_scope', 'published_at', 'status', 'deleted_status',
      'created_at', 'updated_at'],
  },
  {
    table: 'notices', rows: notices, dropIndexes: true,
    columns: ['id', 'school_id', 'notice_title', 'notice_desc', 'notice_type', 'is_important', 'created_by_type', 'created_by_id', 'audience_scope', 'published_at',
      'notice_deleted', 'created_at', 'updated_at'],
  },
  {
    table: 'audience_targets', rows: audienceTargets, dropIndexes: true,
    columns: ['school_id', 'entity_type', 'entity_id', 'student_id', 'grade', 'group_id', 'created_at', 'updated_at'],
  },
  {
    table: 'write_to_requests', rows: writeTo, dropIndexes: true,
    columns: ['id', 'school_id', 'parent_id', 'student_id', 'type', 'subject', 'message', 'status', 'assigned_staff_id', 'leave_from', 'leave_to',
      'resolved_at', 'replies_count', 'created_at', 'updated_at'],
  },
  {
    table: 'sessions', rows: sessions, dropIndexes: true,
    columns: ['id', 'school_id', 'token_hash', 'user_type', 'user_id', 'fcm_token', 'device_id', 'device_name', 'user_agent', 'ip', 'created_at',
      'last_seen_at', 'expires_at', 'active', 'revoked_at'],
  },
  {
    table: 'reactions', rows: reactions, dropIndexes: true,
    columns: ['school_id', 'entity_type', 'entity_id', 'parent_id', 'staff_id', 'reaction_type', 'created_at', 'updated_at'],
  },
];

export interface GenerateOptions {
  name: string;
  schools: number;
  sqlite?: boolean;
  seed?: number;
  log?: (line: string) => void;
}

/** Creates (or re-creates) the data set and writes its meta file for the runner. */
export async function generate(options: GenerateOptions): Promise<DatasetMeta> {
  const log = options.log ?? ((line: string) => console.log(line));
  const started = performance.now();
  const timings: Record<string, number> = {};
  const lap = (label: string, since: number, note = '') => {
    timings[label] = Math.round(performance.now() - since) / 1000;
    log(`  ${label.padEnd(20)} ${timings[label]!.toFixed(1).padStart(6)} s${note}`);
  };
  activitySchools = null;

  let sink: Sink;
  let databaseUrl: string | undefined;
  let sqliteFile: string | undefined;
  let migrations: string[];
  const t0 = performance.now();
  if (options.sqlite) {
    // The service finds its SQLite file in DATA_DIR under this name.
    mkdirSync(path.join(dataDir, options.name), { recursive: true });
    sqliteFile = path.join(dataDir, options.name, 'school-platform.sqlite');
    for (const suffix of ['', '-wal', '-shm']) rmSync(sqliteFile + suffix, { force: true });
    const db = await openDatabase({ dataDir, sqliteStorage: sqliteFile });
    migrations = await migrate(db.sequelize);
    await db.close();
    sink = await sqliteSink(sqliteFile);
  } else {
    const root = await mysql.createConnection(MYSQL_ROOT_URL);
    await root.query(`DROP DATABASE IF EXISTS \`${options.name}\``);
    await root.query(`CREATE DATABASE \`${options.name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci`);
    await root.end();
    databaseUrl = withDatabase(MYSQL_ROOT_URL, options.name);
    const db = await openDatabase({ databaseUrl, dataDir });
    migrations = await migrate(db.sequelize);
    await db.close();
    sink = await mysqlSink(databaseUrl);
  }
  lap('migrations', t0);

  const t1 = performance.now();
  const [pinHash, passwordHash] = await Promise.all([bcrypt.hash(BENCH_PIN, 10), bcrypt.hash(BENCH_PASSWORD, 10)]);
  const plan: Plan = { schools: options.schools, now: new Date(), seed: options.seed ?? 20261122, pinHash, passwordHash };
  lap('hashes', t1);

  const rows: Record<string, number> = {};
  try {
    for (const t of tables) {
      const since = performance.now();
      const load = async () => {
        rows[t.table] = await insertAll(sink, t.table, t.columns, t.rows(plan));
      };
      let rebuild: number | null = null;
      // Rebuilding an index costs a DDL round; only worth it once the table is large.
      if (t.dropIndexes && plan.schools >= 20) rebuild = await sink.withoutIndexes(t.table, load);
      else if (sink.dialect === 'sqlite') {
        await sink.exec('BEGIN');
        await load();
        await sink.exec('COMMIT');
      } else await load();
      lap(t.table, since, `  ${rows[t.table]!.toLocaleString('en')} rows${rebuild === null ? '' : `, of which index rebuild ${rebuild.toFixed(1)} s`}`);
    }
    if (sink.dialect === 'mysql') {
      const since = performance.now();
      for (const t of tables) await sink.exec(`ANALYZE TABLE ${t.table}`);
      lap('analyze', since);
    } else {
      await sink.exec('ANALYZE');
    }
  } finally {
    await sink.close();
  }

  const meta: DatasetMeta = {
    name: options.name,
    dialect: options.sqlite ? 'sqlite' : 'mysql',
    databaseUrl,
    sqliteFile,
    schools: options.schools,
    jwtSecret: randomBytes(48).toString('base64url'),
    adminCookieSecret: randomBytes(48).toString('base64url'),
    migrations,
    generatedAt: plan.now.toISOString(),
    seconds: Math.round(performance.now() - started) / 1000,
    rows,
    timings,
  };
  writeMeta(meta);
  log(`  total                ${meta.seconds.toFixed(1)} s`);
  return meta;
}

async function main() {
  const { values } = parseArgs({
    options: {
      name: { type: 'string' },
      schools: { type: 'string' },
      scale: { type: 'string' },
      sqlite: { type: 'boolean', default: false },
      seed: { type: 'string' },
    },
  });
  const schoolsFromScale = values.scale ? Math.max(1, Math.round(FULL_SCHOOLS * Number(values.scale))) : undefined;
  const schools = Number(values.schools ?? schoolsFromScale ?? FULL_SCHOOLS);
  if (!Number.isInteger(schools) || schools < 1 || schools > 9999) throw new Error('--schools must be an integer from 1 to 9999');
  const name = values.name ?? (values.sqlite ? 'sp_bench_sqlite' : 'sp_bench');
  console.log(`generating ${name}: ${schools} school(s) on ${values.sqlite ? 'SQLite' : 'MariaDB'}`);
  await generate({ name, schools, sqlite: values.sqlite, seed: values.seed ? Number(values.seed) : undefined });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
