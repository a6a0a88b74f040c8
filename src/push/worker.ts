import type { AppContext } from '../context.js';
import type { PushMessage, PushResult } from './provider.js';
import { pushProvider, sendMessage } from './providers.js';
import { every, type Periodic } from '../jobs/periodic.js';
import { deliverDueWebhooks, type WebhookCounts } from '../services/webhooks/delivery.js';
import { at, claimEach, retryAt } from './lease.js';

const BATCH = 100;
const POLL_MS = 1_000;

export interface OutboxRow {
  id: number;
  school_id: string;
  channel: 'push' | 'sms';
  target_type: string;
  session_id: number | null;
  address: string | null;
  title: string;
  body: string;
  data: string | Record<string, string> | null;
  attempts: number;
}

export type Outcome = 'sent' | 'failed' | 'retry' | 'skipped';

export interface Delivery {
  outcome: Outcome;
  /** What went wrong, as recorded in last_error. */
  error?: string;
}

export interface DeliveryCounts {
  claimed: number;
  sent: number;
  failed: number;
  retry: number;
  skipped: number;
  /** The pass over the webhook outbox, made alongside. */
  webhooks: WebhookCounts;
}

const rowColumns = 'id, school_id, channel, target_type, session_id, address, title, body, data, attempts';

function messageOf(row: OutboxRow): PushMessage {
  const data = typeof row.data === 'string' ? (JSON.parse(row.data) as Record<string, string>) : (row.data ?? {});
  return {
    channel: row.channel,
    address: row.address ?? '',
    title: row.title,
    body: row.body,
    data: Object.fromEntries(Object.entries(data).map(([k, v]) => [k, String(v)])),
  };
}

/**
 * Records what one send came to. An unregistered token is forgotten by every session of the school
 * that holds it; a retryable failure waits for the next step of the back-off unless `retry` is off
 * (a test push reports at once) or the attempts are spent.
 */
async function recordOutcome(ctx: AppContext, row: OutboxRow, result: PushResult | null, options: { retry: boolean; now?: Date }): Promise<Delivery> {
  const now = options.now ?? new Date();
  const set = (fields: string, values: Record<string, unknown>) =>
    ctx.db.execute(`UPDATE notifications SET ${fields}, updated_at = :now WHERE id = :id AND status = :pending`, {
      ...values, now: at(ctx, now), id: row.id, pending: 'pending',
    });
  if (result === null) {
    const error = 'no device token';
    await set('status = :status, last_error = :error, next_attempt_at = NULL', { status: 'skipped', error });
    return { outcome: 'skipped', error };
  }
  const attempts = row.attempts + 1;
  if (result.ok) {
    await set('status = :status, attempts = :attempts, sent_at = :now, last_error = NULL, next_attempt_at = NULL', { status: 'sent', attempts });
    return { outcome: 'sent' };
  }
  if (result.kind === 'unregistered' && row.address) {
    await ctx.db.execute('UPDATE sessions SET fcm_token = NULL WHERE school_id = :school AND fcm_token = :token', { school: row.school_id, token: row.address });
  }
  const error = result.error.slice(0, 1000);
  const next = retryAt(row.attempts, now);
  if (result.kind === 'retryable' && options.retry && next) {
    await set('attempts = :attempts, last_error = :error, next_attempt_at = :next', { attempts, error, next: at(ctx, next) });
    return { outcome: 'retry', error };
  }
  await set('status = :status, attempts = :attempts, last_error = :error, next_attempt_at = NULL', { status: 'failed', attempts, error });
  return { outcome: 'failed', error };
}

/** Sends one claimed row; a row without an address (no device token, no phone) is skipped. */
export async function deliverRow(ctx: AppContext, row: OutboxRow, options: { retry: boolean }): Promise<Delivery> {
  if (!row.address) return recordOutcome(ctx, row, null, options);
  let result: PushResult;
  try {
    result = await sendMessage(ctx, messageOf(row));
  } catch (err) {
    result = { ok: false, kind: 'retryable', error: err instanceof Error ? err.message : String(err) };
  }
  return recordOutcome(ctx, row, result, options);
}

/**
 * One pass over the due outbox rows (at most `limit` of each outbox): claim each, send it, record the
 * outcome. Push notifications and webhook deliveries drain side by side, with the same claim and back-off.
 */
export async function deliverDue(ctx: AppContext, options: { now?: Date; limit?: number; stopping?: () => boolean } = {}): Promise<DeliveryCounts> {
  const now = options.now ?? new Date();
  const [counts, webhooks] = await Promise.all([deliverDuePush(ctx, now, options), deliverDueWebhooks(ctx, { ...options, now })]);
  return { ...counts, webhooks };
}

async function deliverDuePush(ctx: AppContext, now: Date, options: { limit?: number; stopping?: () => boolean }) {
  const rows = await ctx.db.select<OutboxRow>(
    `SELECT ${rowColumns} FROM notifications WHERE status = :pending AND next_attempt_at <= :now ORDER BY next_attempt_at, id LIMIT :limit`,
    { pending: 'pending', now: at(ctx, now), limit: options.limit ?? BATCH },
  );
  const counts = { claimed: 0, sent: 0, failed: 0, retry: 0, skipped: 0 };
  counts.claimed = await claimEach(ctx, 'notifications', rows, now, options.stopping, async (row) => {
    counts[(await deliverRow(ctx, row, { retry: true })).outcome]++;
  });
  return counts;
}

export type PushWorker = Periodic;

/** Polls the outboxes every second and drains what is due; several instances may run one each. */
export function startPushWorker(ctx: AppContext): PushWorker {
  // Created now, so that an unreadable service account stops the start instead of failing every pass.
  pushProvider(ctx);
  const drain = async (stopping: () => boolean) => {
    for (;;) {
      if (stopping()) return;
      const counts = await deliverDue(ctx, { stopping });
      if (counts.claimed < BATCH && counts.webhooks.claimed < BATCH) return;
    }
  };
  return every(POLL_MS, drain, ctx.log, 'push worker pass');
}
