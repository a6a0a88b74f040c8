import { z } from 'zod';
import { studentStatuses } from '../../models/student.js';
import { assertParentFound, getParent, parentChangesInput, resetParentPinById, updateParent } from '../../services/parents/parents.js';
import { idParam, pin, schoolIdField } from '../../services/schemas.js';
import type { Routers } from '../routers.js';

const parentView = z.object({
  id: z.number(), father_name: z.string().nullable(), mother_name: z.string().nullable(), phone_no: z.string(), email: z.string().nullable(),
  has_pin: z.boolean().describe('Whether the parent has set a PIN (or had one set) and can sign in'),
  children: z.array(z.object({ id: z.number(), student_full_name: z.string(), roll_no: z.string(), grade: z.string(), status: z.enum(studentStatuses) }))
    .describe('Every student linked to the parent, archived ones too, by id'),
});
const example = {
  id: 7, father_name: 'Ravi Rao', mother_name: 'Meena Rao', phone_no: '9876543210', email: 'ravi@example.com', has_pin: true,
  children: [{ id: 12, student_full_name: 'Asha Rao', roll_no: '42', grade: '5', status: 'active' }],
};

/** A parent's page for the school office (super_admin, admin): their details and children, their edit and a PIN reset. */
export function registerParentRoutes(r: Routers): void {
  const web = r.web;
  web.route(
    {
      method: 'get', path: '/parents/:id', params: idParam, summary: 'One parent with their children (super_admin, admin)',
      description: 'Another school\'s parent answers 404.', response: parentView, errors: [404], responseExample: { data: example },
    },
    async ({ ctx, principal, params }) => ({ data: await getParent(ctx, principal, params.id) }),
  );
  web.route(
    {
      method: 'put', path: '/parents/:id', params: idParam, summary: 'Change a parent\'s names, e-mail or phone (super_admin, admin)',
      description:
        'Only the fields sent change. A phone another parent of the school has answers 409 naming `phone_no`; the children\'s `phone_no` follow a new one. ' +
        'The parent\'s PIN and sessions stay. An unknown or another school\'s parent answers 404 whatever the body.',
      found: ({ principal, params }) => assertParentFound(principal, params.id),
      body: parentChangesInput.extend({ school_id: schoolIdField().optional() }), response: parentView, errors: [404, 409],
      example: { phone_no: '9876543299', email: 'ravi.rao@example.com' }, responseExample: { message: 'Parent updated', data: { ...example, phone_no: '9876543299' } },
    },
    async ({ ctx, principal, params, body }) => {
      const { school_id: _school, ...changes } = body;
      return { message: 'Parent updated', data: await updateParent(ctx, principal, params.id, changes) };
    },
  );
  web.route(
    {
      method: 'post', path: '/parents/:id/reset-pin', status: 201, params: idParam, summary: "Set a parent's PIN (super_admin, admin)",
      description: 'Ends every session of the parent and lifts a login lock-out on their phone; recorded as `pin.reset`. An unknown or another school\'s parent answers 404 whatever the body.',
      found: ({ principal, params }) => assertParentFound(principal, params.id),
      body: z.object({ school_id: schoolIdField().optional(), pin: pin() }), response: z.object({ parent_id: z.number() }), errors: [404],
      example: { pin: '482913' }, responseExample: { message: 'PIN reset; every session of this parent has ended', data: { parent_id: 7 } },
    },
    async ({ ctx, principal, params, body }) => ({
      message: 'PIN reset; every session of this parent has ended',
      data: await resetParentPinById(ctx, principal, params.id, body.pin),
    }),
  );
}
