import { DatabaseError, UniqueConstraintError, type Transaction } from 'sequelize';
import type { AppContext } from '../context.js';

/** Each retry lets one of the racing requests through, so a burst of N needs up to N attempts. */
const RETRIES = 10;

/** A unique key or lock that a concurrent request won: worth running the whole transaction again. */
const isRace = (err: unknown, retryUnique: (err: UniqueConstraintError) => boolean) =>
  err instanceof UniqueConstraintError
    ? retryUnique(err)
    : err instanceof DatabaseError && /ER_LOCK_DEADLOCK|ER_LOCK_WAIT_TIMEOUT|SQLITE_BUSY/.test(String((err.parent as { code?: string })?.code ?? err.message));

/** True when the unique violation is on the given key: SQLite names `table.column`, MySQL the index. */
export function violates(err: UniqueConstraintError, index: string, column: string): boolean {
  const text = `${JSON.stringify(err.fields ?? {})} ${(err.parent as Error | undefined)?.message ?? ''}`;
  return text.includes(index) || text.includes(column);
}

/**
 * Runs `work` in one transaction, again from the start (a fresh snapshot) when it lost a race that a
 * retry resolves: a deadlock, or a unique violation `retryUnique` accepts. Anything else propagates.
 */
export async function transactionWithRetry<T>(
  ctx: AppContext,
  work: (transaction: Transaction) => Promise<T>,
  retryUnique: (err: UniqueConstraintError) => boolean = () => false,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await ctx.db.sequelize.transaction(work);
    } catch (err) {
      if (attempt >= RETRIES || !isRace(err, retryUnique)) throw err;
      // A random pause, longer each time, so the losers of one race do not all meet again in the next.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
    }
  }
}
