import type { Transaction } from 'sequelize';
import { Designation, Grade } from '../src/models/index.js';
import type { Rbac } from '../src/services/access/rbac.js';

export const defaultGrades = ['Nursery', 'LKG', 'UKG', ...Array.from({ length: 12 }, (_, i) => String(i + 1))];

export const defaultDesignations: Array<{ name: string; rbac: Rbac }> = [
  {
    name: 'Principal',
    rbac: { activities: 'manage', noticeboard: 'manage', students: 'manage', write_to: 'manage', attendance: 'manage', diary: 'manage' },
  },
  {
    name: 'Class Teacher',
    rbac: { activities: 'create', noticeboard: 'view', students: 'view', write_to: 'create', attendance: 'manage', diary: 'create' },
  },
  {
    name: 'Subject Teacher',
    rbac: { activities: 'create', noticeboard: 'view', students: 'view', write_to: 'view', attendance: 'view', diary: 'create' },
  },
  {
    name: 'Office Staff',
    rbac: { activities: 'view', noticeboard: 'create', students: 'manage', write_to: 'manage', attendance: 'view', diary: 'view' },
  },
];

/**
 * The base data of a new school: its grades and designations. Safe to run again: existing rows,
 * matched by their unique (school_id, name), are left as they are.
 */
export async function seedSchoolBase(schoolId: string, transaction?: Transaction): Promise<void> {
  await Grade.bulkCreate(
    defaultGrades.map((name, i) => ({ school_id: schoolId, name, sort_order: i })),
    { ignoreDuplicates: true, transaction },
  );
  await Designation.bulkCreate(
    defaultDesignations.map((d) => ({ school_id: schoolId, name: d.name, rbac: d.rbac })),
    { ignoreDuplicates: true, transaction },
  );
}
