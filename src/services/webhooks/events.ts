import { randomUUID } from 'node:crypto';
import type { Transaction } from 'sequelize';
import { isTx, sqlTime, txOf, type Dialect, type Tx } from '../../db.js';
import { WebhookDelivery } from '../../models/index.js';
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

/** What the bodies of one INSERT may hold in all; SQL escaping can double them. */
const STATEMENT_PAYLOAD_BYTES = 4 * 1024 * 1024;

/** The school's webhooks that take the event: on, not deleted, subscribed to it or to `*`. */
async function subscribers(schoolId: string, event: WebhookEvent, tx: Tx): Promise<number[]> {
  const rows = await tx.select<{ id: number; events: string }>('SELECT id, events FROM webhooks WHERE school_id = :school AND active = 1 AND deleted_status = 0', { school: schoolId });
  return rows.filter((w) => {
    const events = JSON.parse(w.events) as string[];
    return events.includes('*') || events.includes(event);
  }).map((w) => Number(w.id));
}

/**
 * Records an event for every webhook of the school that takes it, in the caller's transaction (a
 * Sequelize one or a Tx): the change and its deliveries commit together or not at all, and the
 * worker sends them afterwards. The body is fixed now, with one id for the event, so every retry
 * sends the same bytes.
 */
export async function emitWebhookEvent(schoolId: string, event: WebhookEvent, data: WebhookEventData, transaction: Transaction | Tx): Promise<void> {
  const sequelize = WebhookDelivery.sequelize!;
  const dialect = sequelize.getDialect() as Dialect;
  const tx = isTx(transaction) ? transaction : txOf({ sequelize, dialect }, transaction);
  const webhookIds = await subscribers(schoolId, event, tx);
  if (webhookIds.length === 0) return;
  const occurred = new Date();
  const id = randomUUID();
  const payload = JSON.stringify({ id, event, school_id: schoolId, occurred_at: occurred.toISOString(), data });
  const now = sqlTime(dialect, occurred);
  // Each row repeats the body, and a statement must fit MySQL's max_allowed_packet (16 MiB on
  // MariaDB): a school's many webhooks take the body of a large post in several statements.
  const perStatement = Math.max(1, Math.floor(STATEMENT_PAYLOAD_BYTES / Buffer.byteLength(payload, 'utf8')));
  for (let start = 0; start < webhookIds.length; start += perStatement) {
    const values: Record<string, unknown> = { school: schoolId, event_id: id, event, payload, now };
    const rows = webhookIds.slice(start, start + perStatement).map((webhookId, i) => {
      values[`webhook${i}`] = webhookId;
      return `(:school, :webhook${i}, :event_id, :event, :payload, 'pending', 0, :now, :now, :now)`;
    });
    await tx.write(
      `INSERT INTO webhook_deliveries (school_id, webhook_id, event_id, event, payload, status, attempts, next_attempt_at, created_at, updated_at) VALUES ${rows.join(', ')}`,
      values,
    );
  }
}
