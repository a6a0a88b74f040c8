import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { Activity } from '../../models/index.js';
import { activityStatuses, activityTypes } from '../../models/activity.js';
import { createActivity, deleteActivity, updateActivity } from '../../services/activities/activities.js';
import { roleAccess } from '../access.js';
import { activityStatusLabels, activityTypeLabels } from '../labels/codes.js';
import { audienceEnricher, audienceFormFields, audienceProperties, audiencePropertyNames, audienceShown, withAudience } from './audience-fields.js';
import { defineResource } from './define.js';
import { menu } from './menu.js';
import { coded, deletedFlag, readOnly, ref, status, textarea } from './properties.js';
import { reachActions } from './reach-actions.js';

export function activitiesResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: Activity, scope: { schoolColumn: 'school_id', softDelete: 'deleted_status', enrich: [audienceEnricher('activity')] }, access: roleAccess.school,
    options: {
      navigation: menu.communication,
      sort: { sortBy: 'created_at', direction: 'desc' },
      listProperties: ['title', 'activity_type', 'status', 'staff_id', 'publish_at', 'created_at'],
      filterProperties: ['title', 'activity_type', 'status', 'staff_id', 'student_id', 'deleted_status', 'created_at'],
      showProperties: [
        'school_id', 'id', 'title', 'activity_type', 'status', 'audience', 'publish_at', 'published_at', 'staff_id', 'description', 'deleted_status', 'created_at', 'updated_at',
      ],
      editProperties: ['school_id', 'title', 'activity_type', 'status', 'publish_at', 'staff_id', ...audiencePropertyNames, 'description'],
      properties: {
        ...audienceProperties,
        ...audienceShown,
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
      noun: 'Activity',
      fields: { title: 'text', activity_type: 'text', status: 'text', publish_at: 'text', staff_id: 'number', description: 'nullableText', ...audienceFormFields },
      create: withAudience(1, (c, p, input) => createActivity(c, p, input as never)),
      update: withAudience(1, (c, p, i, changes) => updateActivity(c, p, i, changes as never)),
      remove: (c, p, i) => deleteActivity(c, p, i),
    },
    extraActions: reachActions(ctx, 'activity'),
  });
}
