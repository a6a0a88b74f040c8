import type { BaseRecord, ResourceWithOptions } from 'adminjs';
import type { AppContext, Principal } from '../../context.js';
import { Staff } from '../../models/index.js';
import { createStaff, resetStaffPin, updateStaff } from '../../services/staff/staff.js';
import { roleAccess } from '../access.js';
import { recordAction } from '../actions.js';
import { defineResource } from './define.js';
import { importAction } from './import-action.js';
import { menu } from './menu.js';
import { newPin } from './pins.js';
import { choices } from './properties.js';
import { rbacProperties } from './rbac-fields.js';
import { testPushAction } from './test-push-action.js';

export function staffResource(ctx: AppContext): ResourceWithOptions {
  const access = roleAccess.school;
  return defineResource(ctx, {
    model: Staff, scope: { schoolColumn: 'school_id', secret: ['pin_hash'] }, access,
    options: {
      navigation: menu.staff,
      sort: { sortBy: 'name', direction: 'asc' },
      listProperties: ['id', 'name', 'designation', 'phone_no', 'email', 'status'],
      filterProperties: ['name', 'designation', 'phone_no', 'email', 'status'],
      showProperties: ['school_id', 'id', 'name', 'designation', 'phone_no', 'email', 'status', 'rbac', 'created_at', 'updated_at'],
      editProperties: ['school_id', 'name', 'designation', 'phone_no', 'email', 'rbac'],
      properties: {
        name: { isTitle: true },
        status: { type: 'number', availableValues: choices([1, 0], { 1: 'active', 0: 'archived' }), isVisible: { list: true, filter: true, show: true, edit: false } },
        ...rbacProperties('Own permissions (over the designation)'),
      },
    },
    services: {
      noun: 'Staff member',
      fields: { name: 'text', designation: 'nullableText', phone_no: 'text', email: 'nullableText', rbac: 'object' },
      create: (c, p, input) => createStaff(c, p, input as never),
      update: (c, p, i, changes) => updateStaff(c, p, i, changes as never),
    },
    extraActions: {
      import: importAction(ctx, ['staff']),
      archive: recordAction(access, {
        icon: 'Archive', variant: 'danger', allowed: () => true, appliesTo: (r) => Number(r.params.status) === 1,
        guard: 'Archive this staff member? They are signed out of every device at once and cannot sign in until restored.',
        perform: (p, r) => setStaffStatus(ctx, p, r, 'archived'),
      }),
      restore: recordAction(access, {
        icon: 'RotateCcw', allowed: () => true, appliesTo: (r) => Number(r.params.status) === 0,
        perform: (p, r) => setStaffStatus(ctx, p, r, 'active'),
      }),
      resetPin: recordAction(access, {
        icon: 'Key', variant: 'danger', allowed: () => true,
        guard: 'Set a new PIN for this staff member? They are signed out of every device.',
        perform: async (p, r) => {
          const pin = newPin();
          await resetStaffPin(ctx, p, Number(r.id()), pin);
          return { message: `New PIN for ${r.params.name}: ${pin}. Give it to them now; it is not shown again.`, type: 'info' };
        },
      }),
      testPush: testPushAction(ctx, access, (r) => ({ staff_id: Number(r.id()) })),
    },
  });
}

/**
 * Archive and Restore each name the state they want, so a double click or two admins at once cannot
 * flip it back: the service's status change is idempotent and, like its archive toggle, ends every
 * session of the staff member when it archives.
 */
async function setStaffStatus(ctx: AppContext, principal: Principal, record: BaseRecord, status: 'active' | 'archived') {
  await updateStaff(ctx, principal, Number(record.id()), { status });
  return { message: status === 'archived' ? `${record.params.name} archived; every session ended` : `${record.params.name} restored` };
}
