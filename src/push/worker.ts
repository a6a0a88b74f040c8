import type { AppContext } from '../context.js';
import type { OutboundMessage, SendResult } from './provider.js';
import { providersOf, sendMessage } from './providers.js';
import { every, type Periodic } from '../jobs/periodic.js';
import { deliverDueWebhooks, type WebhookCounts } from '../services/webhooks/delivery.js';
import { composeMessages, PIN_SETUP_EVENT, type OutboxRow } from '../services/delivery/compose.js';
import { smsRefused } from '../services/delivery/opt-out.js';
import { at, claimDue, inParallel, retryAt } from './lease.js';

export type { OutboxRow };

const BATCH = 200;
const POLL_MS = 1_000;
const POLL_JITTER = 0.25;
/**
 * Messages in flight at once: gateways answer in tens of milliseconds, so sending one after another
 * would cap an instance at a few dozen a second.
 */
const SEND_CONCURRENCY = 64;
/**
 * Sent records are marked this many at a time, as they come: one statement for several (a commit per
 * message would cost more than its send), yet a crash resends at most these and the sends in flight,
 * not a whole pass.
 */
const SENT_CHUNK = 25;
/**
 * Nor does a sent record wait longer than this to be marked: Twilio's status callbacks find a message
 * by the sid the record keeps, and may come within a second while slower sends hold up the chunk.
 */
const SENT_WAIT_MS = 250;

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

export const OUTBOX_COLUMNS = 'id, school_id, event, channel, entity_type, entity_id, target_type, target_id, session_id, address, title, body, data, attempts';

/**
 * Records what one send came to. An unregistered token is forgotten by every session of the school
 * that holds it; Twilio's 21610 (the recipient replied STOP) turns SMS off for that phone as STOP
 * does; a retryable failure waits for the next step of the back-off unless `retry` is off (a test
 * message reports at once) or the attempts are spent. A PIN set-up SMS keeps its link only until it
 * has gone or failed for good: the link is then its recipient's alone.
 */
async function recordOutcome(ctx: AppContext, row: OutboxRow, result: SendResult | null, options: { retry: boolean; now?: Date }): Promise<Delivery> {
  const now = options.now ?? new Date();
  const scrub = row.event === PIN_SETUP_EVENT ? ', body = title' : '';
  const set = (fields: string, values: Record<string, unknown>) =>
    ctx.db.execute(`UPDATE notifications SET ${fields}, updated_at = :now WHERE id = :id AND status = :pending`, {
      ...values, now: at(ctx, now), id: row.id, pending: 'pending',
    });
  if (result === null) {
    const error = row.channel === 'push' ? 'no device token' : 'no address';
    await set(`status = :status, last_error = :error, next_attempt_at = NULL${scrub}`, { status: 'skipped', error });
    return { outcome: 'skipped', error };
  }
  const attempts = row.attempts + 1;
  if (result.ok) {
    await set(`status = :status, attempts = :attempts, sent_at = :now, last_error = NULL, next_attempt_at = NULL, provider_id = :provider${scrub}`, {
      status: 'sent', attempts, provider: result.id?.slice(0, 64) ?? null,
    });
    return { outcome: 'sent' };
  }
  if (result.kind === 'unregistered' && row.address) {
    await ctx.db.execute('UPDATE sessions SET fcm_token = NULL WHERE school_id = :school AND fcm_token = :token', { school: row.school_id, token: row.address });
  }
  if (row.channel === 'sms' && result.code === 21610 && row.address) await smsRefused(ctx, row.address);
  const error = result.error.slice(0, 1000);
  const next = retryAt(row.attempts, now);
  if (result.kind === 'retryable' && options.retry && next) {
    await set('attempts = :attempts, last_error = :error, next_attempt_at = :next', { attempts, error, next: at(ctx, next) });
    return { outcome: 'retry', error };
  }
  await set(`status = :status, attempts = :attempts, last_error = :error, next_attempt_at = NULL${scrub}`, { status: 'failed', attempts, error });
  return { outcome: 'failed', error };
}

/** What sending one claimed record's message came to; null for a record without an address (nothing to send). */
async function sendRow(ctx: AppContext, row: OutboxRow, message?: OutboundMessage): Promise<SendResult | null> {
  if (!row.address) return null;
  try {
    const composed = message ?? (await composeMessages(ctx, [row])).get(row.id)!;
    return await sendMessage(ctx, composed);
  } catch (err) {
    return { ok: false, kind: 'retryable', error: err instanceof Error ? err.message : String(err) };
  }
}

/** Sends one claimed record's message (composed by composeMessages) and records the outcome; a record without an address is skipped. */
export async function deliverRow(ctx: AppContext, row: OutboxRow, options: { retry: boolean }, message?: OutboundMessage): Promise<Delivery> {
  return recordOutcome(ctx, row, await sendRow(ctx, row, message), options);
}

/**
 * Records some records sent in one statement (a row's `provider_id` by a CASE on its id),
 * instead of one commit each: on MySQL a commit is a log flush, the cost of a send once gateways
 * answer fast. A PIN set-up SMS drops its link as recordOutcome does.
 */
