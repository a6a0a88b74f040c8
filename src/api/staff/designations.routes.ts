import { z } from 'zod';
import {
  assertDesignationFound, createDesignation, deleteDesignation, designationChangesInput, getDesignation, listDesignations, newDesignationInput, rbacInput, updateDesignation,
} from '../../services/staff/designations.js';
import type { Routers } from '../routers.js';
import { idParam, timestamp } from '../../services/schemas.js';

const designationView = z.object({ id: z.number(), name: z.string(), rbac: rbacInput, created_at: timestamp(), updated_at: timestamp() });

export function registerDesignationRoutes(r: Routers): void {
  const web = r.web;
  web.route(
    {
      method: 'get', path: '/designations', summary: "List the school's designations with their rbac (any admin)",
      description: 'Ordered by name. `rbac` maps each feature (activities, noticeboard, students, write_to, attendance, diary) to none, view, create or manage.',
      response: z.array(designationView),
    },
    async ({ principal }) => ({ data: await listDesignations(principal) }),
  );
  web.route(
    {
      method: 'get', path: '/designations/:id', params: idParam, summary: 'One designation (any admin)',
      description: 'Another school\'s designation answers 404.', response: designationView, errors: [404],
    },
    async ({ principal, params }) => ({ data: await getDesignation(principal, params.id) }),
  );
  web.route(
    {
      method: 'post', path: '/designations', status: 201, summary: 'Create a designation (super_admin)',
      description: 'The name is unique within the school, regardless of case.',
      body: newDesignationInput,
      response: designationView, errors: [409],
      example: { name: 'Sports Coach', rbac: { activities: 'create', attendance: 'view', students: 'view' } },
      responseExample: { message: 'Designation created' },
    },
    async ({ ctx, principal, body }) => ({ message: 'Designation created', data: await createDesignation(ctx, principal, body) }),
  );
  web.route(
    {
      method: 'put', path: '/designations/:id', someField: true, params: idParam, summary: 'Rename a designation or change its rbac (super_admin)',
      found: ({ principal, params }) => assertDesignationFound(principal, params.id),
      description: 'A rename carries along every staff member who holds the designation.',
      body: designationChangesInput,
      response: designationView, errors: [404, 409],
      example: { rbac: { activities: 'manage', diary: 'create' } },
      responseExample: { message: 'Designation updated' },
    },
    async ({ ctx, principal, params, body }) => ({ message: 'Designation updated', data: await updateDesignation(ctx, principal, params.id, body) }),
  );
  web.route(
    {
      method: 'delete', path: '/designations/:id', params: idParam, summary: 'Delete a designation (super_admin)',
      description: 'Refused with 409 while any staff member holds it.', errors: [404, 409],
      responseExample: { message: 'Designation deleted' },
    },
    async ({ ctx, principal, params }) => {
      await deleteDesignation(ctx, principal, params.id);
      return { message: 'Designation deleted' };
    },
  );
}
