import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { Activity } from '../../models/index.js';
import { activityStatuses, activityTypes } from '../../models/activity.js';
import { createActivity, deleteActivity, updateActivity } from '../../services/activities/activities.js';
import { roleAccess } from '../access.js';
import { activityStatusLabels, activityTypeLabels } from '../labels/codes.js';
import { attachmentEnricher, attachmentFormFields, attachmentProperties, uploadAction, withAttachmentRefusals } from './attachment-fields.js';
import { audienceEnricher, audienceFormFields, audienceProperties, audiencePropertyNames, audienceShown, withAudience } from './audience-fields.js';
import { defineResource } from './define.js';
import { formActions } from './form-actions.js';
import { formEnricher, formFormFields, formProperties, withForm } from './form-fields.js';
import { menu } from '../labels/menu.js';
import { coded, deletedFlag, readOnly, ref, status, textarea } from './properties.js';
import { reachActions } from './reach-actions.js';

export function activitiesResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: Activity, scope: { schoolColumn: 'school_id', softDelete: 'deleted_status', enrich: [audienceEnricher('activity'), formEnricher, attachmentEnricher(ctx)] }, access: roleAccess.school,
    options: {
      navigation: menu.communication,
      sort: { sortBy: 'created_at', direction: 'desc' },
      listProperties: ['title', 'activity_type', 'status', 'staff_id', 'publish_at', 'created_at'],
      filterProperties: ['title', 'activity_type', 'status', 'staff_id', 'student_id', 'starts_at', 'deleted_status', 'created_at'],
      showProperties: [
        'school_id', 'id', 'title', 'activity_type', 'status', 'starts_at', 'ends_at', 'all_day', 'location', 'audience', 'form_summary', 'publish_at', 'published_at', 'staff_id',
        'description', 'attachments', 'deleted_status', 'created_at', 'updated_at',
      ],
      editProperties: [
        'school_id', 'title', 'activity_type', 'status', 'publish_at', 'staff_id', 'starts_at', 'ends_at', 'all_day', 'location', ...audiencePropertyNames, 'description',
        'attachment_ids', 'form',
      ],
      properties: {
        ...audienceProperties,
        ...audienceShown,
        ...formProperties,
        ...attachmentProperties,
        starts_at: { description: 'Events only: when it starts (all day: its first day, in the school\'s time zone)' },
        ends_at: { description: 'Events only: when it ends, not before it starts' },
        all_day: { description: 'Events only: it covers whole days of the school\'s time zone' },
        location: { description: 'Events only: where, at most 200 characters' },
        form_id: { isVisible: false },
        span_end: { isVisible: false },
        title: { isTitle: true },
        activity_type: coded(activityTypes, activityTypeLabels),
        status: status(activityStatuses, activityStatusLabels),
        staff_id: ref('staff'),
        student_id: ref('students'),
        description: textarea,
        deleted_status: deletedFlag,
        created_at: readOnly,
      },
    },
    services: {
      fields: {
        title: 'text', activity_type: 'text', status: 'text', publish_at: 'text', staff_id: 'number', description: 'nullableText', ...audienceFormFields,
        starts_at: 'nullableText', ends_at: 'nullableText', all_day: 'boolean', location: 'nullableText', ...formFormFields, ...attachmentFormFields,
      },
      create: withAttachmentRefusals(withAudience(1, withForm((c, p, input) => createActivity(c, p, input as never), { creating: true }))),
      update: withAttachmentRefusals(withAudience(1, withForm((c, p, i, changes) => updateActivity(c, p, i, changes as never), { creating: false }))),
      remove: (c, p, i) => deleteActivity(c, p, i),
    },
    extraActions: { ...reachActions(ctx, 'activity'), ...formActions(ctx), upload: uploadAction(ctx, roleAccess.school) },
  });
}
