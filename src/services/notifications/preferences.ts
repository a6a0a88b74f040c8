import type { Transaction } from 'sequelize';
import { z } from 'zod';
import type { AppContext, Principal } from '../../context.js';
import { forbidden } from '../../errors.js';
import { NotificationPreference, School } from '../../models/index.js';
import { notificationCategories, notificationChannels, type NotificationCategory, type NotificationChannel } from '../../models/notification-preference.js';
import { parseInput } from '../validation.js';
import { diff, recordAudit, type AuditEntry } from '../audit/audit.js';
import { writeIn } from '../../db.js';

const clock = () => z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:MM from 00:00 to 23:59');

const switches = <K extends string>(keys: readonly K[]) =>
  z.strictObject(Object.fromEntries(keys.map((c) => [c, z.boolean().optional()])) as Record<K, z.ZodOptional<z.ZodBoolean>>);

export const preferencesInput = z.object({
  // A category that does not exist is a mistake to point out, not a key to drop: nothing would change.
  categories: switches(notificationCategories).optional().describe('Each category on (true) or off (false); the ones left out keep their value'),
  quiet_hours: z
    .object({ start: clock(), end: clock() })
    .refine((q) => q.start !== q.end, { message: 'must differ from start', path: ['end'] })
    .nullable()
    .optional()
    .describe("HH:MM in the school's time zone; start after end spans midnight (22:00 to 07:00); null for none"),
  channels: switches(notificationChannels)
    .optional()
    .describe('Each channel on (true) or off (false); the ones left out keep their value. A family is reached by push, else a verified e-mail, else SMS, among the channels on'),
});
export type PreferencesInput = z.input<typeof preferencesInput>;

export interface PreferencesView {
  categories: Record<NotificationCategory, boolean>;
  quiet_hours: { start: string; end: string } | null;
  channels: Record<NotificationChannel, boolean>;
  /** The zone the quiet hours are read in: the school's. */
  timezone: string;
}

/** The column of a channel's switch. */
export const channelColumn = (channel: NotificationChannel) => `channel_${channel}` as const;
type Column = NotificationCategory | ReturnType<typeof channelColumn> | 'quiet_start' | 'quiet_end';

function requireParent(principal: Principal): void {
  if (principal.type !== 'parent') throw forbidden('Notification preferences are a parent\'s own');
}

type PreferenceRow = Partial<Record<Column, unknown>>;

/** A parent's preferences as the API shows them (and the export carries them); without a stored row, everything on and no quiet hours. */
export function preferencesOf(row: PreferenceRow | null | undefined): Omit<PreferencesView, 'timezone'> {
  const on = (v: unknown) => (row ? Boolean(Number(v)) : true);
  return {
    categories: Object.fromEntries(notificationCategories.map((c) => [c, on(row?.[c])])) as PreferencesView['categories'],
    quiet_hours: row?.quiet_start && row.quiet_end ? { start: String(row.quiet_start), end: String(row.quiet_end) } : null,
    channels: Object.fromEntries(notificationChannels.map((c) => [c, on(row?.[channelColumn(c)])])) as PreferencesView['channels'],
  };
}

/** The parent's preferences; without a stored row, every category and channel is on and there are no quiet hours. */
export async function notificationPreferences(principal: Principal): Promise<PreferencesView> {
  requireParent(principal);
  const [row, school] = await Promise.all([
    NotificationPreference.findOne({ where: { school_id: principal.schoolId, parent_id: principal.userId }, raw: true }),
    School.findByPk(principal.schoolId, { attributes: ['timezone'], raw: true }),
  ]);
  return { ...preferencesOf(row as PreferenceRow | null), timezone: school?.timezone ?? 'UTC' };
}

/** How the audit trail names a changed column: `channels.email` for a channel's switch, the column itself otherwise. */
const auditName = (column: string) => (column.startsWith('channel_') ? `channels.${column.slice('channel_'.length)}` : column);

/**
 * Sets some of a parent's preferences in one upsert that writes only those columns: two updates of
 * different fields at once both hold, and neither waits on a lock the other must upgrade. Audited
 * `preference.update` with what changed (a channel as `channels.<name>`) when anything did.
 */
export async function savePreferences(
  ctx: AppContext, transaction: Transaction, target: { schoolId: string; parentId: number }, changes: Partial<Record<Column, number | string | null>>,
  actor?: AuditEntry['actor'],
): Promise<boolean> {
  const columns = Object.keys(changes);
  if (columns.length === 0) return false;
  const key = { school_id: target.schoolId, parent_id: target.parentId };
  const stored = (await NotificationPreference.findOne({ where: key, attributes: columns, raw: true, transaction })) as Record<string, unknown> | null;
  // Without a row every switch is on: the audit's "before" says so.
  const before = Object.fromEntries(columns.map((c) => [c, stored ? stored[c] : c.startsWith('quiet') ? null : 1]));
  const set = [...columns, 'updated_at'];
  const onKey = ctx.db.dialect === 'mysql'
    ? `ON DUPLICATE KEY UPDATE ${set.map((c) => `${c} = VALUES(${c})`).join(', ')}`
    : `ON CONFLICT (school_id, parent_id) DO UPDATE SET ${set.map((c) => `${c} = excluded.${c}`).join(', ')}`;
  await writeIn(ctx.db, transaction,
    `INSERT INTO notification_preferences (school_id, parent_id, ${columns.join(', ')}, created_at, updated_at)
     VALUES (:school, :parent, ${columns.map((c) => `:${c}`).join(', ')}, :now, :now) ${onKey}`,
    { school: target.schoolId, parent: target.parentId, ...changes, now: new Date() },
  );
  const normal = (v: unknown) => (typeof v === 'boolean' ? Number(v) : typeof v === 'string' && /^\d$/.test(v) ? Number(v) : v);
  const changed = diff(
    Object.fromEntries(Object.entries(before).map(([c, v]) => [auditName(c), normal(v)])),
    Object.fromEntries(Object.entries(changes).map(([c, v]) => [auditName(c), normal(v)])),
  );
  const asBooleans = Object.fromEntries(Object.entries(changed).map(([k, [b, a]]) => [k, k.startsWith('quiet') ? [b, a] : [Boolean(b), Boolean(a)]])) as typeof changed;
  if (Object.keys(asBooleans).length === 0) return false;
  await recordAudit([{ schoolId: target.schoolId, action: 'preference.update', entityType: 'preference', entityId: target.parentId, changes: asBooleans, ...(actor ? { actor } : {}) }], transaction);
  return true;
}

/** Changes what is sent (a partial update). */
export async function updateNotificationPreferences(ctx: AppContext, principal: Principal, input: PreferencesInput): Promise<PreferencesView> {
  requireParent(principal);
  const data = parseInput(preferencesInput, input);
  const changes: Partial<Record<Column, number | string | null>> = {};
  for (const category of notificationCategories) {
    const value = data.categories?.[category];
    if (value !== undefined) changes[category] = value ? 1 : 0;
  }
  for (const channel of notificationChannels) {
    const value = data.channels?.[channel];
    if (value !== undefined) changes[channelColumn(channel)] = value ? 1 : 0;
  }
  if (data.quiet_hours !== undefined) {
    changes.quiet_start = data.quiet_hours?.start ?? null;
    changes.quiet_end = data.quiet_hours?.end ?? null;
  }
  if (Object.keys(changes).length > 0) {
    await ctx.db.sequelize.transaction((transaction) => savePreferences(ctx, transaction, { schoolId: principal.schoolId, parentId: principal.userId }, changes));
  }
  return notificationPreferences(principal);
}
