import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { DiaryEntry } from '../../models/index.js';
import { createDiaryEntry, deleteDiaryEntry, updateDiaryEntry } from '../../services/diary/diary.js';
import { roleAccess } from '../access.js';
import { attachmentEnricher, attachmentFormFields, attachmentProperties, uploadAction, withAttachmentRefusals } from './attachment-fields.js';
import { defineResource } from './define.js';
import { menu } from '../labels/menu.js';
import { deletedFlag, readOnly, ref, textarea } from './properties.js';

export function diaryEntriesResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: DiaryEntry, scope: { schoolColumn: 'school_id', softDelete: 'deleted_status', enrich: [attachmentEnricher(ctx)] }, access: roleAccess.school,
    options: {
      navigation: menu.classroom,
      sort: { sortBy: 'created_at', direction: 'desc' },
      listProperties: ['title', 'grade', 'student_id', 'staff_id', 'due_date', 'created_at'],
      filterProperties: ['title', 'grade', 'student_id', 'staff_id', 'due_date', 'deleted_status'],
      showProperties: ['school_id', 'id', 'title', 'grade', 'student_id', 'staff_id', 'due_date', 'description', 'attachments', 'deleted_status', 'created_at', 'updated_at'],
      editProperties: ['staff_id', 'grade', 'student_id', 'title', 'due_date', 'description', 'attachment_ids'],
      properties: {
        ...attachmentProperties,
        title: { isTitle: true },
        grade: {
          components: { edit: 'NamePicker', filter: 'NamePicker' }, custom: { pick: { resource: 'grades', sortBy: 'sort_order', none: 'No grade: one student' } },
          description: 'A whole grade, or leave it empty and pick one student',
        },
        student_id: { ...ref('students'), description: 'One student, or leave it empty for the whole grade' },
        staff_id: { ...ref('staff'), isRequired: true, description: 'The teacher it is written for; it stays with them' },
        description: textarea,
        deleted_status: deletedFlag,
        created_at: readOnly,
      },
    },
    services: {
      fields: { staff_id: 'number', grade: 'nullableText', student_id: 'reference', title: 'text', due_date: 'date', description: 'nullableText', ...attachmentFormFields },
      create: withAttachmentRefusals((c, p, input) => createDiaryEntry(c, p, input as never)),
      update: withAttachmentRefusals((c, p, i, changes) => updateDiaryEntry(c, p, i, changes as never)),
      remove: (c, p, i) => deleteDiaryEntry(c, p, i),
    },
    extraActions: { upload: uploadAction(ctx, roleAccess.school) },
  });
}
