import { randomBytes } from 'node:crypto';
import type { Transaction } from 'sequelize';
import { z } from 'zod';
import { pageQuery } from '../schemas.js';
import type { AppContext, Principal } from '../../context.js';
import { iso } from '../../db.js';
import { badRequest, fieldError, notFound } from '../../errors.js';
import { Webhook, WebhookDelivery } from '../../models/index.js';
import { webhookDeliveryStatuses, webhookEvents, type WebhookEvent } from '../../models/webhook.js';
import { assertInSchool } from '../access/found.js';
import { requireRole } from '../access/guards.js';
import { offsetOf, paginationOf } from '../pagination.js';
import { parseInput } from '../validation.js';
import { checkWebhookUrl, URL_MAX, urlFormRefusal } from './addresses.js';

export { webhookEvents };
export const webhookEventChoices = [...webhookEvents, '*'] as const;

/** The form is checked by the schema, so the command line refuses a malformed URL as a usage error; the address rules need a lookup (checkedUrl). */
const url = () =>
  z.string().trim().min(1).max(URL_MAX)
    .superRefine((value, ctx) => {
      const why = urlFormRefusal(value);
      if (why) ctx.addIssue({ code: 'custom', message: why });
    })
    .describe('Where events are POSTed: https under NODE_ENV=production, never a private or reserved address');
const events = () =>
  z.array(z.enum(webhookEventChoices)).min(1).max(webhookEventChoices.length).describe('The events to send; `*` for every event');

export const newWebhookInput = z.object({ url: url(), events: events().default(['*']) });
export const webhookChangesInput = z.object({
  url: url().optional(),
  events: events().optional(),
  active: z.boolean().optional().describe('true switches a webhook on again (after it was switched off for failing); false pauses it'),
});
export const deliveryListQuery = z.object({ status: z.enum(webhookDeliveryStatuses).optional(), ...pageQuery(20) });
export type NewWebhook = z.input<typeof newWebhookInput>;
export type WebhookChanges = z.input<typeof webhookChangesInput>;
export type DeliveryFilter = z.input<typeof deliveryListQuery>;

