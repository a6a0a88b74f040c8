import { DateTime } from 'luxon';
import { Op, type Transaction } from 'sequelize';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { sqlTime } from '../../db.js';
import { badRequest, notFound, type FieldError } from '../../errors.js';
import { Activity, School } from '../../models/index.js';
import { chunks } from '../batches.js';
import { date, STORABLE_YEARS, storable } from '../schemas.js';

const LOCATION_MAX = 200;

const time = z.iso.datetime({ offset: true });
const day = date();

/** An ISO time, or (all day only) a date. */
const when = () =>
  z
    .string()
    .refine((v) => time.safeParse(v).success || day.safeParse(v).success, 'must be an ISO 8601 time, or a date YYYY-MM-DD for an all-day event')
    .refine(storable, STORABLE_YEARS)
    .nullable();

/** An event's fields, as activities of type `event` take them through every door. */
export const eventFields = {
  starts_at: when().describe('Events only: when it starts (an ISO time; all day, also a date YYYY-MM-DD of the school\'s time zone)'),
  ends_at: when().describe('Events only, with a starts_at: when it ends, not before it starts'),
  all_day: z.boolean().describe('Events only (default false): it covers whole days of the school\'s time zone'),
  location: z.string().trim().max(LOCATION_MAX).nullable().describe('Events only: where, at most 200 characters'),
};
export const eventFieldNames = ['starts_at', 'ends_at', 'all_day', 'location'] as const;

interface EventInput {
  activity_type?: string;
  starts_at?: string | null;
  ends_at?: string | null;
  all_day?: boolean;
  location?: string | null;
}

interface EventColumns {
  starts_at: Date | null;
  ends_at: Date | null;
  all_day: boolean;
  location: string | null;
  /** The last instant it covers, by which the calendars find it. */
  span_end: Date | null;
}

interface StoredEvent {
  activity_type: string;
  starts_at: Date | null;
  ends_at: Date | null;
  all_day: boolean;
  location: string | null;
}

const NONE: EventColumns = { starts_at: null, ends_at: null, all_day: false, location: null, span_end: null };

async function zoneOf(schoolId: string): Promise<string> {
  const school = await School.findByPk(schoolId, { attributes: ['timezone'], raw: true });
  if (!school) throw notFound('School');
  return school.timezone;
}

/** The start of the day (of `zone`) that a date names, or that an instant falls on. */
const startOfDay = (value: string | Date, zone: string) =>
  (typeof value === 'string' && day.safeParse(value).success ? DateTime.fromISO(value, { zone }) : DateTime.fromJSDate(new Date(value), { zone })).startOf('day');
/** The last instant of the day that starts there: where an all-day event's span ends. */
const endOfDay = (start: DateTime) => start.plus({ days: 1 }).minus({ milliseconds: 1 });

/**
 * The event columns an activity's create or update stores, or undefined when they do not change.
 * They belong to events: sent for an activity that is, or in this request becomes, an announcement,
 * each is a 400 naming it, and an event made an announcement loses them. With `all_day` the
 * times are the starts of their days in the school's time zone (dates allowed); without it, a date
 * alone is a 400 naming the field. `ends_at` goes with a `starts_at`, never before it.
 */
