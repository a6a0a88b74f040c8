import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { Notice } from '../../models/index.js';
import { noticeTypes } from '../../models/notice.js';
import { createNotice, deleteNotice, updateNotice } from '../../services/notices/notices.js';
import { roleAccess } from '../access.js';
import { audienceEnricher, audienceFormFields, audienceProperties, audiencePropertyNames, withAudience } from './audience-fields.js';
import { defineResource } from './define.js';
import { menu } from './menu.js';
import { choices, deletedFlag, readOnly, textarea } from './properties.js';
import { reachActions } from './reach-actions.js';

export function noticesResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: Notice, scope: { schoolColumn: 'school_id', softDelete: 'notice_deleted', enrich: audienceEnricher('noticeboard') }, access: roleAccess.school,
    options: {
      navigation: menu.communication,
      sort: { sortBy: 'created_at', direction: 'desc' },
      listProperties: ['id', 'notice_title', 'notice_type', 'is_urgent', 'is_important', 'publish_at', 'published_at', 'created_at'],
      filterProperties: ['notice_title', 'notice_type', 'is_urgent', 'is_important', 'notice_deleted', 'created_at'],
      showProperties: [
        'school_id', 'id', 'notice_title', 'notice_type', 'is_urgent', 'is_important', 'notice_desc', ...audiencePropertyNames, 'publish_at', 'published_at', 'created_by_type',
        'created_by_id', 'notice_deleted', 'created_at', 'updated_at',
      ],
      editProperties: ['school_id', 'notice_title', 'notice_type', 'is_urgent', 'is_important', 'publish_at', 'notice_desc', ...audiencePropertyNames],
      properties: {
        ...audienceProperties,
        notice_title: { isTitle: true },
        notice_type: { availableValues: choices(noticeTypes) },
        notice_desc: textarea,
        notice_deleted: deletedFlag,
        created_at: readOnly,
      },
    },
    services: {
      noun: 'Notice',
      fields: { notice_title: 'text', notice_type: 'text', is_urgent: 'boolean', is_important: 'boolean', publish_at: 'text', notice_desc: 'nullableText', ...audienceFormFields },
      create: withAudience(1, (c, p, input) => createNotice(c, p, input as never)),
      update: withAudience(1, (c, p, i, changes) => updateNotice(c, p, i, changes as never)),
      remove: (c, p, i) => deleteNotice(c, p, i),
    },
    extraActions: reachActions(ctx, 'noticeboard'),
  });
}
