import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { Parent } from '../../models/index.js';
import { roleAccess } from '../access.js';
import { defineResource } from './define.js';
import { menu } from './menu.js';
import { testPushAction } from './test-push-action.js';

export function parentsResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: Parent, scope: { schoolColumn: 'school_id', secret: ['pin_hash', 'pin_setup_token_hash'] }, access: roleAccess.school,
    options: {
      navigation: menu.people,
      sort: { sortBy: 'father_name', direction: 'asc' },
      listProperties: ['id', 'father_name', 'mother_name', 'phone_no', 'email'],
      filterProperties: ['father_name', 'mother_name', 'phone_no', 'email', 'created_at'],
      showProperties: ['school_id', 'id', 'father_name', 'mother_name', 'phone_no', 'email', 'pin_setup_expires_at', 'created_at', 'updated_at'],
      properties: { father_name: { isTitle: true } },
    },
    services: { noun: 'Parent' },
    extraActions: { testPush: testPushAction(ctx, roleAccess.school, (r) => ({ parent_id: Number(r.id()) })) },
  });
}
