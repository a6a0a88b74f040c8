import type { Request } from 'express';
import type { AppContext, Principal } from '../context.js';
import { iso } from '../db.js';
import { AppError } from '../errors.js';
import type { AdminRole } from '../models/index.js';
import { operatorPrincipal } from '../services/access/guards.js';
import { actingAs, type AuditActor } from '../services/audit/context.js';
import { verifyAdminCredentials } from '../services/auth/login.js';
import { issueSession, revokeSessionById } from '../services/auth/sessions.js';

export const CONSOLE_DEVICE_NAME = 'admin console';

/** What the console keeps about its signed-in admin (AdminJS's currentAdmin), refreshed from the database on every request. */
export interface ConsoleAdmin {
  id: string;
  email: string;
  title: string;
  role: AdminRole;
  /** Null only for the operator's platform_admin. */
  schoolId: string | null;
  sessionId: number;
}

export const isPlatformAdmin = (admin: ConsoleAdmin) => admin.role === 'platform_admin';

/** The console's admin as the audit trail names them: the operator's platform_admin is the operator. */
export const consoleActor = (admin: ConsoleAdmin): Pick<AuditActor, 'door' | 'actorType' | 'actorId' | 'actorName'> => ({
  door: 'console', actorType: isPlatformAdmin(admin) ? 'operator' : 'admin', actorId: admin.id, actorName: admin.title,
});

/**
 * The principal the services see for an action of this admin. A platform_admin acting on a record
 * acts as the operator of that record's school; a school admin always acts in its own school.
 */
export function principalFor(admin: ConsoleAdmin, recordSchoolId?: string | null): Principal {
  // A record of no school (the operator's own) gets a school no record has, so a service finds nothing.
  if (isPlatformAdmin(admin)) return { ...operatorPrincipal(recordSchoolId ?? ''), userId: Number(admin.id), sessionId: admin.sessionId };
  return { type: 'admin', userId: Number(admin.id), schoolId: admin.schoolId!, sessionId: admin.sessionId, role: admin.role };
}

/** Signs an admin in with the same accounts and lock-out as /web-app/signin; the sign-in is a sessions row like any other. */
export async function signInToConsole(ctx: AppContext, email: string, password: string, req?: Request): Promise<ConsoleAdmin> {
  return actingAs({ door: 'console', actorType: 'admin', ip: req?.ip ?? null, requestId: req?.id ?? null }, async () => {
    const admin = await verifyAdminCredentials(ctx, { email: String(email ?? ''), password: String(password ?? '') });
    const session = await issueSession(
      ctx,
      { type: 'admin', id: admin.id, schoolId: admin.school_id, name: admin.name },
      { device_name: CONSOLE_DEVICE_NAME, user_agent: req?.get('user-agent') ?? null, ip: req?.ip ?? null },
    );
    return { id: String(admin.id), email: admin.email, title: admin.name, role: admin.role, schoolId: admin.school_id, sessionId: session.session_id };
  });
}

interface ConsoleSessionRow {
  active: number | boolean;
  expires_at: Date | string;
  last_seen_at: Date | string;
  session_school: string | null;
  admin_id: number | null;
  admin_school: string | null;
  role: AdminRole | null;
  name: string | null;
  email: string | null;
  school_status: string | null;
}

const LAST_SEEN_EVERY_MS = 60_000;

/**
 * The console's per-request check, one indexed query: the sessions row is active and unexpired, its
 * admin still exists in the same school, and that school is active. Null sends the browser to the
 * login page, so revoking the row from GET /web-app/sessions (or anywhere else) logs the console out.
 */
export async function checkConsoleSession(ctx: AppContext, sessionId: number): Promise<ConsoleAdmin | null> {
  const [row] = await ctx.db.select<ConsoleSessionRow>(
    `SELECT s.active, s.expires_at, s.last_seen_at, s.school_id AS session_school,
            a.id AS admin_id, a.school_id AS admin_school, a.role, a.name, a.email, sc.status AS school_status
       FROM sessions s
       LEFT JOIN admin_users a ON a.id = s.user_id
       LEFT JOIN schools sc ON sc.id = s.school_id
      WHERE s.id = :id AND s.user_type = :type`,
    { id: sessionId, type: 'admin' },
  );
  if (!row || row.admin_id === null || !Number(row.active)) return null;
  const now = Date.now();
  if (new Date(iso(row.expires_at)!).getTime() <= now) return null;
  if ((row.admin_school ?? null) !== (row.session_school ?? null)) return null;
  if (row.session_school === null ? row.role !== 'platform_admin' : row.school_status !== 'active') return null;
  if (now - new Date(iso(row.last_seen_at)!).getTime() > LAST_SEEN_EVERY_MS) {
    await ctx.db.execute('UPDATE sessions SET last_seen_at = :now WHERE id = :id AND last_seen_at < :cutoff', {
      now: new Date(now), id: sessionId, cutoff: new Date(now - LAST_SEEN_EVERY_MS),
    });
  }
  return { id: String(row.admin_id), email: row.email!, title: row.name!, role: row.role!, schoolId: row.session_school, sessionId };
}

/** Logout ends the sessions row too, so the sign-in disappears from GET /web-app/sessions. */
export async function endConsoleSession(ctx: AppContext, admin: ConsoleAdmin): Promise<void> {
  await actingAs(consoleActor(admin), () => revokeSessionById(ctx, principalFor(admin), admin.sessionId)).catch((err: unknown) => {
    // Already ended (revoked elsewhere): logging out finishes the job.
    if (!(err instanceof AppError && err.code === 'NOT_FOUND')) throw err;
  });
}
