import { z } from 'zod';
import {
  assertNoticeFound, createNotice, deleteNotice, listParentNotices, parentNotice, listTeacherNotices, listWebNotices, newNoticeSchema, noticeBoardQuerySchema,
  teacherNoticeQuerySchema, noticeChangesSchema, noticeTypes, updateNotice, webNoticeQuerySchema,
} from '../../services/notices/notices.js';
import type { Routers } from '../routers.js';
import { attachmentsView, audienceView, idParam, schoolIdField, timestamp } from '../../services/schemas.js';
import { parentFormView, staffFormView } from '../forms/form-views.js';

const noticeView = z.object({
  id: z.number(),
  school_id: z.string(),
  notice_title: z.string(),
  notice_desc: z.string().nullable(),
  notice_type: z.enum(noticeTypes).nullable(),
  is_important: z.boolean().describe('Important notices come first in every listing'),
  created_by_type: z.enum(['admin', 'staff']).nullable(),
  created_by_id: z.number().nullable(),
  audience: audienceView,
  is_urgent: z.boolean().describe('Urgent notices come before every other, and their push passes the parents\' preferences and quiet hours'),
  scheduled: z.boolean().describe('Not published yet: it publishes itself at publish_at'),
  publish_at: timestamp().nullable(),
  published_at: timestamp().nullable(),
  created_at: timestamp(),
  updated_at: timestamp(),
  form: staffFormView.nullable().describe('Its permission slip, sign-up or RSVP; null without one'),
  attachments: attachmentsView,
});
/** A notice as the parent is shown it: with their read and their own responses to its form. */
const parentNoticeView = noticeView.extend({ read_at: timestamp().nullable(), form: parentFormView.nullable() });

const boardOrder = 'Urgent notices first, then important ones, then newest first. `limit` defaults to 20, at most 100.';
const example = { notice_title: 'School closed on Friday', notice_desc: 'For the regional holiday.', notice_type: 'holiday', is_important: true };

export function registerNoticeboardRoutes(r: Routers): void {
  r.parent.route(
    {
      method: 'get', path: '/noticeboard', query: noticeBoardQuerySchema, summary: "The school's noticeboard",
      description: `The notices for the whole school and those whose audience holds one of the parent's children, each with \`read_at\` (null while unread). ${boardOrder}`,
      response: z.array(parentNoticeView),
    },
    async ({ ctx, principal, query }) => ({ data: await listParentNotices(ctx, principal, query) }),
  );
  r.parent.route(
    {
      method: 'get', path: '/noticeboard/:id', params: idParam, summary: 'One notice of the parent\'s board (what a push opens)',
      description: 'The notice as the board shows it, with `read_at`. One the board would not show this parent (another school\'s, outside every child\'s audience, scheduled or deleted) answers 404.',
      response: parentNoticeView, errors: [404],
    },
    async ({ ctx, principal, params }) => ({ data: await parentNotice(ctx, principal, params.id) }),
  );

  r.teachers.route(
    {
      method: 'get', path: '/noticeboard', query: teacherNoticeQuerySchema.extend({ school_id: schoolIdField() }),
      summary: "The school's noticeboard (noticeboard.view)", description: boardOrder, response: z.array(noticeView), errors: [403],
    },
    async ({ ctx, principal, query }) => ({ data: await listTeacherNotices(ctx, principal, query) }),
  );
  r.teachers.route(
    {
      method: 'post', path: '/noticeboard', status: 201, body: newNoticeSchema.extend({ school_id: schoolIdField().optional() }),
      summary: 'Post a notice (noticeboard.create)', description: '`notice_type` defaults to general, `is_important` to false.',
      response: noticeView, errors: [403], example, responseExample: { message: 'Notice created' },
    },
    async ({ ctx, principal, body }) => ({ message: 'Notice created', data: await createNotice(ctx, principal, body) }),
  );

  r.web.route(
    {
      method: 'get', path: '/noticeboard', query: webNoticeQuerySchema.extend({ school_id: schoolIdField() }),
      summary: "A page of the school's noticeboard and the count of its notices (super_admin, admin)",
      description: 'Important notices first, then newest first; `page` 1 and `limit` 10 unless given.',
      response: z.object({ notices: z.array(noticeView), count: z.number() }), errors: [403],
    },
    async ({ ctx, principal, query }) => ({ data: await listWebNotices(ctx, principal, query) }),
  );
  r.web.route(
    {
      method: 'post', path: '/noticeboard', status: 201, body: newNoticeSchema.extend({ school_id: schoolIdField().optional() }),
      summary: 'Post a notice (super_admin, admin)', description: '`notice_type` defaults to general, `is_important` to false.',
      response: noticeView, errors: [403], example: { school_id: 'greenwood', ...example }, responseExample: { message: 'Notice created' },
    },
    async ({ ctx, principal, body }) => ({ message: 'Notice created', data: await createNotice(ctx, principal, body) }),
  );
  r.web.route(
    {
      method: 'put', path: '/noticeboard/:id', someField: true, params: idParam, body: noticeChangesSchema.extend({ school_id: schoolIdField().optional() }),
      found: ({ principal, params }) => assertNoticeFound(principal, params.id),
      summary: 'Change a notice (super_admin, admin)',
      description:
        'A deleted notice or another school\'s answers 404. `form` is the whole definition again, or null to remove a form without responses; ' +
        'once it has responses, the changes it may not take are 409 naming the path (as for activities).',
      response: noticeView, errors: [403, 404, 409], example: { notice_title: 'School closed on Friday and Saturday', is_important: false },
      responseExample: { message: 'Notice updated' },
    },
    async ({ ctx, principal, params, body }) => ({ message: 'Notice updated', data: await updateNotice(ctx, principal, params.id, body) }),
  );
  r.web.route(
    {
      method: 'delete', path: '/noticeboard/:id', params: idParam, summary: 'Delete a notice (super_admin, admin)',
      description: 'A soft delete: the notice leaves every board and answers 404 from then on, but stays in the database.',
      errors: [403, 404], responseExample: { message: 'Notice deleted' },
    },
    async ({ ctx, principal, params }) => {
      await deleteNotice(ctx, principal, params.id);
      return { message: 'Notice deleted' };
    },
  );
}
