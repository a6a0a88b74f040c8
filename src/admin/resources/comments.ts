import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { Comment } from '../../models/index.js';
import { entityTypes } from '../../models/comment.js';
import { deleteComment } from '../../services/engagement/comments.js';
import { roleAccess } from '../access.js';
import { defineResource } from './define.js';
import { menu } from '../labels/menu.js';
import { entityTypeLabels } from '../labels/codes.js';
import { linkedNames } from './linked-names.js';
import { coded, deletedFlag, named, readOnly, ref } from './properties.js';

export function commentsResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: Comment, scope: { schoolColumn: 'school_id', softDelete: 'deleted_status', enrich: [linkedNames('item', (r) => ({ kind: String(r.entity_type), id: r.entity_id }))] }, access: roleAccess.school,
    options: {
      navigation: menu.communication,
      sort: { sortBy: 'created_at', direction: 'desc' },
      listProperties: ['content', 'item', 'entity_type', 'parent_id', 'created_at'],
      filterProperties: ['entity_type', 'entity_id', 'parent_id', 'content', 'deleted_status', 'created_at'],
      showProperties: ['school_id', 'id', 'item', 'entity_type', 'entity_id', 'parent_id', 'content', 'deleted_status', 'created_at'],
      properties: {
        entity_type: coded(entityTypes, entityTypeLabels),
        item: named(),
        parent_id: ref('parents'),
        deleted_status: deletedFlag,
        created_at: readOnly,
      },
    },
    services: { remove: (c, p, i) => deleteComment(c, p, i) },
  });
}
