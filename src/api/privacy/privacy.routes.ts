import { z } from 'zod';
import { idParam, timestamp } from '../../services/schemas.js';
import { assertErasable, eraseInput, eraseStudentFor } from '../../services/privacy/erasure.js';
import { exportMyData, exportStudent } from '../../services/privacy/export.js';
import type { Routers } from '../routers.js';

const record = z.record(z.string(), z.unknown());
const dataExport = z.object({
  exported_at: timestamp(),
  school: z.object({ id: z.string(), name: z.string() }),
  students: z.array(record),
  parents: z.array(z.object({ email: z.string().nullable(), email_verified: z.boolean() }).catchall(z.unknown())).describe('Each with its `email` and whether it is verified'),
  preferences: z
    .array(z.object({
      parent_id: z.number(),
      categories: z.record(z.string(), z.boolean()),
      quiet_hours: z.object({ start: z.string(), end: z.string() }).nullable(),
      channels: z.object({ push: z.boolean(), email: z.boolean(), sms: z.boolean() }),
    }))
    .describe("Each parent's notification preferences, as the parent app shows them"),
  addresses: z.array(record), admissions: z.array(record),
  write_to: z.array(record).describe('Each thread with its `replies`'),
  comments: z.array(record), reactions: z.array(record), reads: z.array(record), attendance: z.array(record), diary: z.array(record),
  attachments: z
    .array(z.object({
      id: z.number(), name: z.string(), content_type: z.string(), size: z.number(), width: z.number().nullable(), height: z.number().nullable(),
      created_at: z.string(), entity_type: z.string().nullable(), entity_id: z.number().nullable(),
    }))
    .describe("The files of their requests and replies and their uploads not yet attached (entity_* null): what each is, no URL and no content"),
  groups: z.array(record).describe('Group memberships'), notifications: z.array(record),
  form_responses: z.array(record).describe("The family's form responses: answers, signature, signed_at, ip and user agent"),
  sessions: z.array(record).describe('Without tokens'), audit_events: z.array(record),
});
const exportDescription =
  'One JSON document with every record the school holds about these people: no secret (PIN and password hashes, tokens, device addresses ' +
  'and the text of SMS set-up links are left out). An erased student still answers, with ids and counts only.';

export function registerPrivacyRoutes(r: Routers): void {
  r.web.route(
    {
      method: 'get', path: '/students/:id/export', params: idParam, summary: "Everything held about a student and their parent (super_admin)",
      description: `An access request's answer for one student and the parent linked to them. ${exportDescription}`, response: dataExport, errors: [404],
    },
    async ({ principal, params }) => ({ data: await exportStudent(principal, params.id) }),
  );
  r.web.route(
    {
      method: 'post', path: '/students/:id/erase', params: idParam, body: eraseInput,
      found: ({ principal, params }) => assertErasable(principal, params.id),
      summary: 'Erase an archived student, and their parent when no other child links them (super_admin)',
      description:
        "`confirm` must be the student's roll number (400 otherwise); only an archived student can be erased (409). Personal fields are replaced, " +
        "addresses deleted, the parent's comments blanked and every other trace (the admission's form, write-to threads, notifications, the audit " +
        "trail's changes) blanked; ids, counts and audit events stay. The attachments of the student's write-to requests and of their replies are " +
        'deleted (their URLs then 404). The parent goes too when no other child of the school links them: name and phone replaced, PIN removed, ' +
        'every session ended, every upload of theirs deleted.',
      response: z.object({
        erased: z.object({ students: z.number(), parents: z.number(), comments: z.number(), addresses: z.number(), attachments: z.number() }),
      }),
      errors: [404, 409], example: { confirm: '2024-0412' },
      responseExample: { message: 'Student erased', data: { erased: { students: 1, parents: 1, comments: 3, addresses: 2, attachments: 1 } } },
    },
    async ({ ctx, principal, params, body }) => ({ message: 'Student erased', data: await eraseStudentFor(ctx, principal, params.id, body) }),
  );
  r.parent.route(
    {
      method: 'get', path: '/my-data', summary: 'Everything the school holds about you and your children',
      description: `The parent's own family: the parent and every child linked to them. ${exportDescription}`, response: dataExport,
    },
    async ({ principal }) => ({ data: await exportMyData(principal) }),
  );
}
