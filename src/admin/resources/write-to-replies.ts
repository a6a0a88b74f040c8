import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { WriteToReply } from '../../models/index.js';
import { roleAccess } from '../access.js';
import { defineResource } from './define.js';
import { menu } from '../labels/menu.js';
import { accountTypeLabels } from '../labels/codes.js';
import { linkedNames } from './linked-names.js';
import { coded, named, readOnly, ref } from './properties.js';

export function writeToRepliesResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: WriteToReply, scope: { schoolColumn: 'school_id', enrich: [linkedNames('author', (r) => ({ kind: String(r.author_type), id: r.author_id }))] }, access: roleAccess.readOnly,
    options: {
      navigation: menu.communication,
      sort: { sortBy: 'id', direction: 'asc' },
      listProperties: ['write_to_id', 'author', 'author_type', 'message', 'created_at'],
      filterProperties: ['write_to_id', 'author_type', 'author_name', 'created_at'],
      showProperties: ['school_id', 'id', 'write_to_id', 'author', 'author_type', 'author_id', 'author_name', 'message', 'created_at'],
      properties: {
        write_to_id: ref('write_to_requests'),
        author_type: coded(['parent', 'staff', 'admin'], accountTypeLabels),
        author: named(),
        message: { type: 'textarea' },
        created_at: readOnly,
      },
    },
    services: {},
  });
}
