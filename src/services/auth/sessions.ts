import { recordAudit, type Changes } from '../audit/audit.js';
import type { AppContext, Principal } from '../../context.js';
import { QueryTypes } from 'sequelize';
import { iso, millis, parseJson, sqlTime, writeIn } from '../../db.js';
import { forbidden, notFound, unauthorized } from '../../errors.js';
import type { UserType } from '../../models/session.js';
import { effectiveRbac, type Rbac } from '../access/rbac.js';
import { hashSecret, newSecret, type TokenClaims } from './tokens.js';

export interface DeviceInfo {
  fcm_token?: string | null;
  device_id?: string | null;
  device_name?: string | null;
  user_agent?: string | null;
  ip?: string | null;
}

export interface IssuedSession {
  access_token: string;
  token_type: 'Bearer';
  expires_at: string;
  session_id: number;
}

const MOBILE_SESSION_DAYS = 30;
const LAST_SEEN_EVERY_MS = 60_000;

export function sessionLifetimeMs(ctx: AppContext, type: UserType): number {
  return type === 'admin' ? ctx.config.adminSessionHours * 3_600_000 : MOBILE_SESSION_DAYS * 86_400_000;
}

const clip = (v: string | null | undefined, n: number) => (v ? v.slice(0, n) : null);

/** Creates the session row and signs the JWT that carries its raw token. */
export async function issueSession(
  ctx: AppContext,
  user: { type: UserType; id: number; schoolId: string | null; name?: string | null },
  device: DeviceInfo,
): Promise<IssuedSession> {
  const token = newSecret();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + sessionLifetimeMs(ctx, user.type));
  // A bound INSERT, not Session.create(): a login's own work beside bcrypt is its few statements, on
  // the prepared path as the other hand-written writes. The sign-in's event commits with it, under
  // the account's school and with the account as the actor.
  const id = await ctx.db.transact(async (tx) => {
    const session = await tx.write(`INSERT INTO sessions (school_id, token_hash, user_type, user_id, fcm_token, device_id, device_name, user_agent, ip,
                           created_at, last_seen_at, expires_at, active, revoked_at)
     VALUES (:school, :hash, :type, :user, :fcm, :deviceId, :deviceName, :agent, :ip, :now, :now, :expires, 1, NULL)`,
    {
      school: user.schoolId,
      hash: hashSecret(token),
      type: user.type,
      user: user.id,
      fcm: clip(device.fcm_token, 512),
      deviceId: clip(device.device_id, 200),
      deviceName: clip(device.device_name, 200),
      agent: clip(device.user_agent, 500),
      ip: clip(device.ip, 64),
      now: sqlTime(ctx.db.dialect, now),
      expires: sqlTime(ctx.db.dialect, expiresAt),
    });
    await recordAudit([{
      schoolId: user.schoolId, action: 'login.success', entityType: accountEntity[user.type], entityId: user.id, changes: { session_id: [null, session] },
      actor: { actorType: user.type, actorId: String(user.id), actorName: user.name ?? null },
    }], tx);
    return session;
  });
  const access_token = ctx.tokens.sign(
    { sub: String(user.id), school_id: user.schoolId ?? '', type: user.type, session_token: token },
    expiresAt,
  );
  return { access_token, token_type: 'Bearer', expires_at: expiresAt.toISOString(), session_id: id };
}

interface SessionRow {
  id: number;
  user_type: UserType;
  user_id: number;
  school_id: string | null;
  active: number | boolean;
  expires_at: Date | string;
  last_seen_at: Date | string;
  school_status: string | null;
  staff_status: number | null;
  staff_rbac: string | null;
  designation_rbac: string | null;
  admin_role: string | null;
  admin_school: string | null;
  parent_found: number | null;
  user_name: string | null;
}

