import type { ResourceWithOptions } from 'adminjs';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { AdminUser } from '../../models/index.js';
import { createAdmin, deleteAdmin, schoolAdminRoles, updateAdmin } from '../../services/admins/admin-users.js';
import { email, name, password } from '../../services/schemas.js';
import { parseInput } from '../../services/validation.js';
import { roleAccess } from '../access.js';
import { defineResource } from './define.js';
import { menu } from './menu.js';
import { adminRoleLabels } from '../labels/codes.js';
import { choices } from '../labels/words.js';
import { readOnly } from './properties.js';

const newAdminInput = z.object({ name: name(), email: email(), password: password(), role: z.enum(schoolAdminRoles) });

/** The roles a school's admin users may be given, in the order an office thinks of them: Admin, Super admin, IT contact. */
const officeOrder = ['admin', 'super_admin', 'it_contact'];
const rolesOffered = [...schoolAdminRoles].sort((a, b) => officeOrder.indexOf(a) - officeOrder.indexOf(b));

export function adminUsersResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: AdminUser, scope: { schoolColumn: 'school_id', secret: ['password_hash'], quickSearch: ['name', 'email'] }, access: roleAccess.adminUsers,
    options: {
      navigation: menu.setup,
      sort: { sortBy: 'name', direction: 'asc' },
      listProperties: ['name', 'email', 'role', 'created_at'],
      filterProperties: ['name', 'email', 'role'],
      showProperties: ['school_id', 'id', 'name', 'email', 'role', 'created_at', 'updated_at'],
      editProperties: ['school_id', 'name', 'email', 'role', 'password'],
      properties: {
        name: { isTitle: true },
        role: { availableValues: choices(rolesOffered, adminRoleLabels), components: { edit: 'PrefixSelect' }, isRequired: true },
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
