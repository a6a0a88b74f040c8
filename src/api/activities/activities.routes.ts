import { z } from 'zod';
import {
  activityChangesSchema, activityStatuses, activityTypes, assertActivityFound, createActivity, deleteActivity, listTeacherActivities, listWebActivities,
  newActivitySchema, parentActivity, parentFeed, parentFeedQuerySchema, teacherActivityQuerySchema, updateActivity, webActivityQuerySchema,
} from '../../services/activities/activities.js';
import type { Routers } from '../routers.js';
import { attachmentsView, audienceView, idParam, schoolIdField, timestamp } from '../../services/schemas.js';
import { formExample, parentFormView, staffFormView } from '../forms/form-views.js';

export const activityView = z.object({
  id: z.number(),
  school_id: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  activity_type: z.enum(activityTypes),
  status: z.enum(activityStatuses),
  staff_id: z.number(),
  author_id: z.number().describe('The author, the same as staff_id'),
  author_name: z.string().nullable(),
  student_id: z.number().nullable().describe('The one student an audience of exactly one student names; else null'),
  audience: audienceView,
  publish_at: timestamp().nullable().describe('A scheduled activity publishes itself then'),
  published_at: timestamp().nullable().describe('When it was first published (and pushed)'),
  created_at: timestamp(),
  updated_at: timestamp(),
  starts_at: timestamp().nullable().describe('An event\'s start (an all-day event: the start of its first day in the school\'s time zone)'),
  ends_at: timestamp().nullable(),
  all_day: z.boolean(),
  location: z.string().nullable(),
  form: staffFormView.nullable().describe('Its permission slip, sign-up or RSVP; null without one'),
  attachments: attachmentsView,
});
/** An activity as the parent is shown it: with their read and their own responses to its form. */
export const parentActivityView = activityView.extend({ read_at: timestamp().nullable(), form: parentFormView.nullable() });

export function registerActivityRoutes(r: Routers): void {
  r.parent.route(
    {
      method: 'get', path: '/activities', query: parentFeedQuerySchema,
      summary: "The parent's activity feed, newest first",
      description:
        'Published activities of the school for the whole school or whose audience holds one of the parent\'s children (not archived): named, ' +
        'in one of its grades or in one of its groups. Each item carries `read_at` (null while unread); of an audience\'s named students a parent ' +
        'sees only their own children. `student_id` narrows the feed to that child (and the school-wide activities); another family\'s child ' +
        'answers 403. `limit` defaults to 20, at most 100.',
      response: z.array(parentActivityView), errors: [403],
    },
    async ({ ctx, principal, query }) => ({ data: await parentFeed(ctx, principal, query) }),
  );
  r.parent.route(
    {
      method: 'get', path: '/activities/:id', params: idParam,
      summary: 'One activity of the parent\'s feed (what a push opens)',
      description: 'The activity as the feed shows it, with `read_at`. One the feed would not show this parent (another school\'s, outside every child\'s audience, a draft, scheduled, cancelled or deleted) answers 404.',
      response: parentActivityView, errors: [404],
    },
    async ({ ctx, principal, params }) => ({ data: await parentActivity(ctx, principal, params.id) }),
  );

  r.teachers.route(
    {
      method: 'get', path: '/activities', query: teacherActivityQuerySchema.extend({ school_id: schoolIdField() }),
      summary: "The school's published and cancelled activities and the caller's drafts (activities.view)",
      description: 'Newest first; `author_id` names each author. `limit` defaults to 20, at most 100.',
      response: z.array(activityView), errors: [403],
    },
    async ({ ctx, principal, query }) => ({ data: await listTeacherActivities(ctx, principal, query) }),
  );
  r.teachers.route(
    {
      method: 'post', path: '/activities', status: 201, body: newActivitySchema.extend({ school_id: schoolIdField() }),
      summary: 'Post an activity (activities.create)',
      description:
        '`status` defaults to published, `activity_type` to announcement. `staff_id`, when sent, must be the caller; a `student_id` must be ' +
        'a student assigned to the caller (403 otherwise); null or absent means school-wide. An event takes `starts_at`, `ends_at`, `all_day` ' +
        'and `location` (400 naming each one sent for an announcement). A `form` (a permission slip, sign-up or RSVP) is checked whole: ' +
        'an invalid one is a 400 naming each bad path (`form.questions.0.type`), and nothing is created.',
      response: activityView, errors: [403],
      example: {
        school_id: 'greenwood', title: 'Science museum trip', description: 'Grade 5 visits the science museum', activity_type: 'event', student_id: null, status: 'published',
        starts_at: '2026-12-05T09:00:00+05:30', ends_at: '2026-12-05T15:30:00+05:30', location: 'City Science Museum', form: formExample,
      },
      responseExample: { message: 'Activity created' },
    },
    async ({ ctx, principal, body }) => {
      const activity = await createActivity(ctx, principal, body);
      return { message: 'Activity created', data: activity };
    },
  );
  r.teachers.route(
    {
      method: 'put', path: '/activities/:id', someField: true, params: idParam, body: activityChangesSchema.extend({ school_id: schoolIdField().optional() }),
      found: ({ principal, params }) => assertActivityFound(principal, params.id),
      summary: 'Change an activity, its status included (own: activities.create; anyone\'s: activities.manage)',
      description:
        'Any of draft, published and cancelled may follow any other. A deleted activity or another school\'s answers 404. `form` is the whole ' +
        'definition again (questions and options matched by id), or null to remove a form without responses. Once it has responses, removing a ' +
        'question or an option, changing a question\'s type or `multiple`, changing `per_student` or setting a capacity below what is taken is 409 ' +
        'naming the path, and nothing of the update is saved. Making an event an announcement clears its event fields.',
      response: activityView, errors: [404, 409],
      example: { status: 'cancelled' },
      responseExample: { message: 'Activity updated' },
    },
    async ({ ctx, principal, params, body }) => ({ message: 'Activity updated', data: await updateActivity(ctx, principal, params.id, body) }),
  );
  r.teachers.route(
    {
      method: 'delete', path: '/activities/:id', params: idParam,
      summary: 'Delete an activity (own: activities.create; anyone\'s: activities.manage)',
      description: 'A soft delete: the activity leaves every feed and answers 404 from then on, but stays in the database.',
      errors: [404], responseExample: { message: 'Activity deleted' },
    },
    async ({ ctx, principal, params }) => {
      await deleteActivity(ctx, principal, params.id);
      return { message: 'Activity deleted' };
    },
  );

  r.web.route(
    {
      method: 'get', path: '/activities', query: webActivityQuerySchema.extend({ school_id: schoolIdField() }),
      summary: "Every activity of the school, drafts included, newest first (super_admin, admin)",
      description: 'Deleted activities are left out. `page` 1 and `limit` 10 unless given (at most 100); `pagination` has the total and the page count.',
      response: z.object({
        records: z.array(activityView),
        pagination: z.object({ total: z.number(), page: z.number(), limit: z.number(), pages: z.number() }),
      }),
      errors: [403],
    },
    async ({ ctx, principal, query }) => ({ data: await listWebActivities(ctx, principal, query) }),
  );
}
