/**
 * The parent feed's and the parent noticeboard's work done with nothing in between, shared by the
 * two ceilings: verify the JWT (HS256, a KeyObject secret), check the session with one prepared
 * statement, read the page with one prepared statement, serialise the same answer (byte for byte:
 * the run compares them). The SQL is the service's own session check, feed query and board query,
 * so the ceilings measure the framework and driver costs, not a different plan or a smaller answer.
 */
import { createHash, createSecretKey } from 'node:crypto';
import jwt from 'jsonwebtoken';
import mysql from 'mysql2/promise';
import { iso } from '../src/db.js';
import { bindPositional } from '../src/prepared.js';
import { parentFeedSql } from '../src/services/activities/activities.js';
import { audienceFromColumn } from '../src/services/audiences/audiences.js';
import { SESSION_SQL } from '../src/services/auth/sessions.js';
import { parentBoardSql } from '../src/services/notices/notices.js';

// The service's own per-request check (src/services/auth/sessions.ts resolvePrincipal).
const sessionStatement = (school: string, hash: string) => bindPositional(SESSION_SQL, { school, hash });

const TOUCH_SQL = 'UPDATE sessions SET last_seen_at = ? WHERE id = ? AND last_seen_at < ?';

// The service's own feed statement (src/services/activities/activities.ts parentFeedSql, default page), with its placeholders in order.
const FEED_SQL = parentFeedSql(true, { oneChild: false, type: '' });
const feedStatement = (school: string, parent: number) => bindPositional(FEED_SQL, { school, parent, limit: 20, offset: 0 });

// The service's own board statement (src/services/notices/notices.ts parentBoardSql, default page).
const BOARD_SQL = parentBoardSql(true);
const boardStatement = (school: string, parent: number) => bindPositional(BOARD_SQL, { school, parent, limit: 20, offset: 0 });

interface Claims {
  sub: string;
  school_id: string;
  type: string;
  session_token: string;
}

interface ActivityRow {
  id: number;
  school_id: string;
  title: string;
  description: string | null;
  activity_type: string;
  status: string;
  staff_id: number;
  author_name: string | null;
  student_id: number | null;
  audience_list: string | null;
  publish_at: Date | null;
  published_at: Date | null;
  created_at: Date;
  updated_at: Date;
  starts_at: Date | null;
  ends_at: Date | null;
  all_day: number;
  location: string | null;
  attachment_ids: string | null;
  form_id: number | null;
  read_at: Date | null;
}

interface NoticeRow {
  id: number;
  school_id: string;
  notice_title: string;
  notice_desc: string | null;
  notice_type: string | null;
  is_important: number;
  created_by_type: string | null;
  created_by_id: number | null;
  is_urgent: number;
  publish_at: Date | null;
  published_at: Date | null;
  created_at: Date;
  updated_at: Date;
  form_id: number | null;
  attachment_ids: string | null;
  audience_list: string | null;
  read_at: Date | null;
}

export interface Answer {
  status: number;
  body: string;
}

const fail = (status: number, code: string, message: string): Answer => ({
  status,
  body: JSON.stringify({ success: false, message, error: { code } }),
});

