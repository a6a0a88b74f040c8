import type { BaseRecord } from 'adminjs';
import type { AppContext, Principal } from '../../context.js';
import { sendTestPush, type TestPushInput } from '../../services/diagnostics/diagnostics.js';
import { diagnosticsRoles, type RoleAccess } from '../access.js';
import { recordAction } from '../record-actions.js';

/**
 * Send test push (diagnostics: super_admin and it_contact) on a parent, a staff member or a session:
 * at once, to the record's devices, with the results as the notice.
 */
export function testPushAction(ctx: AppContext, access: RoleAccess, target: (record: BaseRecord, principal: Principal) => TestPushInput | Promise<TestPushInput>) {
  return recordAction(access, {
    icon: 'Bell', allowed: (admin) => diagnosticsRoles.includes(admin.role),
    perform: async (p, r) => {
      const { sent, failed, results } = await sendTestPush(ctx, p, await target(r, p));
      const detail = results.map((x) => `${x.target}: ${x.ok ? 'sent' : `failed (${x.error ?? 'unknown'})`}`).join('; ');
      return { message: `Test push: ${sent} sent, ${failed} failed. ${detail}`, type: failed > 0 ? 'error' : 'success' };
    },
  });
}
