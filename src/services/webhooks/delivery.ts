import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AppContext } from '../../context.js';
import { at, claimEach, retryAt } from '../../push/lease.js';
import { checkWebhookUrl, type ResolvedAddress } from './addresses.js';
import { abandonPending, urlRules } from './webhooks.js';
import { writeIn } from '../../db.js';
import { recordAudit } from '../audit/audit.js';

const BATCH = 100;
const TIMEOUT_MS = 10_000;
/** A webhook whose every delivery has failed for this long is switched off. */
export const SWITCH_OFF_AFTER_MS = 3 * 24 * 3_600_000;

export interface WebhookCounts {
  claimed: number;
  delivered: number;
  failed: number;
  retry: number;
}

interface DueDelivery {
  id: number;
  school_id: string;
  webhook_id: number;
  event_id: string;
  payload: string;
  attempts: number;
  url: string;
  secret: string;
  active: unknown;
  deleted_status: unknown;
}

interface Attempt {
  ok: boolean;
  /**
   * False when no request was made because the address was refused: `attempts` counts HTTP tries. A
   * lookup that failed counts, as a connection that failed does, so that the back-off runs out.
   */
  tried: boolean;
  status?: number;
  error?: string;
  /** No retry can help. */
  final?: boolean;
}

/** `sha256=` and the hex HMAC-SHA256, keyed with the secret as it was handed out, of "<timestamp>.<body>". */
export function webhookSignature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** Connects only to the addresses that were checked, so a second lookup cannot lead somewhere else. */
const pinnedLookup = (addresses: ResolvedAddress[]): LookupFunction =>
  ((_host: string, options: { all?: boolean; family?: number }, callback: (...args: unknown[]) => void) => {
    if (options.all) return callback(null, addresses);
    const a = addresses.find((x) => !options.family || x.family === options.family) ?? addresses[0]!;
    callback(null, a.address, a.family);
  }) as unknown as LookupFunction;

/** One POST, redirects not followed, answered within 10 s or given up; resolves with the HTTP status. */
function post(url: URL, body: string, headers: Record<string, string>, addresses: ResolvedAddress[]): Promise<number> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(body)), 'User-Agent': 'school-platform-webhooks', ...headers },
      lookup: pinnedLookup(addresses),
      agent: false,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    }, (response) => {
      response.on('error', reject);
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.resume();
    });
    request.on('error', reject);
    request.end(body);
  });
}

const reason = (err: unknown) =>
  err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError') ? `no answer within ${TIMEOUT_MS / 1000} s` : err instanceof Error ? err.message : String(err);

/**
 * The address is checked again at each delivery: a name can resolve somewhere else than when it was
 * saved. Only a refused address ends the delivery; a name that does not resolve now may later.
 */
async function attempt(ctx: AppContext, row: DueDelivery): Promise<Attempt> {
  const check = await checkWebhookUrl(row.url, urlRules(ctx));
  if ('refused' in check) return { ok: false, tried: false, final: true, error: `Not sent: the URL ${check.refused}` };
  if ('unresolved' in check) return { ok: false, tried: true, error: check.unresolved };
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const status = await post(check.url, row.payload, {
      'X-Webhook-Id': row.event_id,
      'X-Webhook-Timestamp': String(timestamp),
      'X-Webhook-Signature': webhookSignature(row.secret, timestamp, row.payload),
    }, check.addresses);
    if (status >= 200 && status < 300) return { ok: true, tried: true, status };
    return { ok: false, tried: true, status, error: status >= 300 && status < 400 ? `HTTP ${status}: redirects are not followed` : `HTTP ${status}` };
  } catch (err) {
    return { ok: false, tried: true, error: reason(err) };
  }
}

/**
 * A failure starts (or continues) the webhook's failing streak; once the streak is three days old, with
 * no delivery since it began (one may succeed beside this failure), the webhook is switched off in one
 * conditional UPDATE that only one worker wins, and what it still had waiting is failed.
 */
