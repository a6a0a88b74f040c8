import { Designation } from '../../models/index.js';
import type { Rbac } from '../access/rbac.js';

/** The rbac of the designation a staff member holds, by name within the school; null when none matches. */
export async function designationRbac(schoolId: string, name: string | null): Promise<Rbac | null> {
  if (!name) return null;
  const row = await Designation.findOne({ where: { school_id: schoolId, name } });
  return row?.rbac ?? null;
}
