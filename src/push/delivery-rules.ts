import { Op, type Transaction } from 'sequelize';
import { NotificationPreference, School } from '../models/index.js';
import type { NotificationCategory } from '../models/notification-preference.js';
import type { OutboxItem } from './outbox.js';
import { quietUntil } from './quiet-hours.js';

/** The preference that governs a push to a parent, by what the push is about. */
const categoryOf: Record<string, NotificationCategory> = {
  activity: 'activities',
  noticeboard: 'notices',
  write_to: 'write_to',
  diary: 'diary',
  attendance: 'attendance',
};

export interface DeliveryRule {
  /** Not sent: the parent turned this category off (recorded as `skipped` with this reason). */
  skip?: string;
  /** Held for the parent's quiet hours: sent from then on. */
  deliverAfter?: Date;
}

/** Whose preferences decide an item: a parent's push about one of the categories, unless it overrides them (urgent notices, test pushes). */
function governed(item: OutboxItem): NotificationCategory | null {
  if (item.overridePreferences || (item.channel ?? 'push') !== 'push' || item.target_type !== 'parent' || item.target_id == null) return null;
  return categoryOf[item.entity_type ?? ''] ?? null;
}

/**
 * What each parent's preferences say about each item written at `now`: skipped when its category is
 * off, held until the end of their quiet hours (in the school's time zone) when it falls inside them.
 * One read of the preferences and one of the time zone per school, whatever the number of items.
 */
export async function deliveryRules(items: OutboxItem[], now: Date, transaction?: Transaction): Promise<DeliveryRule[]> {
  const categories = items.map(governed);
  const rules: DeliveryRule[] = items.map(() => ({}));
  const schools = new Set(items.filter((_, i) => categories[i]).map((item) => item.school_id));
  for (const schoolId of schools) {
    const parentIds = [...new Set(items.filter((item, i) => categories[i] && item.school_id === schoolId).map((item) => item.target_id!))];
    const preferences = await NotificationPreference.findAll({ where: { school_id: schoolId, parent_id: { [Op.in]: parentIds } }, raw: true, transaction });
    if (preferences.length === 0) continue;
    const byParent = new Map(preferences.map((p) => [p.parent_id, p]));
    const quiet = preferences.some((p) => p.quiet_start && p.quiet_end);
    const zone = quiet ? ((await School.findByPk(schoolId, { attributes: ['timezone'], raw: true, transaction }))?.timezone ?? 'UTC') : 'UTC';
    items.forEach((item, i) => {
      const category = categories[i];
      const preference = category && item.school_id === schoolId ? byParent.get(item.target_id!) : undefined;
      if (!category || !preference) return;
      if (!preference[category]) {
        rules[i] = { skip: `not sent: the parent turned off ${category} notifications` };
        return;
      }
      const until = preference.quiet_start && preference.quiet_end ? quietUntil(now, zone, { start: preference.quiet_start, end: preference.quiet_end }) : null;
      if (until) rules[i] = { deliverAfter: until };
    });
  }
  return rules;
}
