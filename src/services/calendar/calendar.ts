import { DateTime } from 'luxon';
import { z } from 'zod';
import type { AppContext, Principal } from '../../context.js';
import { fieldError, forbidden, notFound } from '../../errors.js';
import { School } from '../../models/index.js';
import { requirePermission } from '../access/guards.js';
import {
  ACTIVITY_COLUMNS, AUTHOR, parentActivitiesSelect, parentActivityViews, staffActivityViews, type ActivityRow, type ActivityView,
} from '../activities/activities.js';
import { audienceVisible } from '../audiences/audiences.js';
import { date } from '../schemas.js';
import { parseInput } from '../validation.js';

/** The longest range a calendar answers, in days after `from`. */
const CALENDAR_MAX_DAYS = 366;
const DEFAULT_DAYS = 30;

export const calendarQuery = z.object({
  from: date().optional().describe("The first day, in the school's time zone (default today)"),
  to: date().optional().describe('The last day (default from + 30 days; at most 366 days after from)'),
});
export type CalendarQuery = z.input<typeof calendarQuery>;

/** The range's first and last instants: the start of `from` and the end of `to`, as days of the school's time zone. */
async function rangeOf(schoolId: string, input: CalendarQuery): Promise<{ start: Date; end: Date }> {
  const query = parseInput(calendarQuery, input);
  const school = await School.findByPk(schoolId, { attributes: ['timezone'], raw: true });
  if (!school) throw notFound('School');
  const zone = school.timezone;
  const from = query.from ? DateTime.fromISO(query.from, { zone }) : DateTime.now().setZone(zone).startOf('day');
  const to = query.to ? DateTime.fromISO(query.to, { zone }) : from.plus({ days: DEFAULT_DAYS });
  if (to < from) throw fieldError('to', 'must not be before from');
  if (to > from.plus({ days: CALENDAR_MAX_DAYS })) throw fieldError('to', `must be at most ${CALENDAR_MAX_DAYS} days after from`);
  return { start: from.toJSDate(), end: to.plus({ days: 1 }).minus({ milliseconds: 1 }).toJSDate() };
}

/** Events whose span (start to `span_end`) overlaps the range, found through activities_calendar. */
const OVERLAPS = "a.activity_type = 'event' AND a.starts_at IS NOT NULL AND a.span_end >= :start AND a.starts_at <= :end";
const BY_START = 'ORDER BY a.starts_at, a.id';

/**
 * GET /parent-app/calendar: the published events the parent can see (section 19) that overlap the
 * range, by start then id, each as the parent feed shows it.
 */
export async function parentCalendar(ctx: AppContext, principal: Principal, input: CalendarQuery = {}): Promise<ActivityView[]> {
  if (principal.type !== 'parent') throw forbidden('This calendar is for parents');
  const range = await rangeOf(principal.schoolId, input);
  const rows = await ctx.db.select<ActivityRow & { audience_list: unknown }>(
    `${parentActivitiesSelect(ctx.db.dialect === 'mysql')}
      WHERE a.school_id = :school AND a.deleted_status = 0 AND a.status = 'published' AND ${OVERLAPS} AND ${audienceVisible('a', 'activity', false, ctx.db.dialect === 'mysql')} ${BY_START}`,
    { school: principal.schoolId, parent: principal.userId, ...range },
  );
  return parentActivityViews(ctx, principal, rows);
}

/** GET /teachers-app/calendar (activities.view): the school's published and cancelled events in the range, whatever their audience. */
export async function schoolCalendar(ctx: AppContext, principal: Principal, input: CalendarQuery = {}): Promise<ActivityView[]> {
  requirePermission(principal, 'activities.view');
  const range = await rangeOf(principal.schoolId, input);
  const rows = await ctx.db.select<ActivityRow>(
    `SELECT ${ACTIVITY_COLUMNS} FROM activities a ${AUTHOR}
      WHERE a.school_id = :school AND a.deleted_status = 0 AND a.status IN ('published', 'cancelled') AND ${OVERLAPS} ${BY_START}`,
    { school: principal.schoolId, ...range },
  );
  return staffActivityViews(ctx, principal, rows);
}
