import { QueryTypes, type Transaction } from 'sequelize';
import { z } from 'zod';
import { id as idField, pageQuery } from '../schemas.js';
import type { AppContext, Principal } from '../../context.js';
import { iso, sqlTime, writeIn } from '../../db.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import { hasPermission, requireSchoolAdmin } from '../access/guards.js';
import { assertParentCanSee } from '../engagement/visibility.js';
import { chunks } from '../batches.js';
import { paginationOf, offsetOf } from '../pagination.js';
import { parseInput } from '../validation.js';
import { audienceChildren, audienceFamilies, type AudienceEntity } from './audiences.js';
import { notifyAudience } from './publish.js';
import { recordAudit, type AuditEntry } from '../audit/audit.js';
import type { Channel } from '../../models/notification.js';
import { reminderFamilies } from '../forms/missing.js';

/** One reminder an hour per item at most. */
export const REMINDER_GAP_MS = 60 * 60_000;

export const readInput = z.object({
  entity_type: z.enum(['activity', 'noticeboard', 'diary']),
  entity_id: idField(),
});
export const reachQuery = z.object(pageQuery(20));

const table = { activity: 'activities', noticeboard: 'notices' } as const;

/**
 * A parent's read receipt: the first read is kept (a unique key, insert-or-ignore), and every call
 * answers the stored time. An item the parent cannot see is 404, as everywhere.
 */
export async function markRead(ctx: AppContext, principal: Principal, input: z.input<typeof readInput>): Promise<{ read_at: string }> {
  const { entity_type, entity_id } = parseInput(readInput, input);
  await assertParentCanSee(ctx, principal, entity_type, entity_id);
  return { read_at: await recordRead(ctx, principal.schoolId, principal.userId, entity_type, entity_id) };
}

/**
 * Records a parent's read of an item they can see (the app's read receipt, or its web page opened
 * from an SMS or an e-mail): insert-or-ignore on a unique key, audited the first time. Answers the
 * stored time of the first read.
 */
export async function recordRead(
  ctx: AppContext, schoolId: string, parentId: number, entityType: z.output<typeof readInput>['entity_type'], entityId: number, actor?: AuditEntry['actor'],
): Promise<string> {
  const key = { school: schoolId, type: entityType, id: entityId, parent: parentId };
  const ignore = ctx.db.dialect === 'mysql' ? 'INSERT IGNORE' : 'INSERT OR IGNORE';
  const now = new Date();
  await ctx.db.sequelize.transaction(async (transaction) => {
    const first = await writeIn(ctx.db, transaction, `${ignore} INTO item_reads (school_id, entity_type, entity_id, parent_id, read_at) VALUES (:school, :type, :id, :parent, :now)`, { ...key, now });
    if (first > 0) {
      await recordAudit([{ schoolId, action: `${entityType}.read`, entityType, entityId, changes: { read_at: [null, now.toISOString()] }, ...(actor ? { actor } : {}) }], transaction);
    }
  });
  const [row] = await ctx.db.select<{ read_at: unknown }>(
    'SELECT read_at FROM item_reads WHERE school_id = :school AND entity_type = :type AND entity_id = :id AND parent_id = :parent', key,
  );
  return iso(row!.read_at)!;
}

interface Item {
  id: number;
  title: string;
  scope: number;
  published: boolean;
  author: number | null;
  reminded_at: unknown;
}

/**
 * The item, when the caller may see its reach and remind its readers: an activity's author or staff
 * with `activities.manage`; school admins for any activity or notice. Another school's: 404.
 */
async function itemFor(ctx: AppContext, principal: Principal, entity: AudienceEntity, id: number): Promise<Item> {
  if (principal.type === 'parent') throw forbidden('This is for the school');
  if (principal.type === 'admin') requireSchoolAdmin(principal);
  const sql = entity === 'activity'
    ? "SELECT id, title, audience_scope AS scope, status = 'published' AS published, staff_id AS author, reminded_at FROM activities WHERE id = :id AND school_id = :school AND deleted_status = 0"
    : 'SELECT id, notice_title AS title, audience_scope AS scope, published_at IS NOT NULL AS published, NULL AS author, reminded_at FROM notices WHERE id = :id AND school_id = :school AND notice_deleted = 0';
  const [row] = await ctx.db.select<Record<string, unknown>>(sql, { id, school: principal.schoolId });
  if (!row) throw notFound(entity === 'activity' ? 'Activity' : 'Notice');
  const item = { id: Number(row.id), title: String(row.title), scope: Number(row.scope), published: Number(row.published) === 1, author: row.author == null ? null : Number(row.author), reminded_at: row.reminded_at };
  if (principal.type === 'staff' && !(entity === 'activity' && item.author === principal.userId) && !hasPermission(principal, 'activities.manage')) {
    throw forbidden('This needs to be your own activity, or the permission activities.manage');
  }
  return item;
}

