import type { Transaction } from 'sequelize';
import { insertRows } from '../db.js';
import type { Channel } from '../models/notification.js';
import { Notification } from '../models/index.js';
import { auditCreated } from '../services/audit/capture.js';
import { chunks } from '../services/batches.js';

export interface OutboxItem {
  school_id: string;
  event: string;
  channel?: Channel;
  entity_type?: string | null;
  entity_id?: number | null;
  target_type: 'parent' | 'staff' | 'token';
  target_id?: number | null;
  session_id?: number | null;
  /** Device token (push), phone number (sms, E.164 once checked) or e-mail address. */
  address?: string | null;
  title: string;
  body: string;
  /** What the worker needs besides the record to compose an SMS or an e-mail (a staff reply's id, a set-up link). */
  extra?: Record<string, string>;
  /** Sent past the parent's preferences and quiet hours: urgent notices and test pushes. */
  overridePreferences?: boolean;
  /** Decided as the record is written: `skipped` (a category or channel off, the SMS limit) or `failed` (an invalid phone). */
  status?: 'pending' | 'skipped' | 'failed';
  last_error?: string | null;
  /** Held until then: the parent's quiet hours. */
  deliver_after?: Date | null;
}

/** FCM refuses non-string data values, so every payload value is a string. */
export function payloadData(item: OutboxItem): Record<string, string> {
  return {
    event: item.event,
    entity_type: item.entity_type ?? '',
    entity_id: item.entity_id == null ? '' : String(item.entity_id),
    school_id: item.school_id,
    ...item.extra,
  };
}

/**
 * Writes notification records in the caller's transaction: the event and its notifications commit
 * together or not at all, and the worker delivers the `pending` ones afterwards. `notBefore` keeps
 * the worker off the rows until then (a caller that sends them itself at once). Whom and how is
 * decided before (src/services/delivery/channel-choice.ts for families): an item comes with its
 * status, and a held one with the time it may go.
 */
export async function enqueue(items: OutboxItem[], transaction?: Transaction, notBefore?: Date): Promise<number[]> {
  if (items.length === 0) return [];
  const now = new Date();
  const rows = items.map((item) => {
    const status = item.status ?? 'pending';
    return {
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
      data: JSON.stringify(payloadData(item)),
      status,
      attempts: 0,
      last_error: item.last_error ?? null,
      next_attempt_at: status === 'pending' ? (item.deliver_after ?? notBefore ?? now) : null,
      deliver_after: item.deliver_after ?? null,
      created_at: now,
      updated_at: now,
    };
  });
  // One INSERT per chunk, its audit events with it: a school-wide post writes a record for every family.
  const columns = Object.keys(rows[0]!);
  const ids: number[] = [];
  for (const chunk of chunks(rows)) {
    const written = await insertRows(Notification.sequelize!, 'notifications', columns, chunk.map((r) => Object.values(r)), transaction);
    await auditCreated(Notification, chunk.map((r, i) => ({ id: written[i], ...r })), transaction);
    ids.push(...written);
  }
  return ids;
}
