import type { AppContext } from '../../context.js';
import { iso } from '../../db.js';
import { AppError } from '../../errors.js';

export const MAX_FAILURES = 5;
export const WINDOW_MS = 15 * 60_000;
export const LOCK_MS = 15 * 60_000;

export interface LockKey {
  /** '' where the account belongs to no one school (admin e-mails, a parent phone without school_id). */
  schoolId: string;
  account: string;
}

/**
 * 429 with Retry-After while the account is locked, even for the right PIN. Answers whether the
 * account has failures on record, so a successful login clears them only when there are some.
 */
export async function assertNotLocked(ctx: AppContext, key: LockKey): Promise<boolean> {
  const [row] = await ctx.db.select<{ locked_until: Date | string | null }>(
    'SELECT locked_until FROM login_lockouts WHERE school_id = :school AND account_key = :account',
    { school: key.schoolId, account: key.account },
  );
  if (!row) return false;
  if (!row.locked_until) return true;
  const remaining = new Date(iso(row.locked_until)!).getTime() - Date.now();
  if (remaining > 0) {
    const seconds = Math.ceil(remaining / 1000);
    throw new AppError('TOO_MANY_REQUESTS', `Too many failed attempts; try again in ${Math.ceil(seconds / 60)} minutes`, undefined, {
      'Retry-After': String(seconds),
    });
  }
  return true;
}

/**
 * Counts a failure in one statement (an upsert), so concurrent attempts on several instances all
 * count. The fifth failure inside the window sets locked_until; a failure after the window restarts it.
 * Answers whether this failure locked the account.
 */
export async function recordFailure(ctx: AppContext, key: LockKey): Promise<boolean> {
  const now = new Date();
  const params = {
    school: key.schoolId,
    account: key.account,
    now,
    windowStart: new Date(now.getTime() - WINDOW_MS),
    lockUntil: new Date(now.getTime() + LOCK_MS),
    max: MAX_FAILURES,
  };
  const expired = 'window_started_at < :windowStart';
  if (ctx.db.dialect === 'mysql') {
    // MySQL applies these assignments left to right: locked_until and failures read the old values.
    await ctx.db.execute(
      `INSERT INTO login_lockouts (school_id, account_key, failures, window_started_at, locked_until, updated_at)
       VALUES (:school, :account, 1, :now, NULL, :now)
       ON DUPLICATE KEY UPDATE
         locked_until = CASE WHEN ${expired} THEN NULL WHEN failures + 1 >= :max THEN :lockUntil ELSE locked_until END,
         failures = CASE WHEN ${expired} THEN 1 ELSE failures + 1 END,
         window_started_at = CASE WHEN ${expired} THEN :now ELSE window_started_at END,
         updated_at = :now`,
      params,
    );
  } else {
    await ctx.db.execute(
      `INSERT INTO login_lockouts (school_id, account_key, failures, window_started_at, locked_until, updated_at)
       VALUES (:school, :account, 1, :now, NULL, :now)
       ON CONFLICT (school_id, account_key) DO UPDATE SET
         locked_until = CASE WHEN ${expired} THEN NULL WHEN failures + 1 >= :max THEN :lockUntil ELSE locked_until END,
         failures = CASE WHEN ${expired} THEN 1 ELSE failures + 1 END,
         window_started_at = CASE WHEN ${expired} THEN :now ELSE window_started_at END,
         updated_at = :now`,
      params,
    );
  }
  const [row] = await ctx.db.select<{ failures: number; locked_until: unknown }>(
    'SELECT failures, locked_until FROM login_lockouts WHERE school_id = :school AND account_key = :account',
    { school: key.schoolId, account: key.account },
  );
  return !!row && row.locked_until !== null && Number(row.failures) === MAX_FAILURES;
}

export async function clearFailures(ctx: AppContext, key: LockKey): Promise<void> {
  await ctx.db.execute('DELETE FROM login_lockouts WHERE school_id = :school AND account_key = :account', {
    school: key.schoolId,
    account: key.account,
  });
}
