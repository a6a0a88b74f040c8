import { z } from 'zod';
import { studentStatuses } from '../../models/student.js';
import {
  admissionInfo, admissionInfoInput, admissionInput, admissionUpdateInput, setPinInput, setPinWithToken, submitAdmission, updateAdmissionSection,
} from '../../services/admission/admission.js';
import type { Routers } from '../routers.js';
import { timestamp } from '../../services/schemas.js';
import { addressView, pinSetupView } from './student-schemas.js';

const applicationView = z.object({
  student_id: z.number(),
  parent_id: z.number().nullable(),
  school_id: z.string(),
  status: z.enum(studentStatuses),
  roll_no: z.string(),
  submitted_at: timestamp(),
  student: z.object({
    student_full_name: z.string(), gender: z.string().nullable(), grade: z.string(), date_of_birth: z.string().nullable(),
    blood_group: z.string().nullable(), roll_no: z.string(),
  }),
  parent: z.object({ father_name: z.string().nullable(), mother_name: z.string().nullable(), phone_no: z.string(), email: z.string().nullable() }).nullable(),
  addresses: z.array(addressView),
  pin_setup: pinSetupView.optional(),
});

const example = {
  school_id: 'greenwood',
  student: { student_full_name: 'Asha Rao', gender: 'female', grade: '5', date_of_birth: '2016-04-12', blood_group: 'B+', roll_no: null },
  parent: { father_name: 'Ravi Rao', mother_name: 'Meena Rao', phone_no: '9876543210', email: 'ravi@example.com' },
  addresses: [{ address_type: 'current', address: '12 Lake Rd', city: 'Pune', pincode: 411001 }],
};

export function registerAdmissionRoutes(r: Routers): void {
  const web = r.web;

  web.publicRoute(
    {
      method: 'post', path: '/admission-form', auth: false, status: 201, summary: 'Submit the admission form',
      description:
        'Saved all or nothing: the student (`registered`), the parent (found by phone in the school, or created), the addresses and ' +
        'the application. `admission_token` opens the application for `student-info` and `update-student`. A new parent gets ' +
        '`pin_setup`, a one-time link (7 days) to set the PIN, also sent by SMS through the outbox; an existing parent keeps its PIN. ' +
        'Without `roll_no` the next free number of the school is given.',
      body: admissionInput,
      response: z.object({
        student_id: z.number(), parent_id: z.number(), roll_no: z.string(), status: z.literal('registered'), admission_token: z.string(),
        pin_setup: pinSetupView.optional().describe('Only for a parent created by this admission'),
      }),
      errors: [403, 404, 409],
      example,
    },
    async ({ ctx, body }) => ({ message: 'Admission form submitted', data: await submitAdmission(ctx, body) }),
  );

  web.publicRoute(
    {
      method: 'get', path: '/student-info', auth: false, summary: 'The application as it stands, with its status',
      description: 'A wrong token, or one of another school: 404.',
      query: admissionInfoInput,
      response: applicationView.omit({ pin_setup: true }), errors: [404],
    },
    async ({ ctx, query }) => ({ data: await admissionInfo(ctx, query.school_id, query.admission_token) }),
  );

  web.publicRoute(
    {
      method: 'patch', path: '/update-student', auth: false, summary: 'Change one section of an application',
      description:
        'Only while the student is `registered` (409 after). `section` is `student`, `parent` or `addresses`; `data` holds that ' +
        'section\'s fields (for `addresses`, the whole new list, as an array or as `{addresses: [...]}`). A new parent phone relinks ' +
        'the student (a new parent gets `pin_setup`); the parent\'s names and e-mail can be changed here only while that parent has ' +
        'no other child (409 otherwise).',
      body: admissionUpdateInput,
      response: applicationView, errors: [404, 409],
      example: { school_id: 'greenwood', admission_token: 'greenwood.Xf3...', section: 'addresses', data: example.addresses },
    },
    async ({ ctx, body }) => ({ message: 'Application updated', data: await updateAdmissionSection(ctx, body) }),
  );

  r.parent.publicRoute(
    {
      method: 'post', path: '/set-pin', auth: false, summary: "Set a new parent's PIN with the admission's set-up link",
      description: 'The token of the link works once, for 7 days: a used or unknown token answers 404, an expired one 400.',
      body: setPinInput,
      response: z.object({ parent_id: z.number(), school_id: z.string() }),
      errors: [404],
      example: { token: 'greenwood.Xf3...', pin: '482913' },
    },
    async ({ ctx, body }) => ({ message: 'PIN set; you can now sign in', data: await setPinWithToken(ctx, body.token, body.pin) }),
  );
}
