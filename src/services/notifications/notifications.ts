import { z } from 'zod';
import { id, pageQuery } from '../schemas.js';
import type { AppContext, Principal } from '../../context.js';
import { iso } from '../../db.js';
import { channels, notificationStatuses, type Channel, type NotificationStatus } from '../../models/notification.js';
import { requireRole } from '../access/guards.js';
import { offsetOf, paginationOf } from '../pagination.js';
import { parseInput } from '../validation.js';
import { PIN_SETUP_EVENT } from '../delivery/compose.js';

export const targetTypes = ['parent', 'staff', 'token'] as const;

export const notificationListQuery = z.object({
  event: z.string().trim().min(1).max(40).optional().describe('e.g. notice_published, reminder, write_to_reply, admission_pin_setup, email_verification, test_message'),
  channel: z.enum(channels).optional(),
  status: z.enum(notificationStatuses).optional(),
  target_type: z.enum(targetTypes).optional(),
  target_id: id().optional(),
  ...pageQuery(),
});
export type NotificationFilter = z.input<typeof notificationListQuery>;

/** A delivery record; the device token, phone number or e-mail address it went to is never shown. */
export interface NotificationView {
  id: number;
  event: string;
  channel: Channel;
  entity_type: string | null;
  entity_id: number | null;
  target_type: (typeof targetTypes)[number];
  target_id: number | null;
  title: string;
  body: string;
  status: NotificationStatus;
  attempts: number;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
  deliver_after: string | null;
  delivered_at: string | null;
}

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/**
 * A PIN set-up SMS carries a new parent's set-up link, which belongs to its recipient alone: of such
 * a record only its existence, channel, event and status are shown, by every door. Every other SMS
 * or e-mail record holds what a push about the same thing would, never the message with its links.
 */
export const concealedMessage = {
  fields: ['title', 'body', 'last_error'],
  applies: (row: Record<string, unknown>) => row.channel === 'sms' && row.event === PIN_SETUP_EVENT,
  text: '[hidden]',
} as const;

function concealed(r: Record<string, unknown>): Record<string, unknown> {
  if (!concealedMessage.applies(r)) return r;
  const out = { ...r };
  for (const field of concealedMessage.fields) if (out[field] != null) out[field] = concealedMessage.text;
  return out;
}

export function notificationView(row: Record<string, unknown>): NotificationView {
  const r = concealed(row);
  return {
    id: Number(r.id),
    event: String(r.event),
    channel: r.channel as NotificationView['channel'],
    entity_type: (r.entity_type as string | null) ?? null,
    entity_id: num(r.entity_id),
    target_type: r.target_type as NotificationView['target_type'],
    target_id: num(r.target_id),
    title: String(r.title),
    body: String(r.body),
    status: r.status as NotificationStatus,
    attempts: Number(r.attempts),
    last_error: (r.last_error as string | null) ?? null,
    created_at: iso(r.created_at)!,
    sent_at: iso(r.sent_at),
    deliver_after: iso(r.deliver_after),
    delivered_at: iso(r.delivered_at),
  };
}

export const NOTIFICATION_COLUMNS = 'id, event, channel, entity_type, entity_id, target_type, target_id, title, body, status, attempts, last_error, created_at, sent_at, deliver_after, delivered_at';

/** The school's notification records, newest first (super_admin, admin, it_contact). */
export async function listNotifications(ctx: AppContext, principal: Principal, filter: NotificationFilter) {
  requireRole(principal, 'super_admin', 'admin', 'it_contact');
  const f = parseInput(notificationListQuery, filter);
  const where = [
    'school_id = :school',
    ...(f.status ? ['status = :status'] : []),
    ...(f.event ? ['event = :event'] : []),
    ...(f.channel ? ['channel = :channel'] : []),
    ...(f.target_type ? ['target_type = :target_type'] : []),
    ...(f.target_id !== undefined ? ['target_id = :target_id'] : []),
  ].join(' AND ');
  const params = { school: principal.schoolId, ...f, offset: offsetOf(f) };
  const [rows, [count]] = await Promise.all([
    ctx.db.select(`SELECT ${NOTIFICATION_COLUMNS} FROM notifications WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset`, params),
    ctx.db.select<{ n: number }>(`SELECT COUNT(*) AS n FROM notifications WHERE ${where}`, params),
  ]);
  return { notifications: rows.map(notificationView), pagination: paginationOf(Number(count?.n ?? 0), f) };
}
