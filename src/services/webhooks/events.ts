import { randomUUID } from 'node:crypto';
import type { Transaction } from 'sequelize';
import { Webhook, WebhookDelivery } from '../../models/index.js';
import type { WebhookEvent } from '../../models/webhook.js';
import type { AttachmentView } from '../attachments/attachments.js';

export type WebhookEntityType = 'activity' | 'noticeboard' | 'write_to' | 'admission' | 'student' | 'staff' | 'form_response';

export interface WebhookEventData {
  entity_type: WebhookEntityType;
  entity_id: number;
  [field: string]: unknown;
}

/**
 * An event's `data`: the entity as the REST API shows it (its service's view, which holds no secret),
 * named by type and id. Its attachments go without their URLs, which would expire long before a
 * receiver might follow them.
 */
export function eventData(entityType: WebhookEntityType, entityId: number, view: object & { attachments?: AttachmentView[] }): WebhookEventData {
  const { attachments, ...rest } = view;
  return {
    entity_type: entityType, entity_id: entityId, ...rest,
    ...(attachments ? { attachments: attachments.map(({ url: _url, thumbnail_url: _thumbnail, ...meta }) => meta) } : {}),
  };
}

/** The school's webhooks that take the event: on, not deleted, subscribed to it or to `*`. */
async function subscribers(schoolId: string, event: WebhookEvent, transaction: Transaction): Promise<number[]> {
  const rows = await Webhook.findAll({ where: { school_id: schoolId, active: true, deleted_status: 0 }, attributes: ['id', 'events'], transaction });
  return rows.filter((w) => w.events.includes('*') || w.events.includes(event)).map((w) => w.id);
}

/**
 * Records an event for every webhook of the school that takes it, in the caller's transaction: the
 * change and its deliveries commit together or not at all, and the worker sends them afterwards. The
 * body is fixed now, with one id for the event, so every retry sends the same bytes.
 */
export async function emitWebhookEvent(schoolId: string, event: WebhookEvent, data: WebhookEventData, transaction: Transaction): Promise<void> {
  const webhookIds = await subscribers(schoolId, event, transaction);
  if (webhookIds.length === 0) return;
  const now = new Date();
  const id = randomUUID();
  const payload = JSON.stringify({ id, event, school_id: schoolId, occurred_at: now.toISOString(), data });
  await WebhookDelivery.bulkCreate(
    webhookIds.map((webhook_id) => ({ school_id: schoolId, webhook_id, event_id: id, event, payload, next_attempt_at: now })),
    { transaction },
  );
}
