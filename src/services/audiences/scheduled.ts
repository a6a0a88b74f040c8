import { QueryTypes } from 'sequelize';
import type { AppContext } from '../../context.js';
import { sqlTime } from '../../db.js';
import { operatorPrincipal } from '../access/guards.js';
import { publishActivity } from '../activities/activities.js';
import { publishNotice } from '../notices/notices.js';
import { recordAudit } from '../audit/audit.js';

/** Items published a pass at most: a backlog drains over the next passes. */
const BATCH = 100;

/**
 * Publishes the scheduled activities and notices whose time has come, each in its own transaction
 * with its push. Each is claimed by a conditional update (an activity's status, a notice's
 * published_at), so with several instances checking at once each item is published, and pushed,
 * exactly once. A restart loses nothing: the schedule is in the rows.
 */
export async function publishDue(ctx: AppContext, now: Date = new Date()): Promise<{ activities: number; notices: number }> {
  const done = { activities: 0, notices: 0 };
  const activities = await ctx.db.select<{ id: number; school_id: string }>(
    "SELECT id, school_id FROM activities WHERE status = 'scheduled' AND publish_at <= :now AND deleted_status = 0 ORDER BY publish_at, id LIMIT :limit",
    { now, limit: BATCH },
  );
  for (const a of activities) {
    await ctx.db.sequelize.transaction(async (transaction) => {
      const [, claimed] = (await ctx.db.sequelize.query(
        "UPDATE activities SET status = 'published' WHERE id = :id AND school_id = :school AND status = 'scheduled' AND publish_at <= :now AND deleted_status = 0",
        { replacements: { id: Number(a.id), school: a.school_id, now: sqlTime(ctx.db.dialect, now) }, type: QueryTypes.UPDATE, transaction },
      )) as unknown as [unknown, number];
      if (!claimed) return;
      await recordAudit([{ schoolId: a.school_id, action: 'activity.publish', entityType: 'activity', entityId: Number(a.id), changes: { status: ['scheduled', 'published'] } }], transaction);
      await publishActivity(ctx, operatorPrincipal(a.school_id), Number(a.id), transaction);
      done.activities++;
    });
  }
  const notices = await ctx.db.select<{ id: number; school_id: string }>(
    'SELECT id, school_id FROM notices WHERE published_at IS NULL AND publish_at <= :now AND notice_deleted = 0 ORDER BY publish_at, id LIMIT :limit',
    { now, limit: BATCH },
  );
  for (const n of notices) {
    if (await ctx.db.sequelize.transaction((transaction) => publishNotice(ctx, n.school_id, Number(n.id), now, transaction))) done.notices++;
  }
  return done;
}
