import { z } from 'zod';
import {
  assertOwnThreadFound, assertThreadFound, createWriteTo, getParentWriteTo, getStaffWriteTo, listParentWriteTo, listStaffQueue, newWriteToInput, parentReply, replyAuthors,
  replyInput, schoolReply, updateWriteTo, writeToChangesInput, writeToListQuery, writeToStatuses, writeToTypes,
} from '../../services/write-to/write-to.js';
import type { ApiRouter } from '../route.js';
import type { Routers } from '../routers.js';
import { attachmentsView, idParam, schoolIdField, timestamp } from '../../services/schemas.js';

const request = z.object({
  id: z.number(), school_id: z.string(), parent_id: z.number(), student_id: z.number().nullable(), type: z.enum(writeToTypes),
  subject: z.string(), message: z.string(), status: z.enum(writeToStatuses), assigned_staff_id: z.number().nullable(),
  leave_from: z.string().nullable(), leave_to: z.string().nullable(), created_at: timestamp(), updated_at: timestamp(),
  resolved_at: timestamp().nullable(), replies_count: z.number(), attachments: attachmentsView,
});
const reply = z.object({
  id: z.number(), write_to_id: z.number(), author_type: z.enum(replyAuthors), author_id: z.number().describe('The parent\'s, staff member\'s or admin user\'s id'),
  author_name: z.string().nullable(), message: z.string(), created_at: timestamp(), attachments: attachmentsView,
});
const thread = request.extend({ replies: z.array(reply).describe('Oldest first') });
const queueItem = request.extend({ student_name: z.string().nullable(), parent_name: z.string().nullable() });
/** The teachers app sends its school_id on every call; the tenant guard checks it. */
const staffQuery = writeToListQuery.extend({ school_id: schoolIdField().optional() });

const listDescription = 'Newest first; `X-Total-Count` carries the total. Archived requests only with status=archived.';

export function registerWriteToRoutes(r: Routers): void {
  r.parent.route(
    {
      method: 'post', path: '/write-to', status: 201, summary: 'Send a request to the school (leave, complaint, query, feedback, other)',
      description: 'A leave request needs leave_from and leave_to and notifies the class teacher of the student.',
      body: newWriteToInput, response: request, errors: [403],
      example: { student_id: 12, type: 'leave', subject: 'Family wedding', message: 'Asha will be away for two days.', leave_from: '2026-12-03', leave_to: '2026-12-04' },
    },
    async ({ ctx, principal, body }) => ({ message: 'Request sent', data: await createWriteTo(ctx, principal, body) }),
  );
  r.parent.route(
    { method: 'get', path: '/write-to', summary: "The parent's own requests", description: listDescription, query: writeToListQuery, response: z.array(request) },
    async ({ ctx, principal, query, res }) => {
      const { requests, pagination } = await listParentWriteTo(ctx, principal, query);
      res.setHeader('X-Total-Count', String(pagination.total));
      return { data: requests };
    },
  );
  r.parent.route(
    { method: 'get', path: '/write-to/:id', params: idParam, summary: 'One of the parent\'s requests with its replies, oldest first', response: thread, errors: [404] },
    async ({ ctx, principal, params }) => ({ data: await getParentWriteTo(ctx, principal, params.id) }),
  );
  r.parent.route(
    {
      method: 'post', path: '/write-to/:id/reply', params: idParam, status: 201, summary: 'Reply to one of the parent\'s requests',
      found: ({ principal, params }) => assertOwnThreadFound(principal, params.id),
      description: 'A reply reopens a resolved request; an archived one answers 409.',
      body: replyInput, response: reply, errors: [404, 409],
      example: { message: 'Thank you, one more question about the dates.' },
    },
    async ({ ctx, principal, params, body }) => ({ message: 'Reply sent', data: await parentReply(ctx, principal, params.id, body) }),
  );

  for (const [router, who] of [[r.teachers, 'staff'], [r.web, 'admins']] as const) registerQueueRoutes(router, who);
}

/**
 * The school's side of the threads: staff in the teachers app (their queue as their rbac gives it),
 * and the school's admins (super_admin, admin) in the web app, who work the whole queue as staff
 * with write_to.manage do; an admin's reply has `author_type` admin.
 */
function registerQueueRoutes(router: ApiRouter, who: 'staff' | 'admins'): void {
  const staff = who === 'staff';
  router.route(
    {
      method: 'get', path: '/write-to', summary: staff ? "The staff member's queue" : "The school's queue (super_admin, admin)",
      description: `${staff
        ? "Requests about students assigned to the caller and requests assigned to the caller; with write_to.manage, the whole school's."
        : "Every request of the school, with the student's and the parent's names."} ${listDescription}`,
      query: staffQuery, response: z.array(queueItem),
    },
    async ({ ctx, principal, query, res }) => {
      const { requests, pagination } = await listStaffQueue(ctx, principal, query);
      res.setHeader('X-Total-Count', String(pagination.total));
      return { data: requests };
    },
  );
  router.route(
    { method: 'get', path: '/write-to/:id', params: idParam, summary: 'A request in the caller\'s queue with its replies, oldest first', response: thread, errors: [404] },
    async ({ ctx, principal, params }) => ({ data: await getStaffWriteTo(ctx, principal, params.id) }),
  );
  router.route(
    {
      method: 'post', path: '/write-to/:id/reply', params: idParam, status: 201, summary: 'Reply to a request in the caller\'s queue',
      description: `The first reply from the school (staff or admin) moves an open request to in_progress; the parent is notified. An archived request answers 409.${
        staff ? '' : ' The reply has `author_type` admin and the admin user\'s id and name.'}`,
      found: ({ ctx, principal, params }) => assertThreadFound(ctx, principal, params.id),
      body: replyInput, response: reply, errors: [404, 409],
      example: { message: 'Noted, the leave is approved.' },
    },
    async ({ ctx, principal, params, body }) => ({ message: 'Reply sent', data: await schoolReply(ctx, principal, params.id, body) }),
  );
  router.route(
    {
      method: 'put', path: '/write-to/:id', someField: true, params: idParam, summary: 'Resolve or assign a request',
      description: `${staff
        ? 'Resolving needs write_to.manage or being the assigned staff; assigning needs write_to.manage.'
        : '`status: "resolved"` resolves it; `assigned_staff_id` assigns it to an active staff member of the school (null unassigns).'} ` +
        'Resolving marks a leave\'s dates excused where no mark exists; a resolved or archived request answers 409. An unknown or another school\'s request answers 404 whatever the body.',
      found: ({ ctx, principal, params }) => assertThreadFound(ctx, principal, params.id),
      body: writeToChangesInput, response: request, errors: [404, 409],
      example: staff ? { status: 'resolved' } : { assigned_staff_id: 7 },
    },
    async ({ ctx, principal, params, body }) => ({ message: 'Request updated', data: await updateWriteTo(ctx, principal, params.id, body) }),
  );
}
