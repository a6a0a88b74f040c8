import type { BaseRecord, ResourceWithOptions } from 'adminjs';
import type { AppContext, Principal } from '../../context.js';
import { Staff } from '../../models/index.js';
import { createStaff, resetStaffPin, staffPermissions, updateStaff } from '../../services/staff/staff.js';
import { roleAccess } from '../access.js';
import { recordAction } from '../record-actions.js';
import { principalFor } from '../auth.js';
import { featureLabels, permissionLevelLabels, staffStatusLabels } from '../labels/codes.js';
import { labelOf } from '../labels/words.js';
import type { Enricher } from '../scoped-resource.js';
import { defineResource } from './define.js';
import { importAction } from './import-action.js';
import { menu } from '../labels/menu.js';
import { pinResetAction } from './pin-reset-action.js';
import { status } from './properties.js';
import { rbacProperties } from './rbac-fields.js';
import { testPushAction } from './test-push-action.js';

export function staffResource(ctx: AppContext): ResourceWithOptions {
  const access = roleAccess.school;
  /** On a staff member's page, what they may do: each feature's level in words and where it comes from ("Create, from Office Staff", "Manage, own"). */
  const permissions: Enricher = async (rows, admin, detail) => {
    if (!detail) return;
    for (const row of rows) {
      const sources = await staffPermissions(ctx, principalFor(admin, String(row.school_id)), Number(row.id));
      row.permissions = sources.map((s) => ({
        feature: labelOf(featureLabels, s.feature),
        level: `${labelOf(permissionLevelLabels, s.level)}${s.from === 'own' ? ', own' : s.from === 'designation' ? `, from ${s.designation}` : ''}`,
      }));
    }
  };
  return defineResource(ctx, {
    model: Staff, scope: { schoolColumn: 'school_id', secret: ['pin_hash'], quickSearch: ['name', 'phone_no', 'email'], enrich: [permissions] }, access,
    options: {
      navigation: menu.staff,
      sort: { sortBy: 'name', direction: 'asc' },
      listProperties: ['name', 'designation', 'phone_no', 'email', 'status'],
      filterProperties: ['name', 'designation', 'phone_no', 'email', 'status'],
      showProperties: ['school_id', 'id', 'name', 'designation', 'phone_no', 'email', 'status', 'permissions', 'created_at', 'updated_at'],
      editProperties: ['school_id', 'name', 'designation', 'phone_no', 'email', 'rbac'],
      properties: {
        name: { isTitle: true },
        designation: {
          components: { edit: 'NamePicker', filter: 'NamePicker' }, custom: { pick: { resource: 'designations', none: 'No designation' } },
          description: "One of the school's designations: its permissions are the staff member's base",
        },
        status: { type: 'number', ...status([1, 0], staffStatusLabels, { 1: 'green', 0: 'grey' }), isVisible: { list: true, filter: true, show: true, edit: false } },
        permissions: { type: 'mixed', components: { show: 'EffectivePermissions' }, isVisible: { list: false, filter: false, show: true, edit: false } },
        ...rbacProperties("Over the designation's: a feature left as the designation's keeps its level", "As the designation's"),
      },
    },
    services: {
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
      resetPin: pinResetAction(access, {
        owner: (r) => String(r.params.name),
        intro: 'Set a new PIN for this staff member. They are signed out of every device at once and sign in again with the new PIN.',
        reset: (p, r, pin) => resetStaffPin(ctx, p, Number(r.id()), pin),
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
