import { z } from 'zod';
import { schoolIdField } from '../../../services/schemas.js';
import { operatorPrincipal } from '../../../services/access/guards.js';
import { addMembersByRollNo } from '../../../services/groups/groups.js';
import type { Action } from '../../runtime.js';
import { assertSchool } from '../../lookups.js';

export interface GroupAddMembersFlags {
  school?: string;
  group?: string;
  rollNos?: string;
}

export const action: Action<GroupAddMembersFlags> = async (cli, flags) => {
  const schoolId = await cli.need(flags.school, { flag: '--school', message: 'School id', schema: schoolIdField() });
  const name = await cli.need(flags.group, { flag: '--group', message: 'Group name', schema: z.string().trim().min(1).max(120) });
  const rollNos = await cli.need(flags.rollNos, {
    flag: '--roll-nos', message: 'Roll numbers, comma-separated',
    schema: z.string().transform((v) => v.split(',').map((r) => r.trim()).filter(Boolean)).pipe(z.array(z.string().max(32)).min(1, 'name at least one roll number')),
  });
  const ctx = await cli.context();
  await assertSchool(schoolId);
  const result = await addMembersByRollNo(ctx, operatorPrincipal(schoolId), name, rollNos);
  return {
    data: result,
    lines: [`${result.created ? 'Created the group' : 'Group'} "${name}" (#${result.group_id}): ${result.added} student(s) added, ${result.member_count} in all.`],
  };
};
