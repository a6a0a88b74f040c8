import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { AdminUser } from '../../models/index.js';
import { createAdmin, deleteAdmin, grantableRoles, schoolAdminRoles, updateAdmin } from '../../services/admins/admin-users.js';
import { allows, roleAccess } from '../access.js';
import { run } from '../actions.js';
import { principalFor, type ConsoleAdmin } from '../auth.js';
import { adminRoleLabels } from '../labels/codes.js';
import { choices } from '../labels/words.js';
import { defineResource } from './define.js';
import { menu } from '../labels/menu.js';
import { readOnly } from './properties.js';

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
        // Shown and filtered by label; the form offers what the signed-in user may grant (the roleChoices action).
        role: { availableValues: choices(schoolAdminRoles, adminRoleLabels), components: { edit: 'PrefixSelect' }, custom: { choicesAction: 'roleChoices' }, isRequired: true },
        password: { type: 'password', isVisible: { list: false, filter: false, show: false, edit: true }, description: 'New password (8 to 128 characters); leave empty to keep the current one' },
        created_at: readOnly,
      },
    },
    services: {
      fields: { name: 'text', email: 'text', role: 'text', password: 'text' },
      create: (c, p, input) => createAdmin(c, p, input as never),
      update: (c, p, i, changes) => updateAdmin(c, p, i, changes as never),
      remove: (c, p, i) => deleteAdmin(c, p, i),
    },
    extraActions: {
      roleChoices: {
        actionType: 'resource', component: false, isVisible: false,
        isAccessible: ({ currentAdmin }) => allows(roleAccess.adminUsers, currentAdmin as ConsoleAdmin, 'write'),
        handler: run(async (_request, _context, admin) => ({
          choices: grantableRoles(principalFor(admin)).map((r) => ({ value: r.role, label: r.label })),
        })),
      },
    },
  });
}
