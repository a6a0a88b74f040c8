import type { Request } from 'express';
import { z } from 'zod';
import { assertFormVisible, assertResponseFound, responseChangesInput, responseInput, submitResponse, updateResponse, type RequestMeta } from '../../services/forms/responses.js';
import { closeForm, formResults, formResultsCsv } from '../../services/forms/results.js';
import { id, timestamp } from '../../services/schemas.js';
import type { Routers } from '../routers.js';
import { answersView, responseView, staffFormView } from './form-views.js';

const formParam = z.object({ form_id: id() });
const responseParam = z.object({ form_id: id(), id: id() });

// Behind a trusted proxy the address is what X-Forwarded-For says, of any length; the column holds 64.
const meta = (req: Request): RequestMeta => ({ ip: req.ip?.slice(0, 64) ?? null, userAgent: req.get('user-agent')?.slice(0, 512) ?? null });

const student = z.object({ id: z.number(), student_full_name: z.string(), grade: z.string() });
const resultsView = z.object({
  form: staffFormView.extend({ entity_type: z.enum(['activity', 'noticeboard']), entity_id: z.number() }),
  summary: z.record(z.string(), z.record(z.string(), z.number())).describe('Per question id: each option\'s count (choice), {agree, decline} (consent), {answered} (text, number)'),
  responses: z.array(z.object({
    id: z.number(),
    student: student.nullable().describe('Null on a per-family form'),
    parent: z.object({ id: z.number(), father_name: z.string().nullable() }),
    answers: answersView,
    signature: z.string().nullable(),
    signed_at: timestamp().nullable(),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    submitted_at: timestamp(),
    updated_at: timestamp(),
  })).describe('Oldest first'),
  missing: z.union([
    z.array(z.object({ student_id: z.number(), student_full_name: z.string(), grade: z.string(), parent_id: z.number() })),
    z.array(z.object({ parent_id: z.number(), father_name: z.string().nullable(), students: z.array(student) })),
  ]).describe('Per student: the audience\'s students without a response; per family: the families without one. By name, then id'),
});

const order =
  'Checked in this order, the first failure answering: the form and its item (404: another school\'s, or an item the parent cannot see), `student_id` ' +
  '(400, or 403 for a child not theirs), the form being open (409), the answers and the signature (400 naming `answers.<question id>` or `signature`), ';
const capacityNote = 'A full option is a 409 with `details [{field: "answers.<question id>", option, message}]`; nothing of the request is saved.';

/** Forms on activities and notices: families respond; the item's author, its managers and the school's admins read the results and close it. */
export function registerFormRoutes(r: Routers): void {
  r.parent.route(
    {
      method: 'post', path: '/forms/:form_id/responses', status: 201, params: formParam, body: responseInput, bodyJudgedByService: true,
      found: ({ ctx, principal, params }) => assertFormVisible(ctx, principal, params.form_id),
      summary: 'Respond to a form (a permission slip, sign-up or RSVP)',
      description: `${order}an earlier response for the same child (or family) (409), the capacity of each chosen option (409). ${capacityNote} ` +
        'An "agree" to a consent needs the signer\'s typed name in `signature`. The request\'s ip and user agent are kept with the response.',
      response: responseView, errors: [404, 409],
      example: { student_id: 12, answers: { consent: 'agree', lunch: 'veg', helpers: ['bus'] }, signature: 'Ravi Rao' },
      responseExample: { message: 'Response saved' },
    },
    async ({ ctx, principal, params, body, req }) => ({ message: 'Response saved', data: await submitResponse(ctx, principal, params.form_id, body, meta(req)) }),
  );
  r.parent.route(
    {
      method: 'put', path: '/forms/:form_id/responses/:id', params: responseParam, body: responseChangesInput, bodyJudgedByService: true,
      found: ({ ctx, principal, params }) => assertResponseFound(ctx, principal, params.form_id, params.id),
      summary: 'Change one of your responses',
      description: 'Replaces the answers and the signature (the child stays). Checked in this order: another family\'s response or an unseen form (404), ' +
        `the form closed (409), a form that takes no changes (409), the answers (400), capacity (409). ${capacityNote} A new signature moves \`signed_at\`.`,
      response: responseView, errors: [404, 409],
      example: { answers: { consent: 'agree', lunch: 'nonveg' }, signature: 'Ravi Rao' },
      responseExample: { message: 'Response updated' },
    },
    async ({ ctx, principal, params, body, req }) => ({ message: 'Response updated', data: await updateResponse(ctx, principal, params.form_id, params.id, body, meta(req)) }),
  );

  for (const [router, who] of [[r.teachers, "the item's author; activities.manage for an activity's form, noticeboard.manage for a notice's"], [r.web, 'super_admin, admin']] as const) {
    router.route(
      {
        method: 'get', path: '/forms/:form_id/results', params: formParam, summary: `A form's results (${who})`,
        description: 'The form, a summary per question, every response (oldest first, with its signature, ip and user agent) and who is missing. ' +
          'Another school\'s form, or one on a deleted item, answers 404.',
        response: resultsView, errors: [404],
      },
      async ({ ctx, principal, params }) => ({ data: await formResults(ctx, principal, params.form_id) }),
    );
    router.route(
      {
        method: 'get', path: '/forms/:form_id/results.csv', params: formParam, summary: `A form's responses as a CSV file (${who})`,
        description: 'RFC 4180, UTF-8 with a byte-order mark: a header `student,grade,parent,submitted_at`, a column per question headed by its label, then ' +
          '`signature`; one row per response, oldest first. Choices show their labels (several joined by "; "). A text cell beginning with =, +, - or @ ' +
          'is prefixed with \' so that a spreadsheet does not run it. Errors answer the JSON error body.',
        produces: {
          type: 'text/csv', description: 'The responses as CSV', headers: { 'Content-Disposition': 'attachment; filename="form-<id>-results.csv"' },
          example: 'student,grade,parent,submitted_at,I allow my child to go on the trip,Lunch,signature\r\nAsha Rao,5,Ravi Rao,2026-11-22T09:30:00.000Z,agree,Vegetarian,Ravi Rao\r\n',
        },
        errors: [404],
      },
      async ({ ctx, principal, params, res }) => {
        const { csv, filename } = await formResultsCsv(ctx, principal, params.form_id);
        res.setHeader('Content-Type', 'text/csv; charset=utf-8');
        res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
        res.status(200).send(csv);
      },
    );
    router.route(
      {
        method: 'post', path: '/forms/:form_id/close', params: formParam, summary: `Close a form for good (${who})`,
        description: 'No response can be added or changed afterwards. Closing a closed form is harmless.',
        response: staffFormView, errors: [404], responseExample: { message: 'Form closed' },
      },
      async ({ ctx, principal, params }) => ({ message: 'Form closed', data: await closeForm(ctx, principal, params.form_id) }),
    );
  }
}
