import { z } from 'zod';
import { adminChangesInput, assertAdminFound, createAdmin, deleteAdmin, listAdmins, newAdminInput, updateAdmin } from '../../services/admins/admin-users.js';
import type { Routers } from '../routers.js';
import { idParam, timestamp } from '../../services/schemas.js';

const adminView = z.object({ id: z.number(), name: z.string(), email: z.string(), role: z.string(), school_id: z.string().nullable(), created_at: timestamp() });

export function registerAdminRoutes(r: Routers): void {
  const web = r.web;
  web.route(
    {
      method: 'get', path: '/admins', summary: "List the school's admin users (super_admin)",
      description: 'Every super_admin, admin and it_contact of the school, oldest first. Roles other than super_admin get 403.',
      response: z.array(adminView), errors: [403],
    },
    async ({ principal }) => ({ data: await listAdmins(principal) }),
  );
  web.route(
    {
      method: 'post', path: '/admins', status: 201, summary: 'Create an admin user (super_admin)',
      description: 'The e-mail is the sign-in name, unique across every school (409 if taken). `role` is admin, super_admin or it_contact; any other is 400 naming it.',
      body: newAdminInput,
      response: adminView, errors: [403, 409],
      example: { name: 'Ravi IT', email: 'it@greenwood.example', password: 'a long password', role: 'it_contact' },
      responseExample: { message: 'Admin user created' },
    },
    async ({ ctx, principal, body }) => ({ message: 'Admin user created', data: await createAdmin(ctx, principal, body) }),
  );
  web.route(
    {
      method: 'put', path: '/admins/:id', someField: true, params: idParam, summary: 'Change an admin user (super_admin)',
      found: ({ principal, params }) => assertAdminFound(principal, params.id),
      description: 'A new password ends every session of that admin; the last super_admin cannot be demoted.',
      body: adminChangesInput,
      response: adminView, errors: [403, 404, 409],
      example: { role: 'admin' },
      responseExample: { message: 'Admin user updated' },
    },
    async ({ ctx, principal, params, body }) => ({ message: 'Admin user updated', data: await updateAdmin(ctx, principal, params.id, body) }),
  );
  web.route(
    {
      method: 'delete', path: '/admins/:id', params: idParam, summary: 'Delete an admin user (super_admin)',
      description: 'Ends every session of that admin at once. The last super_admin of the school cannot be deleted (409).',
      errors: [403, 404, 409], responseExample: { message: 'Admin user deleted' },
    },
    async ({ ctx, principal, params }) => {
      await deleteAdmin(ctx, principal, params.id);
      return { message: 'Admin user deleted' };
    },
  );
}
