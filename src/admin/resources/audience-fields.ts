import type { PropertyOptions } from 'adminjs';
import { Op } from 'sequelize';
import type { Principal } from '../../context.js';
import { AppError, fieldError } from '../../errors.js';
import { Grade, Group, Student } from '../../models/index.js';
import { audiencesOf, type AudienceEntity } from '../../services/audiences/audiences.js';
import type { Fields } from '../form-input.js';
import type { Enricher } from '../scoped-resource.js';

/**
 * The audience of an activity or a notice as three pickers, each searching the admin's own school
 * through the scoped resources: grades, groups and students. Grades are picked as records and kept by
 * name, as the audience stores them.
 */
export const audienceProperties: Record<string, PropertyOptions> = {
  audience_grades: { reference: 'grades', isArray: true, description: 'Grades the item is for' },
  audience_groups: { reference: 'student_groups', isArray: true, description: 'Groups the item is for' },
  audience_students: { reference: 'students', isArray: true, description: 'Students the item is for. With no grade, group or student it is for the whole school.' },
};
for (const p of Object.values(audienceProperties)) p.isVisible = { list: false, filter: false, show: false, edit: true };

/** The audience in words, on an item's page. */
export const audienceShown: Record<string, PropertyOptions> = {
  audience: { type: 'string', isVisible: { list: false, filter: false, show: true, edit: false }, description: 'Who the item is for' },
};

export const audienceFormFields: Fields = { audience_grades: 'list', audience_groups: 'list', audience_students: 'list' };

export const audiencePropertyNames = Object.keys(audienceProperties);

/**
 * Adds the pickers' values to rows read for the console (one query for the audiences, one for the
 * grades' ids) and, on an item's page, the audience in words: "Grades 1, 5; Bus 4; Asha Rao".
 */
export function audienceEnricher(entity: AudienceEntity): Enricher {
  return async (rows, _admin, detail) => {
    const bySchool = new Map<string, Array<Record<string, unknown>>>();
    for (const row of rows) {
      if (Number(row.audience_scope) === 1) bySchool.set(String(row.school_id), [...(bySchool.get(String(row.school_id)) ?? []), row]);
      else if (detail) row.audience = 'The whole school';
    }
    for (const [schoolId, items] of bySchool) {
      const audiences = await audiencesOf(schoolId, entity, items.map((r) => Number(r.id)));
      const names = [...new Set([...audiences.values()].flatMap((a) => a.grades))];
      const gradeIds = new Map(
        names.length ? (await Grade.findAll({ where: { school_id: schoolId, name: { [Op.in]: names } }, attributes: ['id', 'name'], raw: true })).map((g) => [g.name, g.id]) : [],
      );
      const words = detail ? await audienceWords(schoolId, [...audiences.values()]) : null;
      for (const row of items) {
        const a = audiences.get(Number(row.id));
        if (!a) continue;
        row.audience_grades = a.grades.map((g) => gradeIds.get(g)).filter((g) => g !== undefined);
        row.audience_groups = a.group_ids;
        row.audience_students = a.student_ids;
        if (words) row.audience = words(a);
      }
    }
  };
}

/** The groups' and students' names of the audiences (one query each), and the function that words an audience with them. */
async function audienceWords(schoolId: string, audiences: Array<{ grades: string[]; group_ids: number[]; student_ids: number[] }>) {
  const groupIds = [...new Set(audiences.flatMap((a) => a.group_ids))];
  const studentIds = [...new Set(audiences.flatMap((a) => a.student_ids))];
  const groups = new Map(groupIds.length ? (await Group.findAll({ where: { school_id: schoolId, id: { [Op.in]: groupIds } }, attributes: ['id', 'name'], raw: true })).map((g) => [g.id, g.name]) : []);
  const students = new Map(
    studentIds.length ? (await Student.findAll({ where: { school_id: schoolId, id: { [Op.in]: studentIds } }, attributes: ['id', 'student_full_name'], raw: true })).map((s) => [s.id, s.student_full_name]) : [],
  );
  return (a: { grades: string[]; group_ids: number[]; student_ids: number[] }) => {
    const parts = [
      a.grades.length ? `${a.grades.length === 1 ? 'Grade' : 'Grades'} ${a.grades.join(', ')}` : '',
      a.group_ids.map((id) => groups.get(id) ?? `Group ${id}`).join(', '),
      a.student_ids.map((id) => students.get(id) ?? `Student ${id}`).join(', '),
    ].filter(Boolean);
    return parts.length ? parts.join('; ') : 'Nobody yet';
  };
}

/**
 * The service's `audience` from the form's pickers: present when any picker was submitted (then
 * the three together are the new audience), with grade records turned into their names.
 */
export async function audienceFromForm(principal: Principal, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const { audience_grades: grades, audience_groups: groups, audience_students: students, ...rest } = input as Record<string, string[] | undefined>;
  if (grades === undefined && groups === undefined && students === undefined) return rest;
  const gradeIds = (grades ?? []).map(Number);
  const known = gradeIds.length
    ? new Map((await Grade.findAll({ where: { school_id: principal.schoolId, id: { [Op.in]: gradeIds.filter(Number.isSafeInteger) } }, attributes: ['id', 'name'], raw: true })).map((g) => [g.id, g.name]))
    : new Map<number, string>();
  const unknown = gradeIds.find((g) => !known.has(g));
  if (unknown !== undefined) throw fieldError('audience_grades', `${grades![gradeIds.indexOf(unknown)]} is not a grade of the school`);
  return { ...rest, audience: { grades: gradeIds.map((g) => known.get(g)!), group_ids: (groups ?? []).map(Number), student_ids: (students ?? []).map(Number) } };
}

const pickerOf: Record<string, string> = { 'audience.grades': 'audience_grades', 'audience.group_ids': 'audience_groups', 'audience.student_ids': 'audience_students' };

/** A service's create or update with the form's pickers as `audience`; its audience errors are shown on the pickers. */
export function withAudience<A extends unknown[], T>(principalAt: number, save: (...args: A) => Promise<T>) {
  return async (...args: A): Promise<T> => {
    const last = args.length - 1;
    args[last] = await audienceFromForm(args[principalAt] as Principal, args[last] as Record<string, unknown>);
    try {
      return await save(...args);
    } catch (err) {
      if (err instanceof AppError && Array.isArray(err.details)) for (const d of err.details as Array<{ field?: string }>) if (d.field) d.field = pickerOf[d.field] ?? d.field;
      throw err;
    }
  };
}
