import type { AppContext } from '../../context.js';
import type { FormItemType } from '../../models/form.js';
import { audienceChildren, type AudienceChild } from '../audiences/audiences.js';
import { FORM_COLUMNS, formOf, type FormRow, type StoredForm } from './forms.js';

export interface MissingStudent {
  student_id: number;
  student_full_name: string;
  grade: string;
  parent_id: number;
}

export interface MissingFamily {
  parent_id: number;
  father_name: string | null;
  students: Array<{ id: number; student_full_name: string; grade: string }>;
}

const byName = <T>(name: (x: T) => string | null, id: (x: T) => number) => (a: T, b: T) => (name(a) ?? '').localeCompare(name(b) ?? '') || id(a) - id(b);

/**
 * Who has not answered yet: on a per-student form each student of the item's audience (not
 * archived, with a parent) without a response; on a per-family form each family of the audience
 * without one, with its children in the audience. By name, then id.
 */
export async function missingOf(ctx: AppContext, form: StoredForm, scope: number): Promise<{ students: MissingStudent[] } | { families: MissingFamily[] }> {
  const children = await audienceChildren(ctx, form.school_id, form.entity_type, form.entity_id, scope);
  const answered = await ctx.db.select<{ student_id: number | null; parent_id: number }>(
    'SELECT student_id, parent_id FROM form_responses WHERE school_id = :school AND form_id = :form', { school: form.school_id, form: form.id },
  );
  if (form.per_student) {
    const done = new Set(answered.map((r) => Number(r.student_id)));
    return {
      students: children.filter((c) => !done.has(c.id)).map((c) => ({ student_id: c.id, student_full_name: c.student_full_name, grade: c.grade, parent_id: c.parent_id }))
        .sort(byName((s) => s.student_full_name, (s) => s.student_id)),
    };
  }
  const done = new Set(answered.map((r) => Number(r.parent_id)));
  const waiting = new Map<number, AudienceChild[]>();
  for (const c of children) if (!done.has(c.parent_id)) waiting.set(c.parent_id, [...(waiting.get(c.parent_id) ?? []), c]);
  const names = waiting.size
    ? new Map((await ctx.db.select<{ id: number; father_name: string | null }>('SELECT id, father_name FROM parents WHERE school_id = :school AND id IN (:ids)', {
      school: form.school_id, ids: [...waiting.keys()],
    })).map((p) => [Number(p.id), p.father_name ?? null]))
    : new Map<number, string | null>();
  return {
    families: [...waiting].map(([parentId, kids]) => ({
      parent_id: parentId, father_name: names.get(parentId) ?? null, students: kids.map((c) => ({ id: c.id, student_full_name: c.student_full_name, grade: c.grade })),
    })).sort(byName((f) => f.father_name, (f) => f.parent_id)),
  };
}

/** The families a reminder of a form's item goes to: those with a missing response (per student, a family with a child missing). */
export function familiesMissing(missing: { students: MissingStudent[] } | { families: MissingFamily[] }): number[] {
  return 'students' in missing ? [...new Set(missing.students.map((s) => s.parent_id))] : missing.families.map((f) => f.parent_id);
}

/**
 * Which families a reminder of an item reaches when the item has a form: those still missing a
 * response, whether they read it or not; null when it has no form (the reminder then goes to the
 * unread). How each family is reached is the reminder's own business.
 */
export async function reminderFamilies(ctx: AppContext, schoolId: string, entity: FormItemType, itemId: number, scope: number): Promise<number[] | null> {
  const [row] = await ctx.db.select<FormRow>(`SELECT ${FORM_COLUMNS} FROM forms f WHERE f.school_id = :school AND f.entity_type = :entity AND f.entity_id = :id`, {
    school: schoolId, entity, id: itemId,
  });
  return row ? familiesMissing(await missingOf(ctx, formOf(row), scope)) : null;
}
