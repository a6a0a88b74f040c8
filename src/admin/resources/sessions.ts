import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { badRequest } from '../../errors.js';
import { Session } from '../../models/index.js';
import { mayEndSession, revokeSessionById } from '../../services/auth/sessions.js';
import { roleAccess } from '../access.js';
import { recordAction } from '../record-actions.js';
import { principalFor } from '../auth.js';
import { defineResource } from './define.js';
import { menu } from '../labels/menu.js';
import { accountTypeLabels } from '../labels/codes.js';
import { linkedNames } from './linked-names.js';
import { coded, named } from './properties.js';
import { testPushAction } from './test-push-action.js';

export function sessionsResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: Session, scope: { schoolColumn: 'school_id', secret: ['token_hash', 'fcm_token'], enrich: [linkedNames('account', (r) => ({ kind: String(r.user_type), id: r.user_id }))] }, access: roleAccess.devices,
    options: {
      navigation: menu.access,
      sort: { sortBy: 'last_seen_at', direction: 'desc' },
      listProperties: ['account', 'user_type', 'device_name', 'ip', 'last_seen_at', 'active'],
      filterProperties: ['user_type', 'user_id', 'device_name', 'active', 'last_seen_at', 'expires_at'],
      showProperties: ['school_id', 'id', 'account', 'user_type', 'user_id', 'device_id', 'device_name', 'user_agent', 'ip', 'created_at', 'last_seen_at', 'expires_at', 'active', 'revoked_at'],
      properties: {
        account: named(),
        user_type: coded(['parent', 'staff', 'admin'], accountTypeLabels),
      },
    },
    services: {},
    extraActions: {
      revoke: recordAction(roleAccess.devices, {
        icon: 'LogOut', variant: 'danger', allowed: () => true, appliesTo: (r) => r.params.active === true || Number(r.params.active) === 1,
        offeredTo: (admin, r) => mayEndSession(principalFor(admin, r.params.school_id), { user_type: r.params.user_type, user_id: r.params.user_id }),
        guard: 'End this session? The device is signed out on its next request.',
        perform: async (p, r) => {
          await revokeSessionById(ctx, p, Number(r.id()));
          return { message: 'Session ended' };
        },
      }),
      testPush: testPushAction(ctx, roleAccess.devices, async (r, p) => {
        // The device's push token stays on the server: read here, for the school of the session, and never sent to the browser.
        const row = await Session.findOne({ where: { id: Number(r.id()), school_id: p.schoolId }, attributes: ['fcm_token'], raw: true });
        if (!row?.fcm_token) throw badRequest('This session has no push token: the device never registered one, or it was cleared');
        return { fcm_token: row.fcm_token };
      }),
    },
  });
}