async function webhookFailed(ctx: AppContext, row: DueDelivery, error: string, now: Date): Promise<void> {
  await ctx.db.execute('UPDATE webhooks SET failing_since = :now WHERE id = :id AND school_id = :school AND failing_since IS NULL', {
    now: at(ctx, now), id: row.webhook_id, school: row.school_id,
  });
  const disabledReason = `Switched off: every delivery failed for 3 days; last error: ${error}`.slice(0, 300);
  const off = await ctx.db.sequelize.transaction(async (transaction) => {
    const n = await writeIn(ctx.db, transaction,
      `UPDATE webhooks SET active = 0, disabled_reason = :reason, updated_at = :now
        WHERE id = :id AND school_id = :school AND active = 1 AND failing_since <= :cutoff
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.school_id = :school AND d.webhook_id = :id AND d.delivered_at >= webhooks.failing_since)`,
      { reason: disabledReason, now, id: row.webhook_id, school: row.school_id, cutoff: new Date(now.getTime() - SWITCH_OFF_AFTER_MS) },
    );
    if (n === 1) {
      await recordAudit([{
        schoolId: row.school_id, action: 'webhook.disable', entityType: 'webhook', entityId: row.webhook_id, changes: { active: [true, false], disabled_reason: [null, disabledReason] },
      }], transaction);
    }
    return n;
  });
  if (off === 1) await abandonPending(row.school_id, row.webhook_id, 'the webhook was switched off after failing for 3 days');
}

async function record(ctx: AppContext, row: DueDelivery, result: Attempt, now: Date): Promise<keyof Omit<WebhookCounts, 'claimed'>> {
  const attempts = row.attempts + (result.tried ? 1 : 0);
  const common = { id: row.id, pending: 'pending', attempts, response: result.status ?? null, now: at(ctx, now) };
  if (result.ok) {
    await ctx.db.execute(
      `UPDATE webhook_deliveries SET status = 'delivered', attempts = :attempts, response_status = :response, last_error = NULL,
        next_attempt_at = NULL, delivered_at = :now, updated_at = :now WHERE id = :id AND status = :pending`,
      common,
    );
    await ctx.db.execute('UPDATE webhooks SET failing_since = NULL WHERE id = :id AND school_id = :school AND failing_since IS NOT NULL', {
      id: row.webhook_id, school: row.school_id,
    });
    return 'delivered';
  }
  const error = (result.error ?? 'failed').slice(0, 1000);
  const next = result.final ? null : retryAt(row.attempts, now);
  await ctx.db.execute(
    `UPDATE webhook_deliveries SET status = :status, attempts = :attempts, response_status = :response, last_error = :error,
      next_attempt_at = :next, updated_at = :now WHERE id = :id AND status = :pending`,
    { ...common, status: next ? 'pending' : 'failed', error, next: next ? at(ctx, next) : null },
  );
  await webhookFailed(ctx, row, error, now);
  return next ? 'retry' : 'failed';
}

/** One claimed delivery: sent when its webhook is still on, else failed without a request. */
async function deliver(ctx: AppContext, row: DueDelivery, now: Date): Promise<keyof Omit<WebhookCounts, 'claimed'>> {
  if (Number(row.deleted_status) !== 0 || !Number(row.active)) {
    await ctx.db.execute(
      "UPDATE webhook_deliveries SET status = 'failed', last_error = :error, next_attempt_at = NULL, updated_at = :now WHERE id = :id AND status = :pending",
      { id: row.id, pending: 'pending', now: at(ctx, now), error: `Not sent: the webhook was ${Number(row.deleted_status) !== 0 ? 'deleted' : 'switched off'}` },
    );
    return 'failed';
  }
  return record(ctx, row, await attempt(ctx, row), now);
}

/** One pass over the due webhook deliveries (at most `limit`), with the push outbox's claim and back-off. */
export async function deliverDueWebhooks(ctx: AppContext, options: { now?: Date; limit?: number; stopping?: () => boolean } = {}): Promise<WebhookCounts> {
  const now = options.now ?? new Date();
  const rows = await ctx.db.select<DueDelivery>(
    `SELECT d.id, d.school_id, d.webhook_id, d.event_id, d.payload, d.attempts, w.url, w.secret, w.active, w.deleted_status
      FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id AND w.school_id = d.school_id
      WHERE d.status = :pending AND d.next_attempt_at <= :now ORDER BY d.next_attempt_at, d.id LIMIT :limit`,
    { pending: 'pending', now: at(ctx, now), limit: options.limit ?? BATCH },
  );
  const counts: WebhookCounts = { claimed: 0, delivered: 0, failed: 0, retry: 0 };
  counts.claimed = await claimEach(ctx, 'webhook_deliveries', rows.map((r) => ({ ...r, id: Number(r.id) })), now, options.stopping, async (row) => {
    counts[await deliver(ctx, row, now)]++;
  });
  return counts;
}