export async function eventColumns(schoolId: string, input: EventInput, current?: StoredEvent): Promise<EventColumns | undefined> {
  const sent = eventFieldNames.filter((f) => input[f] !== undefined);
  const type = input.activity_type ?? current?.activity_type ?? 'announcement';
  if (type !== 'event') {
    if (sent.length) {
      throw badRequest(`Invalid input: ${sent.join(', ')}`, sent.map((field) => ({ field, message: 'belongs to events: this activity is an announcement' })));
    }
    return current?.activity_type === 'event' ? NONE : undefined;
  }
  if (sent.length === 0) return undefined;
  const allDay = input.all_day ?? current?.all_day ?? false;
  const problems: FieldError[] = [];
  const raw = { starts_at: input.starts_at !== undefined ? input.starts_at : current?.starts_at ?? null, ends_at: input.ends_at !== undefined ? input.ends_at : current?.ends_at ?? null };
  for (const field of ['starts_at', 'ends_at'] as const) {
    const value = input[field];
    if (!allDay && typeof value === 'string' && day.safeParse(value).success) problems.push({ field, message: 'a date alone needs all_day: true (else give an ISO time)' });
  }
  if (problems.length) throw badRequest(`Invalid input: ${problems.map((p) => p.field).join(', ')}`, problems);
  const zone = allDay ? await zoneOf(schoolId) : null;
  const at = (value: string | Date | null) => (value === null ? null : zone ? startOfDay(value, zone).toJSDate() : new Date(value));
  const start = at(raw.starts_at);
  const end = at(raw.ends_at);
  if (end !== null && start === null) problems.push({ field: 'ends_at', message: 'goes with a starts_at' });
  if (end !== null && start !== null && end.getTime() < start.getTime()) problems.push({ field: 'ends_at', message: 'must not be before starts_at' });
  if (problems.length) throw badRequest(`Invalid input: ${problems.map((p) => p.field).join(', ')}`, problems);
  const location = input.location !== undefined ? input.location || null : current?.location ?? null;
  const last = end ?? start;
  const spanEnd = last === null ? null : zone ? endOfDay(startOfDay(last, zone)).toJSDate() : last;
  return { starts_at: start, ends_at: end, all_day: allDay, location, span_end: spanEnd };
}

/** The event as a calendar shows an all-day one: its first day and the day after its last, as dates of the school's zone. */
export function allDayDates(startsAt: Date, endsAt: Date | null, zone: string): { first: string; afterLast: string } {
  const first = DateTime.fromJSDate(startsAt, { zone });
  const last = DateTime.fromJSDate(endsAt ?? startsAt, { zone });
  return { first: first.toISODate()!, afterLast: last.plus({ days: 1 }).toISODate()! };
}

/**
 * A school that moves to another time zone keeps its all-day events on their days: each is stored
 * again as the start of the same dates in the new zone (its span too), in the move's transaction,
 * a few hundred to a statement.
 */
export async function keepAllDayEvents(ctx: AppContext, schoolId: string, from: string, to: string, transaction: Transaction): Promise<void> {
  const events = await Activity.findAll({
    where: { school_id: schoolId, all_day: true, deleted_status: 0, starts_at: { [Op.ne]: null } }, attributes: ['id', 'starts_at', 'ends_at'], raw: true, transaction,
  });
  const moved = (at: Date | null) => (at === null ? null : startOfDay(DateTime.fromJSDate(new Date(at), { zone: from }).toISODate()!, to));
  const time = (at: DateTime | null) => (at === null ? null : sqlTime(ctx.db.dialect, at.toJSDate()));
  for (const batch of chunks(events, 300)) {
    // Changed for the calendars that already hold them, too.
    const values: Record<string, unknown> = { school: schoolId, ids: batch.map((e) => e.id), now: sqlTime(ctx.db.dialect, new Date()) };
    const cases = { starts_at: [] as string[], ends_at: [] as string[], span_end: [] as string[] };
    batch.forEach((e, i) => {
      const start = moved(e.starts_at)!;
      const end = moved(e.ends_at);
      Object.assign(values, { [`s${i}`]: time(start), [`e${i}`]: time(end), [`x${i}`]: time(endOfDay(end ?? start)) });
      cases.starts_at.push(`WHEN ${Number(e.id)} THEN :s${i}`);
      cases.ends_at.push(`WHEN ${Number(e.id)} THEN :e${i}`);
      cases.span_end.push(`WHEN ${Number(e.id)} THEN :x${i}`);
    });
    await ctx.db.sequelize.query(
      `UPDATE activities SET ${Object.entries(cases).map(([column, list]) => `${column} = CASE id ${list.join(' ')} END`).join(', ')}, updated_at = :now
        WHERE school_id = :school AND id IN (:ids)`,
      { replacements: values, transaction },
    );
  }
}
