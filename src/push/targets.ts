import { Op, type Transaction } from 'sequelize';
import { Session } from '../models/index.js';
import type { OutboxItem } from './outbox.js';

export type NotificationContent = Pick<OutboxItem, 'event' | 'entity_type' | 'entity_id' | 'title' | 'body' | 'overridePreferences'>;

/**
 * The outbox rows for some users of a school: one per device token of their active sessions (a
 * token seen on two sessions of one user counts once), and a single tokenless row for a user with
 * none, which the worker records as skipped so that the record shows who was not reached.
 */
export async function deviceItems(
  target: { schoolId: string; userType: 'parent' | 'staff'; userIds: number[] },
  content: NotificationContent,
  transaction?: Transaction,
): Promise<OutboxItem[]> {
  const userIds = [...new Set(target.userIds)];
  if (userIds.length === 0) return [];
  const sessions = await Session.findAll({
    where: {
      school_id: target.schoolId, user_type: target.userType, user_id: { [Op.in]: userIds }, active: true,
      expires_at: { [Op.gt]: new Date() }, fcm_token: { [Op.ne]: null },
    },
    attributes: ['id', 'user_id', 'fcm_token'],
    order: [['id', 'DESC']],
    raw: true,
    transaction,
  });
  const base = { ...content, school_id: target.schoolId, target_type: target.userType };
  const seen = new Set<string>();
  const items: OutboxItem[] = [];
  for (const s of sessions) {
    const key = `${s.user_id}\u0000${s.fcm_token}`;
    if (!s.fcm_token || seen.has(key)) continue;
    seen.add(key);
    items.push({ ...base, target_id: s.user_id, session_id: s.id, address: s.fcm_token });
  }
  for (const userId of userIds) {
    if (!items.some((i) => i.target_id === userId)) items.push({ ...base, target_id: userId });
  }
  return items;
}
