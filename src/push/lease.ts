import { QueryTypes } from 'sequelize';
import type { AppContext } from '../context.js';
import { sqlTime, writeIn } from '../db.js';

/**
 * How the outboxes (push notifications, webhook deliveries) are drained: a due row is claimed by a
 * conditional UPDATE, sent, and its outcome recorded; a retryable failure waits for the next step of
 * one back-off. Several workers, in this process or other instances, may drain one outbox at once.
 */

/** Waits after the 1st, 2nd, ... failed attempt; after the last one a row is 'failed'. */
export const RETRY_BACKOFF_MS = [5_000, 30_000, 120_000, 600_000, 3_600_000];
/**
 * A claimed row is not due again before this, so no other worker takes it while it is being sent;
 * if this process dies mid-send, the row becomes due again and is delivered by whoever runs next.
 */
const CLAIM_LEASE_MS = 10 * 60_000;
const CONCURRENCY = 8;

export type OutboxTable = 'notifications' | 'webhook_deliveries';

export const at = (ctx: AppContext, d: Date) => sqlTime(ctx.db.dialect, d);

/** When a row that has failed `attempts` times before this failure is due again; null once the back-off is spent. */
export function retryAt(attempts: number, now: Date): Date | null {
  const backoff = RETRY_BACKOFF_MS[attempts];
  return backoff === undefined ? null : new Date(now.getTime() + backoff);
}

/**
 * Takes a row for this process: a conditional UPDATE that moves its due time past the lease, which
 * only one of several workers can win.
 */
async function claim(ctx: AppContext, table: OutboxTable, id: number, now: Date): Promise<boolean> {
  const n = await ctx.db.execute(
    `UPDATE ${table} SET next_attempt_at = :lease WHERE id = :id AND status = :pending AND next_attempt_at <= :now`,
    { lease: at(ctx, new Date(now.getTime() + CLAIM_LEASE_MS)), id, pending: 'pending', now: at(ctx, now) },
  );
  return n === 1;
}

/** Runs `work` on every item, at most `limit` at once: each lane takes the next item as soon as it is free. */
export async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * Sends each row this worker manages to claim, `concurrency` at a time. Once `stopping` says so, no
 * further row is claimed; the ones being sent finish (a shutdown). Returns how many were claimed.
 */
export async function claimEach<T extends { id: number }>(
  ctx: AppContext, table: OutboxTable, rows: T[], now: Date, stopping: (() => boolean) | undefined, send: (row: T) => Promise<void>,
  concurrency = CONCURRENCY,
): Promise<number> {
  let claimed = 0;
  await inParallel(rows, concurrency, async (row) => {
    if (stopping?.() || !(await claim(ctx, table, row.id, now))) return;
    claimed++;
    await send(row);
  });
  return claimed;
}

/**
 * Takes up to `limit` due rows for this process in one transaction: they are read and their due time
 * moved past the lease together, one commit for the whole batch instead of one a row. On MySQL the
 * read locks the rows and skips those another worker holds (SKIP LOCKED), so two workers never take
 * the same row; SQLite has one writer, whose transaction holds the database.
 */
export async function claimDue<T extends { id: number }>(ctx: AppContext, table: OutboxTable, columns: string, limit: number, now: Date): Promise<T[]> {
  const lock = ctx.db.dialect === 'mysql' ? ' FOR UPDATE SKIP LOCKED' : '';
  return ctx.db.sequelize.transaction(async (transaction) => {
    const rows = await ctx.db.sequelize.query<T>(
      `SELECT ${columns} FROM ${table} WHERE status = :pending AND next_attempt_at <= :now ORDER BY next_attempt_at, id LIMIT :limit${lock}`,
      { replacements: { pending: 'pending', now: at(ctx, now), limit }, type: QueryTypes.SELECT, transaction },
    );
    if (rows.length) {
      await writeIn(ctx.db, transaction, `UPDATE ${table} SET next_attempt_at = :lease WHERE id IN (:ids)`, {
        lease: at(ctx, new Date(now.getTime() + CLAIM_LEASE_MS)), ids: rows.map((r) => r.id),
      });
    }
    return rows.map((r) => ({ ...r, id: Number(r.id) }));
  });
}
