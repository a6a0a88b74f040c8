import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { Parent, WriteToRequest } from '../../models/index.js';
import { writeToStatuses, writeToTypes } from '../../models/write-to-request.js';
import { getStaffWriteTo, resolveWriteTo, schoolReply, updateWriteTo } from '../../services/write-to/write-to.js';
import { roleAccess } from '../access.js';
import { formAction, recordAction } from '../record-actions.js';
import { principalFor } from '../auth.js';
import { accountTypeLabels, writeToStatusLabels, writeToTypeLabels } from '../labels/codes.js';
import { labelOf } from '../labels/words.js';
import type { Enricher } from '../scoped-resource.js';
import { uploadAction } from './attachment-fields.js';
import { defineResource } from './define.js';
import { menu } from '../labels/menu.js';
import { coded, readOnly, ref, status, textarea } from './properties.js';

const open = (status: unknown) => status === 'open' || status === 'in_progress';

export function writeToRequestsResource(ctx: AppContext): ResourceWithOptions {
  /** On a request's page, the conversation: the parent's request, then every reply oldest first, each with who wrote it and when. */
  const conversation: Enricher = async (rows, admin, detail) => {
    if (!detail) return;
    for (const row of rows) {
      const thread = await getStaffWriteTo(ctx, principalFor(admin, String(row.school_id)), Number(row.id));
      const parent = await Parent.findOne({ where: { id: thread.parent_id, school_id: thread.school_id }, attributes: ['father_name', 'mother_name'], raw: true });
      row.thread = [
        { author: parent?.father_name ?? parent?.mother_name ?? 'The parent', role: 'Parent', at: thread.created_at, message: thread.message, attachments: thread.attachments },
        ...thread.replies.map((r) => ({
          author: r.author_name ?? labelOf(accountTypeLabels, r.author_type), role: labelOf(accountTypeLabels, r.author_type), at: r.created_at, message: r.message,
          attachments: r.attachments,
        })),
      ];
    }
  };
  return defineResource(ctx, {
    model: WriteToRequest, scope: { schoolColumn: 'school_id', enrich: [conversation] }, access: roleAccess.school,
    options: {
      navigation: menu.communication,
      sort: { sortBy: 'created_at', direction: 'desc' },
      listProperties: ['subject', 'type', 'status', 'parent_id', 'student_id', 'assigned_staff_id', 'replies_count', 'created_at'],
      filterProperties: ['subject', 'type', 'status', 'parent_id', 'student_id', 'assigned_staff_id', 'created_at'],
      showProperties: [
        'school_id', 'id', 'subject', 'type', 'status', 'parent_id', 'student_id', 'assigned_staff_id', 'leave_from', 'leave_to', 'thread', 'resolved_at', 'created_at', 'updated_at',
      ],
      properties: {
        subject: { isTitle: true },
        type: coded(writeToTypes, writeToTypeLabels),
        status: status(writeToStatuses, writeToStatusLabels),
        parent_id: ref('parents'),
        student_id: ref('students'),
        assigned_staff_id: ref('staff'),
        message: textarea,
        thread: { type: 'mixed', components: { show: 'WriteToThread' }, isVisible: { list: false, filter: false, show: true, edit: false } },
        created_at: readOnly,
      },
    },
    services: {},
    extraActions: {
      upload: uploadAction(ctx, roleAccess.school),
      reply: formAction(roleAccess.school, {
        icon: 'MessageCircle', allowed: () => true, appliesTo: (r) => r.params.status !== 'archived',
        intro: 'Your reply goes to the parent at once, on their phone. The first reply from the school marks the request as in progress.',
        button: 'Send the reply',
        fields: [
          { name: 'message', label: 'Reply', type: 'textarea', required: true, hint: 'Up to 10,000 characters' },
          { name: 'attachment_ids', label: 'Files', type: 'files' },
        ],
        perform: async (p, r, input) => {
          const files = input.attachment_ids ? input.attachment_ids.split(',').map(Number) : undefined;
          await schoolReply(ctx, p, Number(r.id()), { message: input.message!, ...(files ? { attachment_ids: files } : {}) });
          return { message: 'Reply sent to the parent' };
        },
      }),
      assign: formAction(roleAccess.school, {
        icon: 'UserCheck', allowed: () => true, appliesTo: (r) => r.params.status !== 'archived',
        intro: 'Choose the staff member who looks after this request, or Nobody.',
        button: 'Assign',
        fields: [{
          name: 'assigned_staff_id', label: 'Assigned to', type: 'pick', initial: 'assigned_staff_id',
          pick: { resource: 'staff', label: 'name', filters: { 'filters.status': '1' }, none: 'Nobody' },
        }],
        perform: async (p, r, input) => {
          const staffId = input.assigned_staff_id ? Number(input.assigned_staff_id) : null;
          await updateWriteTo(ctx, p, Number(r.id()), { assigned_staff_id: staffId });
          return { message: staffId === null ? 'Nobody is assigned to the request now' : 'Request assigned' };
        },
      }),
      resolve: recordAction(roleAccess.school, {
        icon: 'CheckCircle', allowed: () => true, appliesTo: (r) => open(r.params.status),
        guard: 'Mark this request as resolved? The parent sees it resolved.',
        perform: async (p, r) => {
          await resolveWriteTo(ctx, p, Number(r.id()));
          return { message: `"${r.params.subject}" resolved` };
        },
      }),
    },
  });
}
