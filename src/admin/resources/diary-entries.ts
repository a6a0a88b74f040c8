import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { DiaryEntry } from '../../models/index.js';
import { deleteDiaryEntry, updateDiaryEntry } from '../../services/diary/diary.js';
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
      editProperties: ['title', 'due_date', 'description', 'attachment_ids'],
      properties: {
        ...attachmentProperties,
        title: { isTitle: true },
        student_id: ref('students'),
        staff_id: ref('staff', readOnly),
        description: textarea,
        deleted_status: deletedFlag,
        created_at: readOnly,
      },
    },
    services: {
      fields: { title: 'text', due_date: 'date', description: 'nullableText', ...attachmentFormFields },
      update: withAttachmentRefusals((c, p, i, changes) => updateDiaryEntry(c, p, i, changes as never)),
      remove: (c, p, i) => deleteDiaryEntry(c, p, i),
    },
    extraActions: { upload: uploadAction(ctx, roleAccess.school) },
  });
}
