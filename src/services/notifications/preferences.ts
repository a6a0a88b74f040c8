import { z } from 'zod';
import type { AppContext, Principal } from '../../context.js';
import { forbidden } from '../../errors.js';
import { NotificationPreference, School } from '../../models/index.js';
import { notificationCategories, type NotificationCategory } from '../../models/notification-preference.js';
import { parseInput } from '../validation.js';
import { diff, recordAudit } from '../audit/audit.js';
import { writeIn } from '../../db.js';

const clock = () => z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:MM from 00:00 to 23:59');

export const preferencesInput = z.object({
  // A category that does not exist is a mistake to point out, not a key to drop: nothing would change.
  categories: z
    .strictObject(Object.fromEntries(notificationCategories.map((c) => [c, z.boolean().optional()])) as Record<NotificationCategory, z.ZodOptional<z.ZodBoolean>>)
    .optional()
    .describe('Each category on (true) or off (false); the ones left out keep their value'),
  quiet_hours: z
    .object({ start: clock(), end: clock() })
    .refine((q) => q.start !== q.end, { message: 'must differ from start', path: ['end'] })
    .nullable()
    .optional()
    .describe("HH:MM in the school's time zone; start after end spans midnight (22:00 to 07:00); null for none"),
});
export type PreferencesInput = z.input<typeof preferencesInput>;

export interface PreferencesView {
  categories: Record<NotificationCategory, boolean>;
  quiet_hours: { start: string; end: string } | null;
  /** The zone the quiet hours are read in: the school's. */
  timezone: string;
}

function requireParent(principal: Principal): void {
  if (principal.type !== 'parent') throw forbidden('Notification preferences are a parent\'s own');
}

/** The parent's preferences; without a stored row, every category is on and there are no quiet hours. */
export async function notificationPreferences(principal: Principal): Promise<PreferencesView> {
  requireParent(principal);
  const [row, school] = await Promise.all([
    NotificationPreference.findOne({ where: { school_id: principal.schoolId, parent_id: principal.userId }, raw: true }),
    School.findByPk(principal.schoolId, { attributes: ['timezone'], raw: true }),
  ]);
  return {
    categories: Object.fromEntries(notificationCategories.map((c) => [c, row ? Boolean(row[c]) : true])) as PreferencesView['categories'],
    quiet_hours: row?.quiet_start && row.quiet_end ? { start: row.quiet_start, end: row.quiet_end } : null,
    timezone: school?.timezone ?? 'UTC',
  };
}

/**
 * Changes what is sent (a partial update), in one upsert that sets only the fields sent: two
 * updates of different fields at once both hold, and neither waits on a lock the other must upgrade.
 */
export async function updateNotificationPreferences(ctx: AppContext, principal: Principal, input: PreferencesInput): Promise<PreferencesView> {
  requireParent(principal);
  const data = parseInput(preferencesInput, input);
  const changes: Partial<Record<NotificationCategory | 'quiet_start' | 'quiet_end', number | string | null>> = {};
  for (const category of notificationCategories) {
    const value = data.categories?.[category];
    if (value !== undefined) changes[category] = value ? 1 : 0;
  }
  if (data.quiet_hours !== undefined) {
    changes.quiet_start = data.quiet_hours?.start ?? null;
    changes.quiet_end = data.quiet_hours?.end ?? null;
  }
  const columns = Object.keys(changes);
  if (columns.length > 0) {
    const before = ((await NotificationPreference.findOne({ where: { school_id: principal.schoolId, parent_id: principal.userId }, attributes: columns, raw: true })) ?? {}) as Record<string, unknown>;
    const set = [...columns, 'updated_at'];
    const onKey = ctx.db.dialect === 'mysql'
      ? `ON DUPLICATE KEY UPDATE ${set.map((c) => `${c} = VALUES(${c})`).join(', ')}`
      : `ON CONFLICT (school_id, parent_id) DO UPDATE SET ${set.map((c) => `${c} = excluded.${c}`).join(', ')}`;
    await ctx.db.sequelize.transaction(async (transaction) => {
      await writeIn(ctx.db, transaction,
      `INSERT INTO notification_preferences (school_id, parent_id, ${columns.join(', ')}, created_at, updated_at)
       VALUES (:school, :parent, ${columns.map((c) => `:${c}`).join(', ')}, :now, :now) ${onKey}`,
      { school: principal.schoolId, parent: principal.userId, ...changes, now: new Date() },
      );
      await recordAudit([{ schoolId: principal.schoolId, action: 'preference.update', entityType: 'preference', entityId: principal.userId, changes: diff(before, { ...before, ...changes }) }], transaction);
    });
  }
  return notificationPreferences(principal);
}
