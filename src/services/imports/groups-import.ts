import type { Transaction } from 'sequelize';
import { addMemberships, ensureGroups } from '../groups/groups.js';
import { chunks } from '../batches.js';

/**
 * Puts imported students in their groups by name, making the groups that are new; memberships they
 * have stay. Answers the names of the groups it made.
 */
export async function applyGroups(schoolId: string, memberships: Array<{ studentId: number; groups: string[] }>, transaction?: Transaction): Promise<string[]> {
  const { ids, created } = await ensureGroups(schoolId, memberships.flatMap((m) => m.groups), transaction);
  const pairs = memberships.flatMap((m) => m.groups.map((g) => ({ group_id: ids.get(g)!, student_id: m.studentId })));
  for (const batch of chunks(pairs)) await addMemberships(schoolId, batch, transaction);
  return created;
}
