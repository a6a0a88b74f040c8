import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { Student } from '../../models/index.js';
import { studentStatuses } from '../../models/student.js';
import { archiveStudent, resetParentPin, restoreStudent, studentChangesInput, updateStudent } from '../../services/students/students.js';
import { parseInput } from '../../services/validation.js';
import { roleAccess } from '../access.js';
import { recordAction } from '../actions.js';
import { defineResource } from './define.js';
import { importAction } from './import-action.js';
import { menu } from './menu.js';
import { newPin } from './pins.js';
import { privacyActions } from './privacy-actions.js';
import { choices, readOnly, ref } from './properties.js';

export function studentsResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: Student, scope: { schoolColumn: 'school_id' }, access: roleAccess.school,
    options: {
      navigation: menu.people,
      sort: { sortBy: 'student_full_name', direction: 'asc' },
      listProperties: ['id', 'student_full_name', 'roll_no', 'grade', 'status', 'phone_no'],
      filterProperties: ['student_full_name', 'roll_no', 'grade', 'status', 'parent_id', 'phone_no', 'created_at'],
      showProperties: ['school_id', 'id', 'student_full_name', 'roll_no', 'grade', 'status', 'gender', 'date_of_birth', 'blood_group', 'phone_no', 'parent_id', 'created_at', 'updated_at'],
      editProperties: ['student_full_name', 'roll_no', 'grade', 'status', 'gender', 'date_of_birth', 'blood_group', 'phone_no'],
      properties: {
        student_full_name: { isTitle: true },
        status: { availableValues: choices(studentStatuses) },
        parent_id: ref('parents', readOnly),
      },
    },
    services: {
      noun: 'Student',
      fields: { student_full_name: 'text', roll_no: 'text', grade: 'text', status: 'text', gender: 'nullableText', date_of_birth: 'date', blood_group: 'nullableText', phone_no: 'text' },
      update: (c, p, i, changes) => updateStudent(c, p, i, parseInput(studentChangesInput, changes)),
    },
    extraActions: {
      ...privacyActions(ctx),
      import: importAction(ctx, ['students', 'oneroster']),
      archive: recordAction(roleAccess.school, {
        icon: 'Archive', variant: 'danger', allowed: () => true, appliesTo: (r) => r.params.status !== 'archived',
        guard: 'Archive this student? They leave every list and their parents no longer see them.',
        perform: async (p, r) => {
          await archiveStudent(ctx, p, Number(r.id()));
          return { message: `${r.params.student_full_name} archived` };
        },
      }),
      restore: recordAction(roleAccess.school, {
        icon: 'RotateCcw', allowed: () => true, appliesTo: (r) => r.params.status === 'archived',
        perform: async (p, r) => {
          await restoreStudent(ctx, p, Number(r.id()));
          return { message: `${r.params.student_full_name} restored (now inactive)` };
        },
      }),
      resetParentPin: recordAction(roleAccess.school, {
        icon: 'Key', variant: 'danger', allowed: () => true, appliesTo: (r) => r.params.parent_id != null,
        guard: "Set a new PIN for this student's parent? Every device the parent is signed in on is signed out.",
        perform: async (p, r) => {
          const pin = newPin();
          await resetParentPin(ctx, p, Number(r.id()), pin);
          return { message: `New parent PIN for ${r.params.student_full_name}: ${pin}. Give it to the parent now; it is not shown again.`, type: 'info' };
        },
      }),
    },
  });
}
