import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { Designation } from '../../models/index.js';
import { createDesignation, deleteDesignation, updateDesignation } from '../../services/staff/designations.js';
import { roleAccess } from '../access.js';
import { defineResource } from './define.js';
import { menu } from '../labels/menu.js';
import { rbacProperties } from './rbac-fields.js';

export function designationsResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: Designation, scope: { schoolColumn: 'school_id' }, access: roleAccess.designations,
    options: {
      navigation: menu.staff,
      sort: { sortBy: 'name', direction: 'asc' },
      listProperties: ['name', 'created_at'],
      filterProperties: ['name'],
      showProperties: ['school_id', 'id', 'name', 'rbac', 'created_at', 'updated_at'],
      editProperties: ['school_id', 'name', 'rbac'],
      properties: { name: { isTitle: true }, ...rbacProperties('What staff with this designation may do, feature by feature', 'Not given') },
    },
    services: {
      fields: { name: 'text', rbac: 'object' },
      create: (c, p, input) => createDesignation(c, p, input as never),
      update: (c, p, i, changes) => updateDesignation(c, p, i, changes as never),
      remove: (c, p, i) => deleteDesignation(c, p, i),
    },
  });
}
