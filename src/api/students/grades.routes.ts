import { z } from 'zod';
import { assertGradeFound, createGrade, deleteGrade, gradeChangesInput, listGrades, newGradeInput, updateGrade } from '../../services/students/grades.js';
import type { Routers } from '../routers.js';
import { idParam, schoolIdField } from '../../services/schemas.js';
import { gradeView } from './student-schemas.js';

export function registerGradeRoutes(r: Routers): void {
  const web = r.web;

  web.publicRoute(
    {
      method: 'get', path: '/grades', auth: false, summary: "A school's grades, in display order (public, for the admission form)",
      query: z.object({ school_id: schoolIdField() }),
      response: z.array(gradeView), errors: [403, 404],
    },
    async ({ query }) => ({ data: await listGrades(query.school_id) }),
  );

  web.route(
    {
      method: 'post', path: '/grades', status: 201, summary: 'Add a grade',
      description: '`class_teacher_id` must be an active staff member of the school.',
      body: newGradeInput.extend({ school_id: schoolIdField().optional() }),
      response: gradeView, errors: [404, 409],
      example: { name: 'Class 1-B', class_teacher_id: 7 },
    },
    async ({ ctx, principal, body }) => ({ message: 'Grade created', data: await createGrade(ctx, principal, body) }),
  );

  web.route(
    {
      method: 'put', path: '/grades/:id', someField: true, params: idParam, summary: 'Rename a grade, reorder it or set its class teacher',
      found: ({ principal, params }) => assertGradeFound(principal, params.id),
      description: 'Renaming a grade renames it on its students too.',
      body: gradeChangesInput.extend({ school_id: schoolIdField().optional() }),
      response: gradeView, errors: [404, 409],
      example: { class_teacher_id: 7 },
    },
    async ({ ctx, principal, params, body }) => {
      const { school_id: _school, ...changes } = body;
      return { message: 'Grade updated', data: await updateGrade(ctx, principal, params.id, changes) };
    },
  );

  web.route(
    {
      method: 'delete', path: '/grades/:id', params: idParam, summary: 'Delete a grade',
      description: 'Refused (409) while any student, archived ones included, is in the grade.',
      errors: [404, 409],
    },
    async ({ ctx, principal, params }) => {
      await deleteGrade(ctx, principal, params.id);
      return { message: 'Grade deleted' };
    },
  );
}
