import type { Action, ActionResponse } from 'adminjs';
import type { AppContext } from '../../context.js';
import { eraseStudentFor } from '../../services/privacy/erasure.js';
import { exportStudent } from '../../services/privacy/export.js';
import { allows, roleAccess } from '../access.js';
import { recordPrincipal, run } from '../actions.js';
import type { ConsoleAdmin } from '../auth.js';

const superAdmin = ({ currentAdmin }: { currentAdmin?: unknown }) => allows(roleAccess.privacy, currentAdmin as ConsoleAdmin | undefined, 'write');

/**
 * The Student page's Export data (the DataExport component downloads the same document as the
 * API's export) and Erase, which asks for the roll number before it does anything.
 */
export function privacyActions(ctx: AppContext): Record<string, Partial<Action<ActionResponse>>> {
  return {
    exportData: {
      actionType: 'record', icon: 'Download', component: 'DataExport', isAccessible: superAdmin,
      handler: run(async (_request, context, admin) => {
        const record = context.record!;
        return { record: record.toJSON(context.currentAdmin), export: await exportStudent(recordPrincipal(admin, record), Number(record.id())) };
      }),
    },
    erase: {
      actionType: 'record', icon: 'Trash2', variant: 'danger', component: 'EraseStudent', isAccessible: superAdmin,
      isVisible: (context) => superAdmin(context) && (!context.record || context.record.params.status === 'archived'),
      handler: run(async (request, context, admin) => {
        const record = context.record!;
        if (request.method !== 'post') return { record: record.toJSON(context.currentAdmin) };
        const { erased } = await eraseStudentFor(ctx, recordPrincipal(admin, record), Number(record.id()), { confirm: String(request.payload?.confirm ?? '') });
        const fresh = (await context.resource.findOne(record.id() as never, context)) ?? record;
        return {
          record: fresh.toJSON(context.currentAdmin),
          redirectUrl: context.h.recordActionUrl({ resourceId: context.resource.id(), recordId: String(record.id()), actionName: 'show' }),
          notice: { message: `Erased: ${erased.students} student, ${erased.parents} parent, ${erased.comments} comment(s), ${erased.addresses} address(es), ${erased.attachments} attachment(s)`, type: 'success' },
        };
      }),
    },
  };
}
