import { z } from 'zod';
import { features, levels } from '../../services/access/rbac.js';
import { rbacInput } from '../../services/staff/designations.js';
import {
  assertStaffFound, assignStudents, createStaff, getStaff, listStaff, newStaffInput, resetStaffPin, staffChangesInput, staffListInput, staffStatuses,
  studentIdsInput, toggleStaffArchive, unassignStudents, updateStaff,
} from '../../services/staff/staff.js';
import type { Routers } from '../routers.js';
import { idParam, pin, schoolIdField, timestamp } from '../../services/schemas.js';
import { registerDesignationRoutes } from './designations.routes.js';

const status = z.enum(staffStatuses);
const staffRow = z.object({ id: z.number(), name: z.string(), designation: z.string().nullable(), phone_no: z.string(), email: z.string().nullable(), status });
const staffDetail = staffRow.extend({
  school_id: z.string(),
  rbac: rbacInput,
  effective_rbac: z.record(z.enum(features), z.enum(levels)),
  permissions: z.array(z.object({
    feature: z.enum(features), level: z.enum(levels),
    from: z.enum(['own', 'designation']).nullable().describe('own: the staff member\'s own rbac; designation: the one named; null: neither names the feature'),
    designation: z.string().nullable(),
  })).describe('effective_rbac feature by feature, with where each level comes from'),
  addresses: z.array(z.object({ id: z.number(), address_type: z.string(), address: z.string(), city: z.string().nullable(), pincode: z.number().nullable() })),
  student_ids: z.array(z.number()),
  created_at: timestamp(),
  updated_at: timestamp(),
});
const assignment = z.object({ student_ids: z.array(z.number()).describe('Every student assigned to the staff member after the change') });

export function registerStaffRoutes(r: Routers): void {
  const web = r.web;
  web.route(
    {
      method: 'get', path: '/staff', summary: "List the school's staff (admin)",
      description: 'Ordered by name. `search` matches the name or the phone, without case. The total number of matches is in the X-Total-Count header.',
      query: staffListInput.extend({ school_id: schoolIdField() }),
      response: z.array(staffRow),
    },
    async ({ ctx, principal, query, res }) => {
      const { staff, pagination } = await listStaff(ctx, principal, query);
      res.setHeader('X-Total-Count', String(pagination.total));
      res.append('Access-Control-Expose-Headers', 'X-Total-Count');
      return { data: staff };
    },
  );
  web.route(
    {
      method: 'post', path: '/staff', status: 201, summary: 'Add a staff member (admin)',
      description: 'Phone and email are unique within the school (409); the same phone may work at another school. `designation` must name one of the school\'s designations (400 naming it otherwise), or be null.',
      body: newStaffInput.extend({ school_id: schoolIdField().optional() }), response: z.object({ id: z.number() }), errors: [409],
      example: {
        name: 'Anita Desai', designation: 'Class Teacher', phone_no: '9876500001', email: 'anita@greenwood.example', pin: '4321',
        rbac: { attendance: 'manage' }, addresses: [{ address_type: 'current', address: '4 Hill Rd', city: 'Pune', pincode: 411002 }],
      },
      responseExample: { message: 'Staff member created', data: { id: 7 } },
    },
    async ({ ctx, principal, body }) => ({ message: 'Staff member created', data: await createStaff(ctx, principal, body) }),
  );
  web.route(
    {
      method: 'get', path: '/staff/:id', params: idParam, summary: 'One staff member with their rbac, addresses and students (admin)',
      description: '`rbac` is the staff member\'s own overrides; `effective_rbac` is their designation\'s rbac overlaid with them. Another school\'s staff answers 404.',
      response: staffDetail, errors: [404],
    },
    async ({ ctx, principal, params }) => ({ data: await getStaff(ctx, principal, params.id) }),
  );
  web.route(
    {
      method: 'put', path: '/staff/:id', someField: true, params: idParam, summary: 'Change a staff member (admin)',
      description: 'Only the fields sent change. An unknown or another school\'s staff member answers 404 whatever the body. A phone or e-mail another staff member of the school has answers 409.',
      found: ({ principal, params }) => assertStaffFound(principal, params.id),
      body: staffChangesInput.extend({ school_id: schoolIdField().optional() }), response: staffDetail, errors: [404, 409],
      example: { designation: 'Subject Teacher', email: 'anita.desai@greenwood.example' },
      responseExample: { message: 'Staff member updated' },
    },
    async ({ ctx, principal, params, body }) => ({ message: 'Staff member updated', data: await updateStaff(ctx, principal, params.id, body) }),
  );
  web.route(
    {
      method: 'post', path: '/staff/:id/assign-students', status: 201, params: idParam, summary: 'Assign students to a staff member (admin)',
      found: ({ principal, params }) => assertStaffFound(principal, params.id),
      description: 'Every id must be a student of the school, else 404 and nothing changes; assigning twice is harmless.',
      body: studentIdsInput, response: assignment, errors: [404], example: { student_ids: [12, 15] },
      responseExample: { message: 'Students assigned', data: { student_ids: [3, 12, 15] } },
    },
    async ({ ctx, principal, params, body }) => ({ message: 'Students assigned', data: await assignStudents(ctx, principal, params.id, body.student_ids) }),
  );
  web.route(
    {
      method: 'post', path: '/staff/:id/unassign-students', status: 201, params: idParam, summary: 'Unassign students from a staff member (admin)',
      found: ({ principal, params }) => assertStaffFound(principal, params.id),
      description: 'Every id must be a student of the school, else 404 and nothing changes.',
      body: studentIdsInput, response: assignment, errors: [404], example: { student_ids: [12] },
      responseExample: { message: 'Students unassigned', data: { student_ids: [3, 15] } },
    },
    async ({ ctx, principal, params, body }) => ({ message: 'Students unassigned', data: await unassignStudents(ctx, principal, params.id, body.student_ids) }),
  );
  web.route(
    {
      method: 'post', path: '/staff/:id/reset-pin', status: 201, params: idParam, summary: "Set a staff member's PIN (admin)",
      found: ({ principal, params }) => assertStaffFound(principal, params.id),
      description: 'Ends every session of the staff member.', body: z.object({ pin: pin() }), errors: [404], example: { pin: '8642' },
      responseExample: { message: 'PIN reset; every session of this staff member has ended' },
    },
    async ({ ctx, principal, params, body }) => {
      await resetStaffPin(ctx, principal, params.id, body.pin);
      return { message: 'PIN reset; every session of this staff member has ended' };
    },
  );
  web.route(
    {
      method: 'post', path: '/staff/:id/archive', status: 201, params: idParam, summary: 'Archive or restore a staff member (admin)',
      description: 'Toggles: active -> archived ends every session at once (the next call with their token gets 403); archived -> active lets them log in again.',
      response: z.object({ status }), errors: [404],
      responseExample: { message: 'Staff member archived', data: { status: 'archived' } },
    },
    async ({ ctx, principal, params }) => {
      const result = await toggleStaffArchive(ctx, principal, params.id);
      return { message: result.status === 'archived' ? 'Staff member archived' : 'Staff member restored', data: result };
    },
  );
  registerDesignationRoutes(r);
}
