import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { Group } from '../../models/index.js';
import { addGroupMembers, createGroup, deleteGroup, getGroup, removeGroupMembers, updateGroup } from '../../services/groups/groups.js';
import { allows, roleAccess } from '../access.js';
import { recordPrincipal, run } from '../actions.js';
import { principalFor, type ConsoleAdmin } from '../auth.js';
import type { Enricher } from '../scoped-resource.js';
import { defineResource } from './define.js';
import { menu } from '../labels/menu.js';
import { deletedFlag, textarea } from './properties.js';

const live = (record: { params: Record<string, unknown> }) => Number(record.params.deleted_key ?? 0) === 0;

export function groupsResource(ctx: AppContext): ResourceWithOptions {
  /** On a group's page, its members as the group service reads them; a deleted group has none to show. */
  const members: Enricher = async (rows, admin, detail) => {
    if (!detail) return;
    for (const row of rows) {
      if (Number(row.deleted_key ?? 0) !== 0) continue;
      try {
        row.members = (await getGroup(principalFor(admin, String(row.school_id)), Number(row.id))).members;
      } catch (err) {
        if (!(err instanceof AppError && err.code === 'NOT_FOUND')) throw err;
      }
    }
  };
  const canChange = ({ currentAdmin, record }: { currentAdmin?: unknown; record?: { params: Record<string, unknown> } }) =>
    allows(roleAccess.school, currentAdmin as ConsoleAdmin, 'write') && (!record || live(record));
  return defineResource(ctx, {
    model: Group, scope: { schoolColumn: 'school_id', softDelete: 'deleted_key', enrich: [members] }, access: roleAccess.school,
    options: {
      navigation: menu.people,
      sort: { sortBy: 'name', direction: 'asc' },
      listProperties: ['name', 'description', 'created_at'],
      filterProperties: ['name', 'deleted_key', 'created_at'],
      showProperties: ['school_id', 'id', 'name', 'description', 'members', 'created_at', 'updated_at'],
      editProperties: ['name', 'description'],
      properties: {
        name: { isTitle: true },
        description: textarea,
        deleted_key: deletedFlag,
        members: { type: 'mixed', components: { show: 'GroupMemberList' }, isVisible: { list: false, filter: false, show: true, edit: false } },
      },
    },
    services: {
      fields: { name: 'text', description: 'nullableText' },
      create: (c, p, input) => createGroup(c, p, input as never),
      update: (c, p, i, changes) => updateGroup(c, p, i, changes as never),
      remove: (c, p, i) => deleteGroup(c, p, i),
    },
    extraActions: {
      addMembers: {
        actionType: 'record', icon: 'UserPlus', component: 'AddMembers', isAccessible: canChange, isVisible: canChange,
        handler: run(async (request, context, admin) => {
          const record = context.record!;
          if (request.method !== 'post') return { record: record.toJSON(context.currentAdmin) };
          const ids = String(request.payload?.student_ids ?? '').split(',').map((v) => v.trim()).filter(Boolean).map(Number);
          const group = await addGroupMembers(ctx, recordPrincipal(admin, record), Number(record.id()), { student_ids: ids });
          return { record: record.toJSON(context.currentAdmin), notice: { message: `Added to ${group.name}; it has ${group.member_count} member(s) now`, type: 'success' } };
        }),
      },
      // Remove on a member's row of the group's page: a form post, never a link to follow.
      removeMember: {
        actionType: 'record', icon: 'UserMinus', component: false, isAccessible: canChange, isVisible: false,
        handler: run(async (request, context, admin) => {
          const record = context.record!;
          if (request.method !== 'post') return { record: record.toJSON(context.currentAdmin) };
          const studentId = Number(request.payload?.student_id);
          await removeGroupMembers(ctx, recordPrincipal(admin, record), Number(record.id()), { student_ids: [studentId] });
          return { record: record.toJSON(context.currentAdmin), notice: { message: 'Taken out of the group', type: 'success' } };
        }),
      },
    },
  });
}
