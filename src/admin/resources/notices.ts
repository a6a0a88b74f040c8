import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { Notice } from '../../models/index.js';
import { noticeTypes } from '../../models/notice.js';
import { createNotice, deleteNotice, updateNotice } from '../../services/notices/notices.js';
import { roleAccess } from '../access.js';
import { noticeTypeLabels } from '../labels/codes.js';
import { attachmentEnricher, attachmentFormFields, attachmentProperties, uploadAction, withAttachmentRefusals } from './attachment-fields.js';
import { audienceEnricher, audienceFormFields, audienceProperties, audiencePropertyNames, audienceShown, withAudience } from './audience-fields.js';
import { defineResource } from './define.js';
import { formActions } from './form-actions.js';
import { formEnricher, formFormFields, formProperties, withForm } from './form-fields.js';
import { linkedNames } from './linked-names.js';
import { menu } from '../labels/menu.js';
import { coded, deletedFlag, named, readOnly, textarea } from './properties.js';
import { reachActions } from './reach-actions.js';

export function noticesResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: Notice,
    scope: {
      schoolColumn: 'school_id', softDelete: 'notice_deleted',
      enrich: [
        audienceEnricher('noticeboard'), attachmentEnricher(ctx), formEnricher,
        linkedNames('posted_by', (r) => (r.created_by_type ? { kind: String(r.created_by_type), id: r.created_by_id } : null)),
      ],
    },
    access: roleAccess.school,
    options: {
      navigation: menu.communication,
      sort: { sortBy: 'created_at', direction: 'desc' },
      listProperties: ['notice_title', 'notice_type', 'is_urgent', 'is_important', 'posted_by', 'publish_at', 'published_at', 'created_at'],
      filterProperties: ['notice_title', 'notice_type', 'is_urgent', 'is_important', 'created_by_id', 'notice_deleted', 'created_at'],
      showProperties: [
        'school_id', 'id', 'notice_title', 'notice_type', 'is_urgent', 'is_important', 'notice_desc', 'attachments', 'audience', 'form_summary', 'publish_at', 'published_at',
        'posted_by', 'created_by_type', 'created_by_id', 'notice_deleted', 'created_at', 'updated_at',
      ],
      editProperties: ['school_id', 'notice_title', 'notice_type', 'is_urgent', 'is_important', 'publish_at', 'notice_desc', 'attachment_ids', ...audiencePropertyNames, 'form'],
      properties: {
        ...audienceProperties,
        ...audienceShown,
        ...formProperties,
        ...attachmentProperties,
        form_id: { isVisible: false },
        notice_title: { isTitle: true },
        notice_type: coded(noticeTypes, noticeTypeLabels),
        notice_desc: textarea,
        notice_deleted: deletedFlag,
        posted_by: named(),
        created_by_type: coded(['admin', 'staff'], { admin: 'Admin user', staff: 'Staff member' }, { isVisible: { list: false, filter: false, show: true, edit: false } }),
        created_at: readOnly,
      },
    },
    services: {
      fields: {
        notice_title: 'text', notice_type: 'text', is_urgent: 'boolean', is_important: 'boolean', publish_at: 'text', notice_desc: 'nullableText', ...audienceFormFields,
        ...formFormFields, ...attachmentFormFields,
      },
      create: withAttachmentRefusals(withAudience(1, withForm((c, p, input) => createNotice(c, p, input as never), { creating: true }))),
      update: withAttachmentRefusals(withAudience(1, withForm((c, p, i, changes) => updateNotice(c, p, i, changes as never), { creating: false }))),
      remove: (c, p, i) => deleteNotice(c, p, i),
    },
    extraActions: { ...reachActions(ctx, 'noticeboard'), ...formActions(ctx), upload: uploadAction(ctx, roleAccess.school) },
  });
}