async function readers(ctx: AppContext, schoolId: string, entity: AudienceEntity, id: number): Promise<Set<number>> {
  const rows = await ctx.db.select<{ parent_id: number }>('SELECT parent_id FROM item_reads WHERE school_id = :school AND entity_type = :entity AND entity_id = :id', { school: schoolId, entity, id });
  return new Set(rows.map((r) => Number(r.parent_id)));
}

export interface Reach {
  families: number;
  read: number;
  unread: number;
  pushed: number;
  /** Each family once, by the channel of its first record about the item that went out; `none` when none did. */
  by_channel: Record<Channel | 'none', number>;
  unread_families: Array<{ parent_id: number; father_name: string | null; phone_no: string; children: Array<{ id: number; student_full_name: string; grade: string }> }>;
  pagination: ReturnType<typeof paginationOf>;
}

/**
 * Who an item reaches and who has read it: the families of its audience (parents of its students
 * who are not archived), how many read it, how many were pushed it (at least one push sent), by
 * which channel each was reached (by_channel), and the
 * families that have not read it, a page at a time, with their children in the audience.
 */
export async function itemReach(ctx: AppContext, principal: Principal, entity: AudienceEntity, id: number, input: z.input<typeof reachQuery> = {}): Promise<Reach> {
  const page = parseInput(reachQuery, input);
  const item = await itemFor(ctx, principal, entity, id);
  const children = await audienceChildren(ctx, principal.schoolId, entity, item.id, item.scope);
  const families = [...new Set(children.map((c) => c.parent_id))];
  const read = await readers(ctx, principal.schoolId, entity, id);
  // Each family's records about the item that went out, oldest first: its first one names the channel that reached it.
  const sentRows = await ctx.db.select<{ target_id: number; channel: Channel }>(
    "SELECT target_id, channel FROM notifications WHERE school_id = :school AND entity_type = :entity AND entity_id = :id AND target_type = 'parent' AND status = 'sent' ORDER BY id",
    { school: principal.schoolId, entity, id },
  );
  const pushed = new Set(sentRows.filter((r) => r.channel === 'push').map((r) => Number(r.target_id)));
  const firstChannel = new Map<number, Channel>();
  for (const r of sentRows) if (!firstChannel.has(Number(r.target_id))) firstChannel.set(Number(r.target_id), r.channel);
  const byChannel = { push: 0, email: 0, sms: 0, none: 0 };
  for (const family of families) byChannel[firstChannel.get(family) ?? 'none']++;
  const unread = families.filter((p) => !read.has(p));
  const parents = unread.length
    ? await ctx.db.select<{ id: number; father_name: string | null; phone_no: string }>(
        'SELECT id, father_name, phone_no FROM parents WHERE school_id = :school AND id IN (:ids) ORDER BY father_name, id', { school: principal.schoolId, ids: unread },
      )
    : [];
  const pageOf = parents.slice(offsetOf(page), offsetOf(page) + page.limit);
  return {
    families: families.length,
    read: families.length - unread.length,
    unread: unread.length,
    pushed: families.filter((p) => pushed.has(p)).length,
    by_channel: byChannel,
    unread_families: pageOf.map((p) => ({
      parent_id: Number(p.id), father_name: p.father_name ?? null, phone_no: p.phone_no,
      children: children.filter((c) => c.parent_id === Number(p.id)).map(({ id: childId, student_full_name, grade }) => ({ id: childId, student_full_name, grade })),
    })),
    pagination: paginationOf(unread.length, page),
  };
}

/** The item's families that have not read it. */
async function unreadFamilies(ctx: AppContext, schoolId: string, entity: AudienceEntity, item: Item, audience: number[]): Promise<number[]> {
  const read = await readers(ctx, schoolId, entity, item.id);
  return audience.filter((p) => !read.has(p));
}

/**
 * Why a reminder queued nothing: every family of the audience has read it (or, for an item with a
 * form, has responded), or none of those it would remind can be reached (an audience with no
 * family in it included: nobody has read it, yet nobody can be told).
 */
const nothingQueuedReasons = ['all_read', 'all_responded', 'unreachable'] as const;
export type NothingQueued = (typeof nothingQueuedReasons)[number];

export interface ReminderResult {
  /** The notification records written, of every channel. */
  queued: number;
  /** Present when nothing was queued: why. */
  reason?: NothingQueued;
}

