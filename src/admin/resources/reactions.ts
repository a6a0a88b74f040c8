import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { Reaction } from '../../models/index.js';
import { entityTypes } from '../../models/comment.js';
import { reactionTypes } from '../../models/reaction.js';
import { roleAccess } from '../access.js';
import { defineResource } from './define.js';
import { menu } from '../labels/menu.js';
import { entityTypeLabels, reactionTypeLabels } from '../labels/codes.js';
import { linkedNames } from './linked-names.js';
import { coded, named, readOnly, ref } from './properties.js';

export function reactionsResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: Reaction, scope: { schoolColumn: 'school_id', enrich: [linkedNames('item', (r) => ({ kind: String(r.entity_type), id: r.entity_id }))] }, access: roleAccess.readOnly,
    options: {
      navigation: menu.communication,
      sort: { sortBy: 'created_at', direction: 'desc' },
      listProperties: ['reaction_type', 'item', 'entity_type', 'parent_id', 'created_at'],
      filterProperties: ['entity_type', 'entity_id', 'reaction_type', 'parent_id'],
      showProperties: ['school_id', 'id', 'item', 'entity_type', 'entity_id', 'reaction_type', 'parent_id', 'created_at'],
      properties: {
        entity_type: coded(entityTypes, entityTypeLabels),
        reaction_type: coded(reactionTypes, reactionTypeLabels),
        item: named(),
        parent_id: ref('parents'),
        created_at: readOnly,
      },
    },
    services: {},
  });
}