async function recordSent(ctx: AppContext, sent: Array<{ row: OutboxRow; id?: string }>, now: Date): Promise<number> {
  if (sent.length === 0) return 0;
  const ids = sent.map((s) => s.row.id);
  const providerIds: Record<string, unknown> = {};
  const cases = sent.map((s, i) => {
    providerIds[`p${i}`] = s.id?.slice(0, 64) ?? null;
    return `WHEN ${Number(s.row.id)} THEN :p${i}`;
  });
  await ctx.db.execute(
    `UPDATE notifications SET status = :status, attempts = attempts + 1, sent_at = :now, last_error = NULL, next_attempt_at = NULL,
       provider_id = CASE id ${cases.join(' ')} END, body = CASE WHEN event = :pin THEN title ELSE body END, updated_at = :now
     WHERE id IN (:ids) AND status = :pending`,
    { ...providerIds, status: 'sent', now: at(ctx, now), pin: PIN_SETUP_EVENT, ids, pending: 'pending' },
  );
  return sent.length;
}

/**
 * One pass over the due outbox rows (at most `limit` of each outbox): claim each, send it, record the
 * outcome. Push notifications and webhook deliveries drain side by side, with the same claim and back-off.
 */
export async function deliverDue(ctx: AppContext, options: { now?: Date; limit?: number; stopping?: () => boolean } = {}): Promise<DeliveryCounts> {
  const now = options.now ?? new Date();
  const [counts, webhooks] = await Promise.all([deliverDueNotifications(ctx, now, options), deliverDueWebhooks(ctx, { ...options, now })]);
  return { ...counts, webhooks };
}

/**
 * Claims the due records (one transaction), composes the SMS and e-mails among them together (their
 * items read once, their links made in one statement), then sends them all, SEND_CONCURRENCY at a
 * time, and records those sent SENT_CHUNK to a statement; a failure is recorded as it comes.
 */
async function deliverDueNotifications(ctx: AppContext, now: Date, options: { limit?: number; stopping?: () => boolean }) {
  const counts = { claimed: 0, sent: 0, failed: 0, retry: 0, skipped: 0 };
  if (options.stopping?.()) return counts;
  const claimed = await claimDue<OutboxRow>(ctx, 'notifications', OUTBOX_COLUMNS, options.limit ?? BATCH, now);
  counts.claimed = claimed.length;
  if (claimed.length === 0) return counts;
  let messages: Map<number, OutboundMessage>;
  try {
    messages = await composeMessages(ctx, claimed.filter((r) => r.address));
  } catch (err) {
    // The batch's items or links could not be read or made: every record waits for the back-off, none is lost.
    const failure: SendResult = { ok: false, kind: 'retryable', error: `not composed: ${err instanceof Error ? err.message : String(err)}` };
    for (const row of claimed) counts[(await recordOutcome(ctx, row, row.address ? failure : null, { retry: true })).outcome]++;
    return counts;
  }
  let sent: Array<{ row: OutboxRow; id?: string }> = [];
  let timer: NodeJS.Timeout | undefined;
  // Chunks are marked one after another; a failure to mark fails the pass at its end, as it always did.
  let marking: Promise<void> = Promise.resolve();
  let markFailed: { err: unknown } | undefined;
  const markSent = () => {
    clearTimeout(timer);
    timer = undefined;
    const chunk = sent;
    sent = [];
    if (chunk.length === 0) return marking;
    marking = marking.then(async () => {
      counts.sent += await recordSent(ctx, chunk, new Date());
    }).catch((err: unknown) => {
      markFailed ??= { err };
    });
    return marking;
  };
  await inParallel(claimed, SEND_CONCURRENCY, async (row) => {
    const result = await sendRow(ctx, row, messages.get(row.id));
    if (!result?.ok) {
      counts[(await recordOutcome(ctx, row, result, { retry: true })).outcome]++;
      return;
    }
    sent.push({ row, id: result.id });
    if (sent.length >= SENT_CHUNK) await markSent();
    else timer ??= setTimeout(() => void markSent(), SENT_WAIT_MS);
  });
  await markSent();
  if (markFailed) throw markFailed.err;
  return counts;
}

export type PushWorker = Periodic;

/**
 * Polls the outboxes about every second and drains what is due; several instances may run one each.
 * The polls are jittered so that instances started together share a backlog instead of one of them
 * always claiming it first.
 */
export function startPushWorker(ctx: AppContext): PushWorker {
  // Created now, so that an unreadable service account stops the start instead of failing every pass.
  providersOf(ctx);
  const drain = async (stopping: () => boolean) => {
    for (;;) {
      if (stopping()) return;
      const counts = await deliverDue(ctx, { stopping });
      if (counts.claimed < BATCH && counts.webhooks.claimed < BATCH) return;
    }
  };
  return every(POLL_MS, drain, ctx.log, 'push worker pass', { jitter: POLL_JITTER });
}
