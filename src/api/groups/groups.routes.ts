import { z } from 'zod';
import {
  addGroupMembers, assertGroupFound, createGroup, deleteGroup, getGroup, groupChangesInput, groupMembersInput, listGroups, newGroupInput, removeGroupMembers, updateGroup,
} from '../../services/groups/groups.js';
import type { Routers } from '../routers.js';
import { idParam } from '../../services/schemas.js';

const groupView = z.object({ id: z.number(), name: z.string(), description: z.string().nullable(), member_count: z.number() });
const groupDetail = groupView.extend({
  members: z.array(z.object({ id: z.number(), student_full_name: z.string(), roll_no: z.string(), grade: z.string() })),
});
const example = { id: 4, name: 'Bus route 7', description: 'Morning and evening, via Lake Road', member_count: 32 };

export function registerGroupRoutes(r: Routers): void {
  const web = r.web;
  web.route(
    {
      method: 'get', path: '/groups', summary: "The school's groups (super_admin, admin)",
      description: 'Named sets of students (a section, a team, a bus route) that activities and notices can be addressed to; ordered by name.',
      response: z.array(groupView), responseExample: { data: [example] },
    },
    async ({ principal }) => ({ data: await listGroups(principal) }),
  );
  web.route(
    {
      method: 'post', path: '/groups', status: 201, summary: 'Create a group (super_admin, admin)',
      description: 'The name is unique in the school regardless of case (409). `student_ids` must be students of the school (404 otherwise, nothing created).',
      body: newGroupInput, response: z.object({ id: z.number() }), errors: [404, 409],
      example: { name: 'Bus route 7', description: 'Morning and evening, via Lake Road', student_ids: [12, 15] },
      responseExample: { message: 'Group created', data: { id: 4 } },
    },
    async ({ ctx, principal, body }) => ({ message: 'Group created', data: await createGroup(ctx, principal, body) }),
  );
  web.route(
    {
      method: 'get', path: '/groups/:id', params: idParam, summary: 'A group with its members (super_admin, admin)',
      description: "Another school's or a deleted group: 404.", response: groupDetail, errors: [404],
      responseExample: { data: { ...example, member_count: 1, members: [{ id: 12, student_full_name: 'Asha Rao', roll_no: '1001', grade: '5' }] } },
    },
    async ({ principal, params }) => ({ data: await getGroup(principal, params.id) }),
  );
  web.route(
    {
      method: 'put', path: '/groups/:id', params: idParam, summary: 'Rename a group or change its description (super_admin, admin)',
      found: ({ principal, params }) => assertGroupFound(principal, params.id),
      description: 'A name another group has: 409.', body: groupChangesInput, response: groupView, errors: [404, 409],
      example: { name: 'Bus route 7 (morning)' }, responseExample: { message: 'Group updated', data: example },
    },
    async ({ ctx, principal, params, body }) => ({ message: 'Group updated', data: await updateGroup(ctx, principal, params.id, body) }),
  );
  web.route(
    {
      method: 'delete', path: '/groups/:id', params: idParam, summary: 'Delete a group (super_admin, admin)',
      description: 'A soft delete: the group leaves every list and can no longer be named in an audience; posts already addressed to it stay as they were.',
      errors: [404], responseExample: { message: 'Group deleted' },
    },
    async ({ ctx, principal, params }) => {
      await deleteGroup(ctx, principal, params.id);
      return { message: 'Group deleted' };
    },
  );
  web.route(
    {
      method: 'post', path: '/groups/:id/members', params: idParam, summary: 'Add students to a group (super_admin, admin)',
      found: ({ principal, params }) => assertGroupFound(principal, params.id),
      description: 'Students already in it stay; an id that is not a student of the school fails the whole request with 404.',
      body: groupMembersInput, response: groupView, errors: [404], example: { student_ids: [12, 15] },
      responseExample: { message: 'Members added', data: example },
    },
    async ({ ctx, principal, params, body }) => ({ message: 'Members added', data: await addGroupMembers(ctx, principal, params.id, body) }),
  );
  web.route(
    {
      method: 'post', path: '/groups/:id/members/remove', params: idParam, summary: 'Take students out of a group (super_admin, admin)',
      found: ({ principal, params }) => assertGroupFound(principal, params.id),
      description: 'A student not in the group is no error.', body: groupMembersInput, response: groupView, errors: [404], example: { student_ids: [15] },
      responseExample: { message: 'Members removed', data: example },
    },
    async ({ ctx, principal, params, body }) => ({ message: 'Members removed', data: await removeGroupMembers(ctx, principal, params.id, body) }),
  );
  r.teachers.route(
    {
      method: 'get', path: '/groups', summary: "The school's groups, to address a post to",
      description: 'Any staff member: the groups an activity or a notice can be addressed to, ordered by name.',
      response: z.array(groupView), responseExample: { data: [example] },
    },
    async ({ principal }) => ({ data: await listGroups(principal) }),
  );
}
