import { z } from 'zod';
import { itemReach, markRead, reachQuery, readInput, reminderMessage, remindUnread } from '../../services/audiences/reach.js';
import type { Routers } from '../routers.js';
import { idParam, timestamp } from '../../services/schemas.js';

const reachView = z.object({
  families: z.number().describe("The families the item reaches: parents of its audience's students who are not archived"),
  read: z.number(),
  unread: z.number(),
  pushed: z.number().describe('Families with at least one push of it sent'),
  by_channel: z.object({ push: z.number(), email: z.number(), sms: z.number(), none: z.number() })
    .describe('Each family once, under the channel of its first record about the item (its publication or a reminder) that was sent, else `none`; they add up to `families`'),
  unread_families: z.array(z.object({
    parent_id: z.number(), father_name: z.string().nullable(), phone_no: z.string(),
    children: z.array(z.object({ id: z.number(), student_full_name: z.string(), grade: z.string() })),
  })),
  pagination: z.object({ total: z.number(), page: z.number(), limit: z.number(), pages: z.number() }),
});
const reachExample = {
  families: 42, read: 40, unread: 2, pushed: 38, by_channel: { push: 38, email: 2, sms: 1, none: 1 },
  unread_families: [{ parent_id: 7, father_name: 'Ravi Rao', phone_no: '9876543210', children: [{ id: 12, student_full_name: 'Asha Rao', grade: '5' }] }],
  pagination: { total: 2, page: 1, limit: 20, pages: 1 },
};
const reachText = 'The counts cover every family; `unread_families` is a page of those that have not read it (`page`, `limit`, default 20).';
const remindText =
  'Every family that has not read it (on an item with a form, every family still missing a response) is told by its channel: a push to each of its devices, ' +
  'else an e-mail to a verified address, else an SMS (event `reminder`); only a published item; at most one an hour per item (429 with Retry-After). ' +
  'Answers the number of notification records written, of every channel. A reminder that would write none (every family has read it, or none of the others ' +
  'can be reached, an audience with no family in it included) answers `{queued: 0}` (the message says why), writes nothing and does not start the hour.';
const reminderView = z.object({ queued: z.number().describe('The notification records written, of every channel') });

/** Read receipts (parents), and reach and reminders (the author, managers, school admins). */
export function registerReachRoutes(r: Routers): void {
  r.parent.route(
    {
      method: 'post', path: '/engagement/read', summary: 'Mark an activity, notice or diary entry as read',
      description: 'Idempotent: the first read is kept, and every call answers its time. An item the parent cannot see answers 404.',
      body: readInput, response: z.object({ read_at: timestamp() }), errors: [404],
      example: { entity_type: 'activity', entity_id: 12 }, responseExample: { message: 'Read', data: { read_at: '2026-11-22T09:30:00.000Z' } },
    },
    async ({ ctx, principal, body }) => ({ message: 'Read', data: await markRead(ctx, principal, body) }),
  );
  for (const [router, who] of [[r.teachers, 'the author, or activities.manage'], [r.web, 'super_admin, admin']] as const) {
    router.route(
      {
        method: 'get', path: '/activities/:id/reach', params: idParam, query: reachQuery, summary: `Who an activity reaches and who read it (${who})`,
        description: reachText, response: reachView, errors: [404], responseExample: { data: reachExample },
      },
      async ({ ctx, principal, params, query }) => ({ data: await itemReach(ctx, principal, 'activity', params.id, query) }),
    );
    router.route(
      {
        method: 'post', path: '/activities/:id/remind', params: idParam, summary: `Remind the families that have not read an activity (${who})`,
        description: remindText, response: reminderView, errors: [404, 409], responseExample: { message: 'Reminder queued: 3 notification record(s) written', data: { queued: 3 } },
      },
      async ({ ctx, principal, params }) => {
        const result = await remindUnread(ctx, principal, 'activity', params.id);
        return { message: reminderMessage(result), data: { queued: result.queued } };
      },
    );
  }
  r.web.route(
    {
      method: 'get', path: '/noticeboard/:id/reach', params: idParam, query: reachQuery, summary: 'Who a notice reaches and who read it (super_admin, admin)',
      description: reachText, response: reachView, errors: [404], responseExample: { data: reachExample },
    },
    async ({ ctx, principal, params, query }) => ({ data: await itemReach(ctx, principal, 'noticeboard', params.id, query) }),
  );
  r.web.route(
    {
      method: 'post', path: '/noticeboard/:id/remind', params: idParam, summary: 'Remind the families that have not read a notice (super_admin, admin)',
      description: remindText, response: reminderView, errors: [404, 409], responseExample: { message: 'Reminder queued: 3 notification record(s) written', data: { queued: 3 } },
    },
    async ({ ctx, principal, params }) => {
      const result = await remindUnread(ctx, principal, 'noticeboard', params.id);
      return { message: reminderMessage(result), data: { queued: result.queued } };
    },
  );
}