/**
 * The session (by school and token hash), its user and their name (for the audit trail), the staff
 * status and the school status, in one indexed query. Each user table is joined on a key that is
 * NULL unless the session is of its kind: MariaDB reads the session first as a constant and then
 * looks up no staff or admin row for a parent's session (with `user_type = ... AND id = user_id`
 * it looked up all three: 15.3 buffer-pool pages a check against 11.2, bench/README.md).
 */
export const SESSION_SQL = `SELECT s.id, s.user_type, s.user_id, s.school_id, s.active, s.expires_at, s.last_seen_at,
        sc.status AS school_status, st.status AS staff_status, st.rbac AS staff_rbac, d.rbac AS designation_rbac,
        a.role AS admin_role, a.school_id AS admin_school, p.id AS parent_found,
        COALESCE(st.name, a.name, p.father_name) AS user_name
   FROM sessions s
   LEFT JOIN schools sc ON sc.id = s.school_id
   LEFT JOIN staff st ON st.id = CASE WHEN s.user_type = 'staff' THEN s.user_id END AND st.school_id = s.school_id
   LEFT JOIN designations d ON d.school_id = st.school_id AND d.name = st.designation
   LEFT JOIN admin_users a ON a.id = CASE WHEN s.user_type = 'admin' THEN s.user_id END
   LEFT JOIN parents p ON p.id = CASE WHEN s.user_type = 'parent' THEN s.user_id END AND p.school_id = s.school_id
  WHERE s.school_id = :school AND s.token_hash = :hash`;

/** The per-request check, one indexed query. Nothing is cached, so a revocation holds from the next call. */
export async function resolvePrincipal(ctx: AppContext, claims: TokenClaims): Promise<Principal> {
  const [row] = await ctx.db.select<SessionRow>(
    SESSION_SQL,
    { school: claims.school_id, hash: hashSecret(claims.session_token) },
    { dateObjects: true },
  );
  if (!row || row.user_type !== claims.type || String(row.user_id) !== claims.sub) throw unauthorized('Session is not active');
  const userExists =
    row.user_type === 'staff' ? row.staff_status !== null
    : row.user_type === 'admin' ? row.admin_role !== null && row.admin_school === row.school_id
    : row.parent_found !== null;
  if (!userExists || row.school_status === null) throw unauthorized('Session is not active');
  // A disabled account or a suspended school is told so (403) before the session's own state.
  if (row.school_status !== 'active') throw forbidden('School access is suspended');
  if (row.user_type === 'staff' && Number(row.staff_status) !== 1) throw forbidden('This staff account is disabled');
  const now = Date.now();
  if (!Number(row.active) || millis(row.expires_at) <= now) throw unauthorized('Session is not active');

  if (now - millis(row.last_seen_at) > LAST_SEEN_EVERY_MS) {
    // Best effort, off the request's path: a busy database must not fail or slow a read for this.
    ctx.db
      .execute('UPDATE sessions SET last_seen_at = :now WHERE id = :id AND last_seen_at < :cutoff', {
        now: new Date(now),
        id: row.id,
        cutoff: new Date(now - LAST_SEEN_EVERY_MS),
      })
      .catch((err: unknown) => ctx.log.warn({ err, session: row.id }, 'could not record last_seen_at'));
  }
  const principal: Principal = { type: row.user_type, userId: Number(row.user_id), schoolId: row.school_id!, sessionId: Number(row.id), name: row.user_name };
  if (row.user_type === 'admin') principal.role = row.admin_role as Principal['role'];
  if (row.user_type === 'staff') {
    principal.rbac = effectiveRbac(parseJson<Rbac>(row.designation_rbac), parseJson<Rbac>(row.staff_rbac));
  }
  return principal;
}

