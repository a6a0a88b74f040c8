import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { Group } from '../../models/index.js';
import { createGroup, deleteGroup, updateGroup } from '../../services/groups/groups.js';
import { roleAccess } from '../access.js';
import { defineResource } from './define.js';
import { menu } from './menu.js';
import { deletedFlag, textarea } from './properties.js';

export function groupsResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: Group, scope: { schoolColumn: 'school_id', softDelete: 'deleted_key' }, access: roleAccess.school,
    options: {
      navigation: menu.people,
      sort: { sortBy: 'name', direction: 'asc' },
      listProperties: ['id', 'name', 'description', 'created_at'],
      filterProperties: ['name', 'deleted_key', 'created_at'],
      showProperties: ['school_id', 'id', 'name', 'description', 'created_at', 'updated_at'],
      editProperties: ['name', 'description'],
      properties: { name: { isTitle: true }, description: textarea, deleted_key: deletedFlag },
    },
    services: {
      noun: 'Group',
      fields: { name: 'text', description: 'nullableText' },
      create: (c, p, input) => createGroup(c, p, input as never),
      update: (c, p, i, changes) => updateGroup(c, p, i, changes as never),
      remove: (c, p, i) => deleteGroup(c, p, i),
    },
  });
}
