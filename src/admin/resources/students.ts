import type { PropertyOptions, ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { Student } from '../../models/index.js';
import { studentStatuses } from '../../models/student.js';
import { createStudentFromForm, newStudentStatuses } from '../../services/students/new-student.js';
import { archiveStudent, resetParentPin, restoreStudent, studentChangesInput, updateStudent } from '../../services/students/students.js';
import { parseInput } from '../../services/validation.js';
import { roleAccess } from '../access.js';
import { recordAction } from '../record-actions.js';
import { studentStatusLabels } from '../labels/codes.js';
import { defineResource } from './define.js';
import { importAction } from './import-action.js';
import { menu } from '../labels/menu.js';
import { pinResetAction } from './pin-reset-action.js';
import { privacyActions } from './privacy-actions.js';
import { readOnly, ref, status } from './properties.js';

/** The guardian's and address fields the New form asks for: the students CSV's columns that are not the student's own. */
const newOnly: PropertyOptions = { type: 'string', isVisible: { list: false, filter: false, show: false, edit: true } };

/** The New form: the students CSV's columns (section 22), then the status the student starts in. */
const newStudentFields = [
  'student_full_name', 'roll_no', 'gender', 'grade', 'date_of_birth', 'blood_group', 'phone_no', 'father_name', 'mother_name', 'email', 'address', 'city', 'pincode', 'status',
];

export function studentsResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: Student, scope: { schoolColumn: 'school_id', quickSearch: ['student_full_name', 'roll_no', 'phone_no'] }, access: roleAccess.school,
    options: {
      navigation: menu.people,
      sort: { sortBy: 'student_full_name', direction: 'asc' },
      listProperties: ['student_full_name', 'roll_no', 'grade', 'status', 'parent_id', 'phone_no'],
      filterProperties: ['student_full_name', 'roll_no', 'grade', 'status', 'parent_id', 'phone_no', 'created_at'],
      showProperties: ['school_id', 'id', 'student_full_name', 'roll_no', 'grade', 'status', 'gender', 'date_of_birth', 'blood_group', 'phone_no', 'parent_id', 'created_at', 'updated_at'],
      editProperties: ['student_full_name', 'roll_no', 'grade', 'status', 'gender', 'date_of_birth', 'blood_group', 'phone_no'],
      properties: {
        student_full_name: { isTitle: true, isRequired: true },
        grade: { isRequired: true, components: { edit: 'NamePicker', filter: 'NamePicker' }, custom: { pick: { resource: 'grades', sortBy: 'sort_order' } } },
        roll_no: { isRequired: false, description: 'Leave it empty on a new student and the next free number is given' },
        phone_no: { isRequired: true, description: "The guardian's mobile: a phone a parent of the school already has links the student to them" },
        status: status(studentStatuses, studentStatusLabels),
        parent_id: ref('parents', readOnly),
        father_name: newOnly,
        mother_name: newOnly,
        email: { ...newOnly, description: "The guardian's e-mail, if any" },
        address: newOnly,
        city: newOnly,
        pincode: newOnly,
      },
    },
    services: {
      fields: {
        student_full_name: 'text', roll_no: 'text', grade: 'text', status: 'text', gender: 'nullableText', date_of_birth: 'date', blood_group: 'nullableText', phone_no: 'text',
        father_name: 'text', mother_name: 'text', email: 'text', address: 'text', city: 'text', pincode: 'text',
      },
      create: async (c, p, input) => {
        const added = await createStudentFromForm(c, p, input as never);
        if (!added.pin_setup) return { id: added.student_id };
        return {
          id: added.student_id,
          secret: { label: 'A new parent account: the link that lets the guardian set their PIN (it was also sent by SMS to their phone)', value: added.pin_setup.url },
        };
      },
      newForm: { properties: newStudentFields, defaults: { status: 'active' }, choices: { status: newStudentStatuses } },
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
      resetParentPin: pinResetAction(roleAccess.school, {
        owner: (r) => `the parent of ${r.params.student_full_name}`,
        intro: "Set a new PIN for this student's parent. Every device the parent is signed in on is signed out at once.",
        appliesTo: (r) => r.params.parent_id != null,
        reset: (p, r, pin) => resetParentPin(ctx, p, Number(r.id()), pin),
      }),
    },
  });
}
