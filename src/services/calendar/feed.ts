import type { AppContext, Principal } from '../../context.js';
import { iso } from '../../db.js';
import { forbidden, notFound } from '../../errors.js';
import { CalendarFeed } from '../../models/index.js';
import { audienceVisible } from '../audiences/audiences.js';
import { hashSecret, newSecret } from '../auth/tokens.js';
import { transactionWithRetry, violates } from '../transactions.js';
import { version } from '../../version.js';
import { allDayDates } from './event-fields.js';

/** How far back the feed reaches: events that ended (or, without an end, started) no longer ago than this. */
const FEED_PAST_DAYS = 90;

/**
 * POST /parent-app/calendar/feed: a new subscription URL for the parent, replacing the one they had
 * (which then answers 404). The token is 256 random bits; only its SHA-256 is kept.
 */
export async function createCalendarFeed(ctx: AppContext, principal: Principal): Promise<{ url: string }> {
  if (principal.type !== 'parent') throw forbidden('The calendar feed is for parents');
  const token = newSecret();
  const key = { school_id: principal.schoolId, parent_id: principal.userId };
  await transactionWithRetry(ctx, async (transaction) => {
    const current = await CalendarFeed.findOne({ where: key, transaction });
    if (current) await current.update({ token_hash: hashSecret(token) }, { transaction });
    else await CalendarFeed.create({ ...key, token_hash: hashSecret(token) }, { transaction });
  }, (err) => violates(err, 'calendar_feeds_parent_uq', 'parent_id'));
  return { url: `${ctx.config.publicAppUrl}/calendar/${token}.ics` };
}

/** DELETE /parent-app/calendar/feed: the parent's URL stops working (404 when they have none). */
export async function revokeCalendarFeed(_ctx: AppContext, principal: Principal): Promise<void> {
  if (principal.type !== 'parent') throw forbidden('The calendar feed is for parents');
  const current = await CalendarFeed.findOne({ where: { school_id: principal.schoolId, parent_id: principal.userId } });
  if (!current) throw notFound('Calendar feed');
  await current.destroy();
}

interface FeedOwner {
  school_id: string;
  parent_id: number;
  name: string;
  timezone: string;
}

interface EventRow {
  id: number;
  title: string;
  description: string | null;
  status: string;
  starts_at: unknown;
  ends_at: unknown;
  all_day: unknown;
  location: string | null;
  updated_at: unknown;
}

/**
 * GET /calendar/<token>.ics (public): an RFC 5545 calendar of the events the token's parent may see
 * (section 19's audience rule), published or cancelled, that ended no more than 90 days ago. A
 * token unknown, replaced or revoked, or of a suspended school: 404. ical-generator writes it: CRLF
 * lines folded at 75 octets (never inside a character), text escaped, times in UTC, all-day
 * events as dates of the school's time zone. It escapes every text but the calendar's name, which
 * is escaped here.
 */
export async function calendarFeedIcs(ctx: AppContext, token: string): Promise<string> {
  const [owner] = await ctx.db.select<FeedOwner>(
    `SELECT f.school_id, f.parent_id, s.name, s.timezone FROM calendar_feeds f JOIN schools s ON s.id = f.school_id
      WHERE f.token_hash = :hash AND s.status = 'active'`,
    { hash: hashSecret(token) },
  );
  if (!owner) throw notFound('Calendar');
  const events = await ctx.db.select<EventRow>(
    `SELECT a.id, a.title, a.description, a.status, a.starts_at, a.ends_at, a.all_day, a.location, a.updated_at FROM activities a
      WHERE a.school_id = :school AND a.deleted_status = 0 AND a.status IN ('published', 'cancelled') AND a.activity_type = 'event'
        AND a.starts_at IS NOT NULL AND a.span_end >= :since AND ${audienceVisible('a', 'activity', false, ctx.db.dialect === 'mysql')}
      ORDER BY a.starts_at, a.id`,
    { school: owner.school_id, parent: owner.parent_id, since: new Date(Date.now() - FEED_PAST_DAYS * 86_400_000) },
  );
  // Loaded by the first feed asked for: most servers never write one, and it stays out of their memory.
  const { default: ical, escape, ICalEventStatus } = await import('ical-generator');
  const calendar = ical({ name: escape(owner.name, false), prodId: { company: 'school-platform', product: `calendar ${version}`, language: 'EN' } });
  for (const e of events) {
    const start = new Date(iso(e.starts_at)!);
    const end = e.ends_at == null ? null : new Date(iso(e.ends_at)!);
    const allDay = Number(e.all_day) === 1;
    const days = allDay ? allDayDates(start, end, owner.timezone) : null;
    calendar.createEvent({
      id: `activity-${e.id}@${owner.school_id}`,
      stamp: new Date(iso(e.updated_at)!),
      allDay,
      start: days ? days.first : start,
      end: days ? days.afterLast : end,
      summary: e.title,
      description: e.description || null,
      location: e.location || null,
      status: e.status === 'cancelled' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    });
  }
  // ical-generator ends the last line without its CRLF.
  return `${calendar.toString()}\r\n`;
}