export function createReads(databaseUrl: string, jwtSecret: string) {
  const key = createSecretKey(Buffer.from(jwtSecret, 'utf8'));
  const pool = mysql.createPool({ uri: databaseUrl, connectionLimit: 20, timezone: 'Z', supportBigNumbers: true });

  /** The parent the token and its session name, or the error the service would answer. */
  async function parentOf(authorization: string | undefined): Promise<{ school: string; parent: number } | Answer> {
    const bearer = authorization ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
    if (!bearer) return fail(401, 'UNAUTHORIZED', 'Authentication required');
    let claims: Claims;
    try {
      claims = jwt.verify(bearer[1]!, key, { algorithms: ['HS256'] }) as Claims;
    } catch {
      return fail(401, 'UNAUTHORIZED', 'The token is not valid');
    }
    const hash = createHash('sha256').update(claims.session_token).digest('hex');
    const session = sessionStatement(claims.school_id, hash);
    const [sessions] = await pool.execute(session.sql, session.values as mysql.ExecuteValues[]);
    const row = (sessions as Array<Record<string, unknown>>)[0];
    const now = Date.now();
    if (!row || row.user_type !== 'parent' || String(row.user_id) !== claims.sub || row.parent_found === null || !Number(row.active)
      || (row.expires_at as Date).getTime() <= now) {
      return fail(401, 'UNAUTHORIZED', 'Session is not active');
    }
    if (row.school_status !== 'active') return fail(403, 'FORBIDDEN', 'School access is suspended');
    if (now - (row.last_seen_at as Date).getTime() > 60_000) await pool.execute(TOUCH_SQL, [new Date(now), Number(row.id), new Date(now - 60_000)]);
    return { school: claims.school_id, parent: Number(claims.sub) };
  }

  /** One page of a read for the token's parent: its rows as the service shows them, in the envelope. */
  async function page<R extends { attachment_ids: string | null; form_id: number | null }>(
    authorization: string | undefined,
    statement: (school: string, parent: number) => { sql: string; values: unknown[] },
    view: (row: R) => object,
  ): Promise<Answer> {
    const who = await parentOf(authorization);
    if ('status' in who) return who;
    const { sql, values } = statement(who.school, who.parent);
    const [result] = await pool.execute(sql, values as mysql.ExecuteValues[]);
    const rows = result as R[];
    // The service reads an item's attachments and form with statements of their own; the data sets have none.
    if (rows.some((r) => r.attachment_ids !== null || r.form_id !== null)) return fail(500, 'INTERNAL', 'The ceiling reads no attachments or forms');
    return { status: 200, body: JSON.stringify({ success: true, data: rows.map(view) }) };
  }

  const feed = (authorization: string | undefined) => page<ActivityRow>(authorization, feedStatement, (r) => ({
    id: r.id,
    school_id: r.school_id,
    title: r.title,
    description: r.description,
    activity_type: r.activity_type,
    status: r.status,
    staff_id: r.staff_id,
    author_id: r.staff_id,
    author_name: r.author_name,
    student_id: r.student_id,
    audience: audienceFromColumn(r.audience_list),
    publish_at: iso(r.publish_at),
    published_at: iso(r.published_at),
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
    starts_at: iso(r.starts_at),
    ends_at: iso(r.ends_at),
    all_day: r.all_day === 1,
    location: r.location,
    attachments: [],
    read_at: iso(r.read_at),
    form: null,
  }));

  const board = (authorization: string | undefined) => page<NoticeRow>(authorization, boardStatement, (r) => ({
    id: r.id,
    school_id: r.school_id,
    notice_title: r.notice_title,
    notice_desc: r.notice_desc,
    notice_type: r.notice_type,
    is_important: r.is_important === 1,
    created_by_type: r.created_by_type,
    created_by_id: r.created_by_id,
    audience: audienceFromColumn(r.audience_list),
    is_urgent: r.is_urgent === 1,
    scheduled: r.published_at === null,
    publish_at: iso(r.publish_at),
    published_at: iso(r.published_at),
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
    attachments: [],
    read_at: iso(r.read_at),
    form: null,
  }));

  return { feed, board, close: () => pool.end() };
}

/** The ceilings listen on the port the runner gives and say so on stdout, which the runner waits for. */
export function ceilingEnv() {
  const { DATABASE_URL, JWT_SECRET, PORT } = process.env;
  if (!DATABASE_URL || !JWT_SECRET) throw new Error('DATABASE_URL and JWT_SECRET are required');
  return { databaseUrl: DATABASE_URL, jwtSecret: JWT_SECRET, port: Number(PORT ?? 0) };
}
