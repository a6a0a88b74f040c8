import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { WriteToRequest } from '../../models/index.js';
import { writeToStatuses, writeToTypes } from '../../models/write-to-request.js';
import { resolveWriteTo } from '../../services/write-to/write-to.js';
import { allows, roleAccess } from '../access.js';
import { recordAction } from '../actions.js';
import type { ConsoleAdmin } from '../auth.js';
import { defineResource } from './define.js';
import { menu } from './menu.js';
import { choices, readOnly, ref, textarea } from './properties.js';

export function writeToRequestsResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: WriteToRequest, scope: { schoolColumn: 'school_id' }, access: roleAccess.school,
    options: {
      navigation: menu.communication,
      sort: { sortBy: 'created_at', direction: 'desc' },
      listProperties: ['id', 'subject', 'type', 'status', 'student_id', 'assigned_staff_id', 'replies_count', 'created_at'],
      filterProperties: ['subject', 'type', 'status', 'parent_id', 'student_id', 'assigned_staff_id', 'created_at'],
      showProperties: [
        'school_id', 'id', 'subject', 'type', 'status', 'parent_id', 'student_id', 'assigned_staff_id', 'leave_from', 'leave_to', 'message',
        'replies_count', 'resolved_at', 'created_at', 'updated_at',
      ],
      properties: {
        subject: { isTitle: true },
        type: { availableValues: choices(writeToTypes) },
        status: { availableValues: choices(writeToStatuses) },
        parent_id: ref('parents'),
        student_id: ref('students'),
        assigned_staff_id: ref('staff'),
        message: textarea,
        created_at: readOnly,
      },
    },
    services: { noun: 'Write-to request' },
    extraActions: {
      resolve: recordAction(roleAccess.school, {
        icon: 'CheckCircle', allowed: () => true, appliesTo: (r) => r.params.status === 'open' || r.params.status === 'in_progress',
        perform: async (p, r) => {
          await resolveWriteTo(ctx, p, Number(r.id()));
          return { message: `"${r.params.subject}" resolved` };
        },
      }),
      replies: {
        actionType: 'record', component: false, icon: 'MessageCircle',
        isAccessible: ({ currentAdmin }) => allows(roleAccess.school, currentAdmin as ConsoleAdmin, 'read'),
        handler: async (_request, _response, context) => ({
          record: context.record!.toJSON(context.currentAdmin),
          redirectUrl: `${context.h.resourceUrl({ resourceId: 'write_to_replies' })}?filters.write_to_id=${context.record!.id()}`,
        }),
      },
    },
  });
}