export interface SessionView {
  id: number;
  current: boolean;
  device_id: string | null;
  device_name: string | null;
  user_agent: string | null;
  ip: string | null;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

/** The caller's active, unexpired sessions, newest first. */
export async function listSessions(ctx: AppContext, principal: Principal): Promise<SessionView[]> {
  const rows = await ctx.db.select<Record<string, unknown>>(
    `SELECT id, device_id, device_name, user_agent, ip, created_at, last_seen_at, expires_at FROM sessions
      WHERE school_id = :school AND user_type = :type AND user_id = :user AND active = :active AND expires_at > :now
      ORDER BY created_at DESC, id DESC`,
    { school: principal.schoolId, type: principal.type, user: principal.userId, active: true, now: new Date() },
  );
  return rows.map((r) => ({
    id: Number(r.id),
    current: Number(r.id) === principal.sessionId,
    device_id: (r.device_id as string) ?? null,
    device_name: (r.device_name as string) ?? null,
    user_agent: (r.user_agent as string) ?? null,
    ip: (r.ip as string) ?? null,
    created_at: iso(r.created_at)!,
    last_seen_at: iso(r.last_seen_at)!,
    expires_at: iso(r.expires_at)!,
  }));
}

const endSql = 'UPDATE sessions SET active = :inactive, revoked_at = :now, fcm_token = NULL';

/** The audit trail's name for an account of each kind. */
export const accountEntity = { parent: 'parent', staff: 'staff', admin: 'admin_user' } as const;

/** The trail of sessions ended by one statement: the session, or the account (or school) whose sessions they were and how many. */
async function endWith(
  ctx: AppContext, sql: string, replacements: Record<string, unknown>, schoolId: string | null, what: { session?: number; type?: UserType; user?: number }, action = 'session.revoke',
): Promise<number> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const ended = await writeIn(ctx.db, transaction, sql, replacements);
    if (ended > 0) await recordAudit([{ schoolId, action, entityType: 'session', entityId: what.session ?? null, changes: endedChanges(ended, what) }], transaction);
    return ended;
  });
}

function endedChanges(ended: number, what: { session?: number; type?: UserType; user?: number }): Changes {
  return what.session !== undefined ? { active: [true, false] } : {
    ...(what.type ? { user_type: [null, what.type], user_id: [null, what.user] } : {}),
    sessions_ended: [null, ended],
  };
}

/** Ends one of the caller's own sessions; anyone else's answers 404. */
export async function revokeOwnSession(ctx: AppContext, principal: Principal, sessionId: number): Promise<void> {
  const n = await endWith(
    ctx, `${endSql} WHERE id = :id AND school_id = :school AND user_type = :type AND user_id = :user AND active = :active`,
    { inactive: false, active: true, now: new Date(), id: sessionId, school: principal.schoolId, type: principal.type, user: principal.userId },
    principal.schoolId, { session: sessionId },
  );
  if (n === 0) throw notFound('Session');
}

/** Ends every session of the caller but the current one. */
export async function revokeOtherSessions(ctx: AppContext, principal: Principal): Promise<number> {
  return endWith(
    ctx, `${endSql} WHERE school_id = :school AND user_type = :type AND user_id = :user AND active = :active AND id <> :current`,
    { inactive: false, active: true, now: new Date(), school: principal.schoolId, type: principal.type, user: principal.userId, current: principal.sessionId },
    principal.schoolId, { type: principal.type, user: principal.userId },
  );
}

/** Ends every session of one account at once (PIN or password reset, staff archive). */
export async function endUserSessions(ctx: AppContext, schoolId: string | null, type: UserType, userId: number): Promise<number> {
  const where = schoolId === null ? 'school_id IS NULL' : 'school_id = :school';
  return endWith(ctx, `${endSql} WHERE ${where} AND user_type = :type AND user_id = :user AND active = :active`, {
    inactive: false, active: true, now: new Date(), school: schoolId, type, user: userId,
  }, schoolId, { type, user: userId });
}

/** The account a session signs in. */
export interface SessionAccount {
  user_type: UserType;
  user_id: number;
}

