import type { Action, ActionResponse } from 'adminjs';
import type { AppContext } from '../../context.js';
import { conflict } from '../../errors.js';
import { closeForm, formResults, formResultsCsv } from '../../services/forms/results.js';
import { allows, roleAccess } from '../access.js';
import { recordPrincipal, run } from '../actions.js';
import type { ConsoleAdmin } from '../auth.js';

/**
 * Forms on an activity or a notice that has one (the FormResults page): its responses and who is
 * missing, the CSV download and Close, through the same services as /web-app/forms/:id.
 */
export function formActions(ctx: AppContext): Record<string, Partial<Action<ActionResponse>>> {
  const permitted = ({ currentAdmin }: { currentAdmin?: unknown }) => allows(roleAccess.school, currentAdmin as ConsoleAdmin | undefined, 'write');
  return {
    forms: {
      actionType: 'record',
      icon: 'ClipboardList',
      component: 'FormResults',
      isAccessible: permitted,
      isVisible: (context) => permitted(context) && (!context.record || context.record.params.form_id != null),
      handler: run(async (request, context, admin) => {
        const record = context.record!;
        const formId = Number(record.params.form_id);
        if (!formId) throw conflict('This item has no form');
        const principal = recordPrincipal(admin, record);
        const answer = { record: record.toJSON(context.currentAdmin) };
        if ((request.query as Record<string, string> | undefined)?.format === 'csv') return { ...answer, csv: await formResultsCsv(ctx, principal, formId) };
        let notice;
        if (request.method === 'post' && request.payload?.close) {
          await closeForm(ctx, principal, formId);
          notice = { message: 'The form is closed: families can no longer answer or change their answers', type: 'success' as const };
        }
        return { ...answer, results: await formResults(ctx, principal, formId), ...(notice ? { notice } : {}) };
      }),
    },
  };
}
