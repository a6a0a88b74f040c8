import type { ResourceWithOptions } from 'adminjs';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { AdminUser } from '../../models/index.js';
import { adminRoles } from '../../models/admin-user.js';
import { createAdmin, deleteAdmin, schoolAdminRoles, updateAdmin } from '../../services/admins/admin-users.js';
import { email, name, password } from '../../services/schemas.js';
import { parseInput } from '../../services/validation.js';
import { roleAccess } from '../access.js';
import { defineResource } from './define.js';
import { menu } from './menu.js';
import { choices, readOnly } from './properties.js';

const newAdminInput = z.object({ name: name(), email: email(), password: password(), role: z.enum(schoolAdminRoles) });

export function adminUsersResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: AdminUser, scope: { schoolColumn: 'school_id', secret: ['password_hash'] }, access: roleAccess.adminUsers,
    options: {
      navigation: menu.setup,
      sort: { sortBy: 'name', direction: 'asc' },
      listProperties: ['id', 'name', 'email', 'role', 'created_at'],
      filterProperties: ['name', 'email', 'role'],
      showProperties: ['school_id', 'id', 'name', 'email', 'role', 'created_at', 'updated_at'],
      editProperties: ['school_id', 'name', 'email', 'role', 'password'],
      properties: {
        name: { isTitle: true },
        role: { availableValues: choices(adminRoles) },
        password: { type: 'password', isVisible: { list: false, filter: false, show: false, edit: true }, description: 'New password (8 to 128 characters); leave empty to keep the current one' },
        created_at: readOnly,
      },
    },
    services: {
      noun: 'Admin user',
      fields: { name: 'text', email: 'text', role: 'text', password: 'text' },
      create: (c, p, input) => createAdmin(c, p, parseInput(newAdminInput, input)),
      update: (c, p, i, changes) => updateAdmin(c, p, i, parseInput(newAdminInput.partial(), changes)),
      remove: (c, p, i) => deleteAdmin(c, p, i),
    },
  });
}
