import type { Transaction } from 'sequelize';
import { Notification } from '../models/index.js';
import { deliveryRules } from './delivery-rules.js';

export interface OutboxItem {
  school_id: string;
  event: string;
  channel?: 'push' | 'sms';
  entity_type?: string | null;
  entity_id?: number | null;
  target_type: 'parent' | 'staff' | 'token';
  target_id?: number | null;
  session_id?: number | null;
  /** Device token (push) or phone number (sms). */
  address?: string | null;
  title: string;
  body: string;
  /** Sent past the parent's preferences and quiet hours: urgent notices and test pushes. */
  overridePreferences?: boolean;
}

/** FCM refuses non-string data values, so every payload value is a string. */
export function payloadData(item: OutboxItem): Record<string, string> {
  return {
    event: item.event,
    entity_type: item.entity_type ?? '',
    entity_id: item.entity_id == null ? '' : String(item.entity_id),
    school_id: item.school_id,
  };
}

/**
 * Writes notifications as 'pending' rows, in the caller's transaction: the event and its
 * notifications commit together or not at all, and the worker delivers them afterwards.
 * `notBefore` keeps the worker off the rows until then (a caller that sends them itself at once).
 * A parent's preferences apply here, as the record is written: a category they turned off is
 * recorded `skipped`, a push in their quiet hours waits (`deliver_after`) until the hours end.
 */
export async function enqueue(items: OutboxItem[], transaction?: Transaction, notBefore?: Date): Promise<number[]> {
  if (items.length === 0) return [];
  const now = new Date();
  const rules = await deliveryRules(items, now, transaction);
  const rows = await Notification.bulkCreate(
    items.map((item, i) => ({
      school_id: item.school_id,
      event: item.event,
      channel: item.channel ?? 'push',
      entity_type: item.entity_type ?? null,
      entity_id: item.entity_id ?? null,
      target_type: item.target_type,
      target_id: item.target_id ?? null,
      session_id: item.session_id ?? null,
      address: item.address ?? null,
      title: item.title.slice(0, 200),
      body: item.body.slice(0, 2000),
      data: payloadData(item),
      status: rules[i]!.skip ? ('skipped' as const) : ('pending' as const),
      last_error: rules[i]!.skip ?? null,
      next_attempt_at: rules[i]!.skip ? null : (rules[i]!.deliverAfter ?? notBefore ?? now),
      deliver_after: rules[i]!.deliverAfter ?? null,
    })),
    { transaction },
  );
  return rows.map((r) => r.id);
}
