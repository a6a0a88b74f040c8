import type { ResourceWithOptions } from 'adminjs';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { GroupMember } from '../../models/index.js';
import { addGroupMembers, removeMember } from '../../services/groups/groups.js';
import { id } from '../../services/schemas.js';
import { parseInput } from '../../services/validation.js';
import { roleAccess } from '../access.js';
import { defineResource } from './define.js';
import { menu } from '../labels/menu.js';
import { ref } from './properties.js';

export function groupMembersResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: GroupMember, scope: { schoolColumn: 'school_id' }, access: roleAccess.school,
    options: {
      navigation: menu.people,
      sort: { sortBy: 'id', direction: 'desc' },
      listProperties: ['group_id', 'student_id', 'created_at'],
      filterProperties: ['group_id', 'student_id', 'created_at'],
      showProperties: ['school_id', 'id', 'group_id', 'student_id', 'created_at'],
      editProperties: ['group_id', 'student_id'],
      properties: { group_id: ref('student_groups', { isRequired: true }), student_id: ref('students', { isRequired: true }) },
    },
    services: {
      fields: { group_id: 'reference', student_id: 'reference' },
      create: async (c, p, input) => {
        const { group_id: groupId, student_id: studentId } = parseInput(z.object({ group_id: id(), student_id: id() }), input);
        await addGroupMembers(c, p, groupId, { student_ids: [studentId] });
        return { id: (await GroupMember.findOne({ where: { school_id: p.schoolId, group_id: groupId, student_id: studentId }, attributes: ['id'], raw: true }))!.id };
      },
      remove: (c, p, i) => removeMember(c, p, i),
    },
  });
}