export interface WebhookView {
  id: number;
  url: string;
  events: Array<WebhookEvent | '*'>;
  active: boolean;
  /** Why the webhook was switched off; null while it is on. */
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface DeliveryView {
  id: number;
  event_id: string;
  event: string;
  status: string;
  attempts: number;
  response_status: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

/** Webhooks hand the school's data to another system: its super_admin decides that (platform_admin passes too). */
const requireOwner = (principal: Principal) => requireRole(principal, 'super_admin');

const view = (w: Webhook): WebhookView => ({
  id: w.id,
  url: w.url,
  events: w.events,
  active: Boolean(w.active),
  disabled_reason: w.disabled_reason ?? null,
  created_at: iso(w.created_at)!,
  updated_at: iso(w.updated_at)!,
});

const deliveryView = (d: WebhookDelivery): DeliveryView => ({
  id: d.id,
  event_id: d.event_id,
  event: d.event,
  status: d.status,
  attempts: d.attempts,
  response_status: d.response_status ?? null,
  last_error: d.last_error ?? null,
  created_at: iso(d.created_at)!,
  delivered_at: iso(d.delivered_at),
});

export const urlRules = (ctx: AppContext) => ({ production: ctx.config.production, allowPrivate: ctx.config.webhookAllowPrivate });

async function checkedUrl(ctx: AppContext, raw: string): Promise<string> {
  const check = await checkWebhookUrl(raw, urlRules(ctx));
  if ('refused' in check) throw fieldError('url', check.refused);
  // Saved, a name that does not resolve now is refused; at delivery the same failure is retried.
  if ('unresolved' in check) throw fieldError('url', `is refused: ${check.unresolved}`);
  return check.url.toString();
}

/** The school's webhook, not deleted, else 404 (another school's is never confirmed). */
async function webhookOf(schoolId: string, id: number, transaction?: Transaction): Promise<Webhook> {
  const webhook = await Webhook.findOne({ where: { id, school_id: schoolId, deleted_status: 0 }, transaction });
  if (!webhook) throw notFound('Webhook');
  return webhook;
}

const distinct = <T>(values: T[]) => [...new Set(values)];

export async function listWebhooks(principal: Principal): Promise<WebhookView[]> {
  requireOwner(principal);
  const rows = await Webhook.findAll({ where: { school_id: principal.schoolId, deleted_status: 0 }, order: [['id', 'ASC']] });
  return rows.map(view);
}

export async function getWebhook(principal: Principal, id: number): Promise<WebhookView> {
  requireOwner(principal);
  return view(await webhookOf(principal.schoolId, id));
}

/** A new webhook, on; the secret that signs its deliveries is in this answer only. */
export async function createWebhook(ctx: AppContext, principal: Principal, input: NewWebhook): Promise<WebhookView & { secret: string }> {
  requireOwner(principal);
  const data = parseInput(newWebhookInput, input);
  const secret = randomBytes(32).toString('base64url');
  const webhook = await Webhook.create({
    school_id: principal.schoolId, url: await checkedUrl(ctx, data.url), events: distinct(data.events), secret,
  });
  return { ...view(webhook), secret };
}

/** A webhook of the caller's school (super_admin), else 404: a change of another school's is refused before its body is judged. */
export async function assertWebhookFound(principal: Principal, id: number): Promise<void> {
  requireOwner(principal);
  await assertInSchool(principal, Webhook, 'Webhook', id, { deleted_status: 0 });
}

/** Switching a webhook on again clears why it was off and its failing streak: it gets three new days. */
export async function updateWebhook(ctx: AppContext, principal: Principal, id: number, input: WebhookChanges): Promise<WebhookView> {
  requireOwner(principal);
  const data = parseInput(webhookChangesInput, input);
  if (data.url === undefined && data.events === undefined && data.active === undefined) throw badRequest('Send at least one field to change');
  const url = data.url !== undefined ? await checkedUrl(ctx, data.url) : undefined;
  return ctx.db.sequelize.transaction(async (transaction) => {
    const webhook = await webhookOf(principal.schoolId, id, transaction);
    await webhook.update({
      ...(url !== undefined ? { url } : {}),
      ...(data.events !== undefined ? { events: distinct(data.events) } : {}),
      ...(data.active === true ? { active: true, disabled_reason: null, failing_since: null } : {}),
      ...(data.active === false ? { active: false, disabled_reason: 'Switched off by an administrator' } : {}),
    }, { transaction });
    if (data.active === false) await abandonPending(principal.schoolId, id, 'the webhook was switched off', transaction);
    return view(webhook);
  });
}

/** A soft delete: the webhook gets no more events, its log stays; what was waiting to go out is failed. */
export async function deleteWebhook(ctx: AppContext, principal: Principal, id: number): Promise<void> {
  requireOwner(principal);
  await ctx.db.sequelize.transaction(async (transaction) => {
    const webhook = await webhookOf(principal.schoolId, id, transaction);
    await webhook.update({ deleted_status: 1, active: false }, { transaction });
    await abandonPending(principal.schoolId, id, 'the webhook was deleted', transaction);
  });
}

/** Fails the deliveries still waiting to go out to a webhook that is off or gone. */
export async function abandonPending(schoolId: string, webhookId: number, why: string, transaction?: Transaction): Promise<void> {
  await WebhookDelivery.update(
    { status: 'failed', last_error: `Not sent: ${why}`, next_attempt_at: null },
    { where: { school_id: schoolId, webhook_id: webhookId, status: 'pending' }, transaction },
  );
}

/** The webhook's deliveries, newest first, one row per event. */
export async function listDeliveries(principal: Principal, webhookId: number, filter: DeliveryFilter = {}) {
  requireOwner(principal);
  const f = parseInput(deliveryListQuery, filter);
  await webhookOf(principal.schoolId, webhookId);
  const where = { school_id: principal.schoolId, webhook_id: webhookId, ...(f.status ? { status: f.status } : {}) };
  const { rows, count } = await WebhookDelivery.findAndCountAll({
    where, order: [['created_at', 'DESC'], ['id', 'DESC']], limit: f.limit, offset: offsetOf(f),
  });
  return { deliveries: rows.map(deliveryView), pagination: paginationOf(count, f) };
}
