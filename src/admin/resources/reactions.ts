import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { Reaction } from '../../models/index.js';
import { entityTypes } from '../../models/comment.js';
import { reactionTypes } from '../../models/reaction.js';
import { roleAccess } from '../access.js';
import { defineResource } from './define.js';
import { menu } from './menu.js';
import { choices, readOnly, ref } from './properties.js';

export function reactionsResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: Reaction, scope: { schoolColumn: 'school_id' }, access: roleAccess.readOnly,
    options: {
      navigation: menu.communication,
      sort: { sortBy: 'created_at', direction: 'desc' },
      listProperties: ['id', 'entity_type', 'entity_id', 'reaction_type', 'parent_id', 'created_at'],
      filterProperties: ['entity_type', 'entity_id', 'reaction_type', 'parent_id'],
      showProperties: ['school_id', 'id', 'entity_type', 'entity_id', 'reaction_type', 'parent_id', 'created_at'],
      properties: {
        entity_type: { availableValues: choices(entityTypes) },
        reaction_type: { availableValues: choices(reactionTypes) },
        parent_id: ref('parents'),
        created_at: readOnly,
      },
    },
    services: { noun: 'Reaction' },
  });
}
