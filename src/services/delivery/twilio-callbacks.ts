import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../context.js';
import { forbidden } from '../../errors.js';
import { writeIn } from '../../db.js';
import { diff, recordAudit } from '../audit/audit.js';
import { smsRefused, inboundSms } from './opt-out.js';

export type CallbackParams = Record<string, string | string[] | undefined>;

/**
 * Twilio's signature of a callback: base64 of HMAC-SHA1, keyed with the auth token, over the URL
 * followed by every POST parameter's name and value in name order (a repeated name: each distinct
 * value, sorted).
 */
export function twilioSignature(authToken: string, url: string, params: CallbackParams): string {
  let data = url;
  for (const name of Object.keys(params).sort()) {
    const value = params[name];
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? [...new Set(value)].sort() : [value]) data += name + v;
  }
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The URL with its scheme's default port written out, or taken away: Twilio signs the URL as it was configured, with or without it. */
function portVariants(url: string): string[] {
  const u = new URL(url);
  const port = u.protocol === 'https:' ? '443' : '80';
  const bare = url.replace(`${u.hostname}:${port}`, u.hostname);
  return [...new Set([url, bare, bare.replace(u.hostname, `${u.hostname}:${port}`)])];
}

/**
 * 403 unless `X-Twilio-Signature` is Twilio's signature of this request. The URL signed is always
 * PUBLIC_APP_URL followed by the path and query the request came with, never the address the request
 * arrived at: behind a proxy the service cannot know its own. Without TWILIO_AUTH_TOKEN nothing passes.
 */
export function verifyTwilio(ctx: AppContext, pathAndQuery: string, params: CallbackParams, signature: string | undefined): void {
  const token = ctx.config.twilioAuthToken;
  const url = `${ctx.config.publicAppUrl}${pathAndQuery}`;
  if (!token || !signature || !portVariants(url).some((u) => same(twilioSignature(token, u, params), signature))) {
    throw forbidden('The request does not carry a valid X-Twilio-Signature');
  }
}

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? '';

/**
 * A message's status, as Twilio reports it (`MessageSid`, `MessageStatus`, `ErrorCode`): `delivered`
 * sets the record's `delivered_at`; `undelivered` and `failed` fail it with Twilio's error code,
 * each audited `notification.update` as the gateway's (the system's) doing; any other status changes
 * nothing, nor does a sid no record kept. 21610 (the recipient replied STOP to that sender) also
 * turns SMS off for that phone.
 */
export async function twilioStatus(ctx: AppContext, params: CallbackParams): Promise<void> {
  const sid = one(params.MessageSid);
  const status = one(params.MessageStatus);
  const code = one(params.ErrorCode);
  if (!sid) return;
  const [record] = await ctx.db.select<{ id: number; school_id: string; status: string; last_error: string | null; address: string | null }>(
    "SELECT id, school_id, status, last_error, address FROM notifications WHERE provider_id = :sid AND channel = 'sms'", { sid },
  );
  if (!record) return;
  const now = new Date();
  const change = status === 'delivered' ? { status: 'sent', delivered_at: now, last_error: record.last_error }
    : status === 'undelivered' || status === 'failed' ? { status: 'failed', delivered_at: null, last_error: `twilio ${code || status}`.slice(0, 1000) }
    : null;
  if (change) {
    await ctx.db.sequelize.transaction(async (transaction) => {
      const changed = await writeIn(ctx.db, transaction,
        `UPDATE notifications SET status = :status, last_error = :error, updated_at = :now${change.delivered_at ? ', delivered_at = :now' : ''} WHERE id = :id`,
        { status: change.status, error: change.last_error, now, id: Number(record.id) },
      );
      if (changed === 0) return;
      await recordAudit([{
        schoolId: record.school_id, action: 'notification.update', entityType: 'notification', entityId: Number(record.id),
        changes: diff({ status: record.status, last_error: record.last_error }, { status: change.status, last_error: change.last_error, ...(change.delivered_at ? { delivered_at: now } : {}) }),
        actor: { actorType: 'system', actorId: null, actorName: 'Twilio' },
      }], transaction);
    });
  }
  if (code === '21610' && record.address) await smsRefused(ctx, record.address);
}

/** A text message a parent sent to the school's number (`From`, `Body`): STOP and START. */
export async function twilioInbound(ctx: AppContext, params: CallbackParams): Promise<void> {
  await inboundSms(ctx, one(params.From), one(params.Body));
}