/**
 * Who may end another account's session (sections 5 and 27), or why not: anyone their own; the
 * operator any; a super_admin any of its school; an admin or it_contact those of parents and of
 * staff, never another admin user's; a parent or staff member none but their own. The session's
 * school is the caller's: revokeSessionById finds it there.
 */
export function sessionEndingRefusal(principal: Principal, account: SessionAccount): string | null {
  if (account.user_type === principal.type && Number(account.user_id) === principal.userId) return null;
  if (principal.type !== 'admin') return 'You can end only your own sessions';
  if (principal.role === 'platform_admin' || principal.role === 'super_admin') return null;
  return account.user_type === 'admin' ? "Only a super admin can end another admin's session" : null;
}

export const mayEndSession = (principal: Principal, account: SessionAccount) => sessionEndingRefusal(principal, account) === null;

/**
 * Ends one session of the caller's school that the caller may end (sessionEndingRefusal: 403 with
 * the reason otherwise, the session left active); the operator's own sessions belong to no school,
 * so an operator without a school finds a session of any. Unknown, another school's or already
 * ended: 404.
 */
export async function revokeSessionById(ctx: AppContext, principal: Principal, sessionId: number): Promise<void> {
  const anySchool = principal.type === 'admin' && principal.role === 'platform_admin' && !principal.schoolId;
  const where = `id = :id${anySchool ? '' : ' AND school_id = :school'} AND active = :active`;
  const replacements = { inactive: false, active: true, now: new Date(), id: sessionId, school: principal.schoolId };
  const [row] = await ctx.db.select<SessionAccount & { school_id: string | null }>(`SELECT school_id, user_type, user_id FROM sessions WHERE ${where}`, replacements);
  if (!row) throw notFound('Session');
  const refusal = sessionEndingRefusal(principal, row);
  if (refusal) throw forbidden(refusal);
  const n = await endWith(ctx, `${endSql} WHERE ${where}`, replacements, row.school_id, { session: sessionId });
  if (n === 0) throw notFound('Session');
}

/** Ends every session of a school (suspension). */
export async function endSchoolSessions(ctx: AppContext, schoolId: string): Promise<number> {
  return endWith(ctx, `${endSql} WHERE school_id = :school AND active = :active`, { inactive: false, active: true, now: new Date(), school: schoolId }, schoolId, {});
}

/** Deletes sessions that ended, or went unused, more than `days` ago. */
export async function pruneSessions(ctx: AppContext, days = ctx.config.sessionPruneDays): Promise<number> {
  const cutoff = new Date(Date.now() - days * 86_400_000);
  const stale = 'expires_at < :cutoff OR last_seen_at < :cutoff OR (active = :inactive AND revoked_at < :cutoff)';
  const replacements = { cutoff: sqlTime(ctx.db.dialect, cutoff), inactive: false };
  // One event per school, with its count, so each school's own log shows its pruned sessions.
  return ctx.db.sequelize.transaction(async (transaction) => {
    const perSchool = await ctx.db.sequelize.query<{ school_id: string | null; n: number }>(
      `SELECT school_id, COUNT(*) AS n FROM sessions WHERE ${stale} GROUP BY school_id`, { replacements, type: QueryTypes.SELECT, transaction },
    );
    const ended = await writeIn(ctx.db, transaction, `DELETE FROM sessions WHERE ${stale}`, replacements);
    await recordAudit(perSchool.map((r) => ({
      schoolId: r.school_id, action: 'session.prune', entityType: 'session' as const, entityId: null, changes: { sessions_ended: [null, Number(r.n)] },
    })), transaction);
    return ended;
  });
}

/** Ends the session behind the current request (logout). */
export async function logout(ctx: AppContext, principal: Principal): Promise<void> {
  await endWith(ctx, `${endSql} WHERE id = :id AND school_id = :school AND active = :active`, {
    inactive: false, active: true, now: new Date(), id: principal.sessionId, school: principal.schoolId,
  }, principal.schoolId, { session: principal.sessionId }, 'session.logout');
}
