import { z } from 'zod';
import {
  archiveStudent, assertStudentFound, getStudent, listStudents, resetParentPin, restoreStudent, studentChangesInput, studentDetailForParent, studentListInput,
  teacherStudentDetail, teacherStudents, updateStudent,
} from '../../services/students/students.js';
import type { Routers } from '../routers.js';
import { id, idParam, pin, schoolIdField } from '../../services/schemas.js';
import { createStudent, newStudentInput, newStudentStatuses } from '../../services/students/new-student.js';
import { registerAdmissionRoutes } from './admission.routes.js';
import { registerGradeRoutes } from './grades.routes.js';
import { addressView, pinSetupView, studentSummary, studentView } from './student-schemas.js';

const guardian = z.object({ father_name: z.string().nullable(), mother_name: z.string().nullable(), phone_no: z.string() });

/** Students in the three apps, grades and the public admission form. */
export function registerStudentRoutes(r: Routers): void {
  const web = r.web;

  web.route(
    {
      method: 'get', path: '/students', summary: "List the school's students",
      description: 'Without `status`, every student that is not archived. `search` matches the name or the roll number, case-insensitive.',
      query: studentListInput.extend({ school_id: schoolIdField() }),
      response: z.object({
        students: z.array(studentView.extend({ father_name: z.string().nullable() })),
        pagination: z.object({ total: z.number(), page: z.number(), limit: z.number(), pages: z.number() }),
      }),
    },
    async ({ ctx, principal, query }) => ({ data: await listStudents(ctx, principal, query) }),
  );

  web.route(
    {
      method: 'post', path: '/students', status: 201, summary: 'Add a student with their guardian (super_admin, admin)',
      description:
        'The admission form\'s body, its `school_id` optional (another school\'s: 403), with `student.status` `active` (default) or `registered`, ' +
        'through the admission\'s validation, all or nothing: a bad field is 400 naming it (`student.grade`, `parent.phone_no`, ...), a taken roll number 409. ' +
        'A phone that has a parent in the school links the student to them (their PIN kept); a new one creates the parent without a PIN and sends ' +
        'the PIN set-up link by SMS, answered once here as `pin_setup`. No admission record, token or `admission.submitted` event.',
      body: newStudentInput,
      response: z.object({
        student_id: z.number(), parent_id: z.number(), roll_no: z.string(), status: z.enum(newStudentStatuses),
        pin_setup: pinSetupView.optional().describe('Only for a new parent: their one-time PIN set-up link'),
      }),
      errors: [403, 409],
      example: {
        student: { student_full_name: 'Asha Rao', gender: 'female', grade: '5', date_of_birth: '2016-04-12', blood_group: 'B+', roll_no: null, status: 'active' },
        parent: { father_name: 'Ravi Rao', mother_name: 'Meena Rao', phone_no: '9876543210', email: 'ravi@example.com' },
        addresses: [{ address_type: 'current', address: '12 Lake Rd', city: 'Pune', pincode: 411001 }],
      },
      responseExample: {
        message: 'Student added',
        data: { student_id: 12, parent_id: 7, roll_no: '42', status: 'active', pin_setup: { url: 'https://school.example/set-pin?token=greenwood.q9X…', expires_at: '2026-11-29T09:30:00.000Z' } },
      },
    },
    async ({ ctx, principal, body }) => ({ message: 'Student added', data: await createStudent(ctx, principal, body) }),
  );

  web.route(
    {
      method: 'get', path: '/students/:id', params: idParam, summary: 'One student with its guardian and addresses',
      response: studentView.extend({
        guardian: guardian.extend({ id: z.number(), email: z.string().nullable(), has_pin: z.boolean() }).nullable(),
        addresses: z.array(addressView),
      }),
      errors: [404],
    },
    async ({ ctx, principal, params }) => ({ data: await getStudent(ctx, principal, params.id) }),
  );

  web.route(
    {
      method: 'put', path: '/students/:id', someField: true, params: idParam, summary: 'Edit a student',
      found: ({ principal, params }) => assertStudentFound(principal, params.id),
      description:
        'Status transitions: registered -> active, active <-> inactive (anything else 409; archive and restore have their own calls). ' +
        'An archived student cannot be edited (409). `grade` must be one of the school\'s grades; `roll_no` is unique in the school (409). ' +
        'A new `phone_no` links the student to the parent of that phone in the school, created without a PIN when there is none.',
      body: studentChangesInput.extend({ school_id: schoolIdField().optional() }),
      response: studentView, errors: [404, 409],
      example: { student_full_name: 'Asha Rao', grade: '6', status: 'active', phone_no: '9876543210' },
    },
    async ({ ctx, principal, params, body }) => {
      const { school_id: _school, ...changes } = body;
      return { message: 'Student updated', data: await updateStudent(ctx, principal, params.id, changes) };
    },
  );

  web.route(
    { method: 'post', path: '/students/:id/archive', params: idParam, summary: 'Archive a student (any state -> archived)', response: studentView, errors: [404] },
    async ({ ctx, principal, params }) => ({ message: 'Student archived', data: await archiveStudent(ctx, principal, params.id) }),
  );

  web.route(
    { method: 'post', path: '/students/:id/restore', params: idParam, summary: 'Restore an archived student (archived -> inactive)', response: studentView, errors: [404, 409] },
    async ({ ctx, principal, params }) => ({ message: 'Student restored', data: await restoreStudent(ctx, principal, params.id) }),
  );

  web.route(
    {
      method: 'post', path: '/students/:id/reset-password', params: idParam, summary: "Set the PIN of the student's parent (admins)",
      found: ({ principal, params }) => assertStudentFound(principal, params.id),
      description: 'Sets the PIN (4 to 8 digits) of the parent linked to the student and ends every session of that parent.',
      body: z.object({ school_id: schoolIdField().optional(), password: pin() }),
      response: z.object({ parent_id: z.number() }), errors: [404, 409],
      example: { password: '482913' },
    },
    async ({ ctx, principal, params, body }) => ({ message: 'Parent PIN reset', data: await resetParentPin(ctx, principal, params.id, body.password) }),
  );

  r.teachers.route(
    {
      method: 'get', path: '/students', summary: 'The students assigned to the caller',
      query: z.object({ school_id: schoolIdField(), grade: z.string().trim().min(1).max(60).optional() }),
      response: z.array(studentSummary),
    },
    async ({ ctx, principal, query }) => ({ data: await teacherStudents(ctx, principal, query) }),
  );

  r.teachers.route(
    {
      method: 'get', path: '/students/:id', params: idParam, summary: 'One student assigned to the caller',
      description: 'A student of the school not assigned to the caller: 403.',
      response: studentSummary.extend({ guardian: guardian.nullable() }), errors: [404],
    },
    async ({ ctx, principal, params }) => ({ data: await teacherStudentDetail(ctx, principal, params.id) }),
  );

  r.parent.route(
    {
      method: 'get', path: '/student-detail', summary: "The parent's child with the guardian's details",
      description: 'The first child by id, or the one named by `student_id` (another family\'s: 403).',
      query: z.object({ student_id: id().optional() }),
      response: z.object({ student: studentSummary, guardian: guardian.extend({ email: z.string().nullable() }) }),
      errors: [404],
    },
    async ({ ctx, principal, query }) => ({ data: await studentDetailForParent(ctx, principal, query.student_id) }),
  );

  registerGradeRoutes(r);
  registerAdmissionRoutes(r);
}
