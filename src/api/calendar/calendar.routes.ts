import { z } from 'zod';
import { calendarQuery, parentCalendar, schoolCalendar } from '../../services/calendar/calendar.js';
import { calendarFeedIcs, createCalendarFeed, revokeCalendarFeed } from '../../services/calendar/feed.js';
import { activityView, parentActivityView } from '../activities/activities.routes.js';
import type { Routers } from '../routers.js';

const rangeText =
  "`from` and `to` are days of the school's time zone (default today and 30 days later; `to` at most 366 days after `from`, else 400 naming `to`). " +
  'An event is in the range when its span (from `starts_at` to `ends_at`, or its start alone; an all-day event to the end of its last day) overlaps ' +
  'it. Ordered by `starts_at`, then id.';

const icsExample = [
  'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//school-platform//calendar 0.1.0//EN', 'NAME:Greenwood High', 'X-WR-CALNAME:Greenwood High',
  'BEGIN:VEVENT', 'UID:activity-12@greenwood', 'SEQUENCE:0', 'DTSTAMP:20261122T093000Z', 'DTSTART:20261205T033000Z', 'DTEND:20261205T100000Z',
  'SUMMARY:Science museum trip', 'LOCATION:City Science Museum', 'STATUS:CONFIRMED', 'END:VEVENT', 'END:VCALENDAR', '',
].join('\r\n');

/** The family calendar (JSON and a subscription feed) and the school's calendar for staff. */
export function registerCalendarRoutes(r: Routers): void {
  r.parent.route(
    {
      method: 'get', path: '/calendar', query: calendarQuery, summary: "The family's calendar: the events they can see in a range",
      description: `The published events whose audience reaches the parent, each as the feed shows it (\`read_at\`, \`form\`, the event fields). ${rangeText}`,
      response: z.array(parentActivityView),
    },
    async ({ ctx, principal, query }) => ({ data: await parentCalendar(ctx, principal, query) }),
  );
  r.parent.route(
    {
      method: 'post', path: '/calendar/feed', status: 201, summary: 'A calendar subscription URL for phones and desktop calendars',
      description: 'An RFC 5545 feed of the events the parent can see, at `{PUBLIC_APP_URL}/calendar/<token>.ics`. One per parent: a new one replaces ' +
        'the old, whose URL then answers 404. The token is shown only here.',
      response: z.object({ url: z.string() }),
      responseExample: { message: 'Calendar feed created', data: { url: 'https://school.example.org/calendar/3q2-7wT1cB5n2xVYkq8RZg0sFhJd4eUpLmNoA9bCdEf.ics' } },
    },
    async ({ ctx, principal }) => ({ message: 'Calendar feed created', data: await createCalendarFeed(ctx, principal) }),
  );
  r.parent.route(
    {
      method: 'delete', path: '/calendar/feed', summary: 'Revoke the calendar subscription URL',
      description: 'The URL answers 404 from then on. 404 when there is none.', errors: [404], responseExample: { message: 'Calendar feed revoked' },
    },
    async ({ ctx, principal }) => {
      await revokeCalendarFeed(ctx, principal);
      return { message: 'Calendar feed revoked' };
    },
  );

  r.teachers.route(
    {
      method: 'get', path: '/calendar', query: calendarQuery, summary: "The school's calendar (activities.view)",
      description: `The school's published and cancelled events, whatever their audience. ${rangeText}`,
      response: z.array(activityView), errors: [403],
    },
    async ({ ctx, principal, query }) => ({ data: await schoolCalendar(ctx, principal, query) }),
  );

  r.root.publicRoute(
    {
      method: 'get', path: '/calendar/:token.ics', auth: false, params: z.object({ token: z.string().describe('The secret of a URL from POST /parent-app/calendar/feed') }),
      summary: "A family's calendar feed (RFC 5545)",
      description: 'What the token\'s parent may see: the published and cancelled events of their audience that ended no more than 90 days ago, ' +
        'one VEVENT each (`UID:activity-<id>@<school_id>`, times in UTC, all-day events as dates of the school\'s time zone, `STATUS:CANCELLED` ' +
        'for a cancelled one). A token unknown, replaced or revoked, or of a suspended school: 404 (the JSON error body). The token is redacted from the logs.',
      produces: { type: 'text/calendar', description: 'The calendar', example: icsExample },
      errors: [404],
    },
    async ({ ctx, params, res }) => {
      const body = await calendarFeedIcs(ctx, params.token);
      res.setHeader('Content-Type', 'text/calendar; charset=utf-8');
      res.setHeader('Cache-Control', 'private, no-cache');
      res.status(200).send(body);
    },
  );
}
