import { QueryTypes } from 'sequelize';
import type { AppContext } from '../../context.js';
import { sqlTime } from '../../db.js';
import { operatorPrincipal } from '../access/guards.js';
import { publishActivity } from '../activities/activities.js';
import { publishNotice } from '../notices/notices.js';
import { recordAudit } from '../audit/audit.js';

/** Items read at a time; a pass reads batches while they come full. */
const BATCH = 100;
/** How long a pass keeps reading full batches: a burst (a morning notice in hundreds of schools) goes out within the minute, and a stop waits no longer. */
const PASS_BUDGET_MS = 30_000;

type Due = { id: number; school_id: string };

/**
 * Publishes the scheduled activities and notices whose time has come, each in its own transaction
 * with its push. Each is claimed by a conditional update (an activity's status, a notice's
 * published_at), so with several instances checking at once each item is published, and pushed,
 * exactly once. A restart loses nothing: the schedule is in the rows. One item that fails is logged
 * and left for the next pass; it stops none of the others.
 */
export async function publishDue(ctx: AppContext, now: Date = new Date(), stopping: () => boolean = () => false): Promise<{ activities: number; notices: number }> {
  const started = Date.now();
  // Ids that failed this pass, not read again in it; 0 is no item's and keeps the SQL list from being empty.
  const failed = { activities: [0], notices: [0] };
  const done = { activities: 0, notices: 0 };
  const publishEach = async (items: Due[], kind: 'activities' | 'notices', publish: (item: Due) => Promise<boolean>) => {
    for (const item of items) {
      try {
        if (await publish(item)) done[kind]++;
      } catch (err) {
        failed[kind].push(Number(item.id));
        ctx.log.error({ err, school_id: item.school_id, id: item.id }, `publishing scheduled ${kind} failed`);
      }
    }
  };
  for (;;) {
    const activities = await ctx.db.select<Due>(
      `SELECT id, school_id FROM activities WHERE status = 'scheduled' AND publish_at <= :now AND deleted_status = 0 AND id NOT IN (:failed)
        ORDER BY publish_at, id LIMIT :limit`,
      { now, limit: BATCH, failed: failed.activities },
    );
    await publishEach(activities, 'activities', (a) => publishScheduledActivity(ctx, a, now));
    const notices = await ctx.db.select<Due>(
      `SELECT id, school_id FROM notices WHERE published_at IS NULL AND publish_at <= :now AND notice_deleted = 0 AND id NOT IN (:failed)
        ORDER BY publish_at, id LIMIT :limit`,
      { now, limit: BATCH, failed: failed.notices },
    );
    await publishEach(notices, 'notices', (n) => ctx.db.sequelize.transaction((transaction) => publishNotice(ctx, n.school_id, Number(n.id), now, transaction)));
    const more = activities.length === BATCH || notices.length === BATCH;
    if (!more || stopping() || Date.now() - started > PASS_BUDGET_MS) return done;
  }
}

/** Claims one scheduled activity and publishes it with its push; false when another instance had it. */
function publishScheduledActivity(ctx: AppContext, a: Due, now: Date): Promise<boolean> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const [, claimed] = (await ctx.db.sequelize.query(
      "UPDATE activities SET status = 'published' WHERE id = :id AND school_id = :school AND status = 'scheduled' AND publish_at <= :now AND deleted_status = 0",
      { replacements: { id: Number(a.id), school: a.school_id, now: sqlTime(ctx.db.dialect, now) }, type: QueryTypes.UPDATE, transaction },
    )) as unknown as [unknown, number];
    if (!claimed) return false;
    await recordAudit([{ schoolId: a.school_id, action: 'activity.publish', entityType: 'activity', entityId: Number(a.id), changes: { status: ['scheduled', 'published'] } }], transaction);
    await publishActivity(ctx, operatorPrincipal(a.school_id), Number(a.id), transaction);
    return true;
  });
}