/** The sentence every door shows for a reminder's outcome. */
export function reminderMessage(result: ReminderResult): string {
  if (result.reason === 'all_read') return 'Every family has read it: no reminder sent';
  if (result.reason === 'all_responded') return 'Every family has responded: no reminder sent';
  if (result.reason === 'unreachable') return 'No family in the audience can be reached: no reminder sent';
  return `Reminder queued: ${result.queued} notification record(s) written`;
}

/** Thrown inside a reminder's transaction to undo it: none of its records would reach anyone. */
class ReachedNobody extends Error {}

/**
 * Every reminder passes here, whoever it goes to and by whichever channels `write` reaches them. In
 * one transaction: the records are written; when none of them would be delivered (each skipped, or
 * failed as it was written, an SMS to a phone that is no number; or there were none) the whole
 * reminder is undone and answers {queued: 0} with the reason, having recorded nothing and left the
 * hour alone; otherwise the hour is claimed by a conditional update
 * (429 with Retry-After while the last reminder that queued something is less than an hour old) and
 * the reminder recorded.
 */
async function sendReminder(
  ctx: AppContext, principal: Principal, entity: AudienceEntity, item: Item, families: number[], noneLeft: NothingQueued,
  write: (transaction: Transaction) => Promise<number[]>,
): Promise<ReminderResult> {
  if (families.length === 0) return { queued: 0, reason: noneLeft };
  const now = new Date();
  try {
    return await ctx.db.sequelize.transaction(async (transaction) => {
      const ids = await write(transaction);
      let deliverable = 0;
      for (const batch of chunks(ids)) {
        const [row] = await ctx.db.sequelize.query<{ n: number | string }>(
          "SELECT COUNT(*) AS n FROM notifications WHERE school_id = :school AND id IN (:ids) AND status NOT IN ('skipped', 'failed')",
          { replacements: { school: principal.schoolId, ids: batch }, type: QueryTypes.SELECT, transaction },
        );
        deliverable += Number(row?.n ?? 0);
      }
      if (deliverable === 0) throw new ReachedNobody();
      const [, claimed] = (await ctx.db.sequelize.query(
        `UPDATE ${table[entity]} SET reminded_at = :now WHERE id = :id AND school_id = :school AND (reminded_at IS NULL OR reminded_at <= :since)`,
        {
          replacements: { id: item.id, school: principal.schoolId, now: sqlTime(ctx.db.dialect, now), since: sqlTime(ctx.db.dialect, new Date(now.getTime() - REMINDER_GAP_MS)) },
          type: QueryTypes.UPDATE, transaction,
        },
      )) as unknown as [unknown, number];
      if (!claimed) {
        const last = new Date(iso(item.reminded_at) ?? now.toISOString()).getTime();
        const wait = Math.max(1, Math.ceil((last + REMINDER_GAP_MS - now.getTime()) / 1000));
        throw new AppError('TOO_MANY_REQUESTS', 'This item was reminded less than an hour ago', undefined, { 'Retry-After': String(wait) });
      }
      await recordAudit([{ schoolId: principal.schoolId, action: `${entity}.remind`, entityType: entity, entityId: item.id, changes: { reminded_at: [iso(item.reminded_at) ?? null, now.toISOString()] } }], transaction);
      return { queued: ids.length };
    });
  } catch (err) {
    if (err instanceof ReachedNobody) return { queued: 0, reason: 'unreachable' };
    throw err;
  }
}

/**
 * A reminder to the families that have not read a published item or, when it has a form, to those
 * still missing a response (read or not): one push to each of their devices (event `reminder`), at
 * most one an hour per item, through sendReminder.
 */
export async function remindUnread(ctx: AppContext, principal: Principal, entity: AudienceEntity, id: number): Promise<ReminderResult> {
  const item = await itemFor(ctx, principal, entity, id);
  if (!item.published) throw new AppError('CONFLICT', 'Only a published item can be reminded');
  const audience = await audienceFamilies(ctx, principal.schoolId, entity, item.id, item.scope);
  const missing = await reminderFamilies(ctx, principal.schoolId, entity, item.id, item.scope);
  const families = missing ?? (await unreadFamilies(ctx, principal.schoolId, entity, item, audience));
  const noneLeft = audience.length === 0 ? 'unreachable' : missing ? 'all_responded' : 'all_read';
  return sendReminder(ctx, principal, entity, item, families, noneLeft, (transaction) => notifyAudience(ctx, { schoolId: principal.schoolId, entity, id, scope: item.scope }, {
    event: 'reminder', entity_type: entity, entity_id: id, title: `Reminder: ${item.title}`.slice(0, 200),
    body: missing ? 'Your response is still missing.' : 'You have not read this yet.',
  }, transaction, families));
}
