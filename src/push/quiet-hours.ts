import { DateTime } from 'luxon';

export interface QuietHours {
  /** HH:MM, local time of the school's zone. */
  start: string;
  end: string;
}

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * When a push written at `now` may be delivered to someone with these quiet hours in `zone`: null when
 * `now` is outside them, else the next moment the wall clock there reads `end`. A range whose start is
 * after its end spans midnight (22:00-07:00). Wall-clock arithmetic in the zone keeps the end right
 * across daylight-saving changes: an end that falls in a skipped hour is the first instant after it,
 * one in a repeated hour the first of the two.
 */
export function quietUntil(now: Date, zone: string, quiet: QuietHours): Date | null {
  const local = DateTime.fromJSDate(now, { zone });
  const at = local.hour * 60 + local.minute;
  const [start, end] = [minutes(quiet.start), minutes(quiet.end)];
  const inside = start < end ? at >= start && at < end : at >= start || at < end;
  if (!inside) return null;
  const endDay = at < end ? local : local.plus({ days: 1 });
  const until = endDay.set({ hour: Math.floor(end / 60), minute: end % 60, second: 0, millisecond: 0 });
  const skipped = (until.hour * 60 + until.minute - end + 1440) % 1440;
  return skipped === 0 ? until.toJSDate() : jumpBefore(until, skipped);
}

/**
 * The instant the clock jumped over a skipped wall time: Luxon reads a time in the gap with the
 * offset before it, which lands `skipped` minutes past the jump; the jump is the first minute after
 * that carries the new offset.
 */
function jumpBefore(past: DateTime, skipped: number): Date {
  let before = past.toMillis() - skipped * 60_000;
  let after = past.toMillis();
  while (after - before > 60_000) {
    const mid = before + Math.floor((after - before) / 120_000) * 60_000;
    if (DateTime.fromMillis(mid, { zone: past.zone }).offset === past.offset) after = mid;
    else before = mid;
  }
  return new Date(after);
}

/**
 * `zone` when the platform's own time-zone data (Intl) knows it, else null: in ICU's spelling when
 * only the case differs (`utc` is `UTC`), as given otherwise (ICU still calls `Asia/Kolkata`
 * `Asia/Calcutta`, but accepts both, and a school names its zone the modern way).
 */
export function canonicalZone(zone: string): string | null {
  try {
    const known = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
    return known.toLowerCase() === zone.toLowerCase() ? known : zone;
  } catch {
    return null;
  }
}
