import type { Action, ActionResponse } from 'adminjs';
import type { AppContext } from '../../context.js';
import type { AudienceEntity } from '../../services/audiences/audiences.js';
import { itemReach, reminderMessage, remindUnread } from '../../services/audiences/reach.js';
import { allows, roleAccess } from '../access.js';
import { recordPrincipal, run } from '../actions.js';
import { recordAction } from '../record-actions.js';
import type { ConsoleAdmin } from '../auth.js';

/**
 * Reach (who an activity or a notice reaches, who read it, the unread families a page at a time, on
 * the ItemReach page) and Remind (one push to the unread families, at most one an hour), through the
 * same services as the API.
 */
export function reachActions(ctx: AppContext, entity: AudienceEntity): Record<string, Partial<Action<ActionResponse>>> {
  return {
    reach: {
      actionType: 'record',
      icon: 'Eye',
      component: 'ItemReach',
      isAccessible: ({ currentAdmin }) => allows(roleAccess.school, currentAdmin as ConsoleAdmin, 'read'),
      handler: run(async (request, context, admin) => {
        const record = context.record!;
        const page = Math.max(1, Number((request.query as Record<string, string> | undefined)?.page) || 1);
        const reach = await itemReach(ctx, recordPrincipal(admin, record), entity, Number(record.id()), { page, limit: 20 });
        return { record: record.toJSON(context.currentAdmin), reach };
      }),
    },
    remind: recordAction(roleAccess.school, {
      icon: 'Bell', allowed: () => true,
      appliesTo: (r) => entity === 'noticeboard' || r.params.status === 'published',
      guard: 'Push a reminder to every family that has not read it yet (with a form: every family still missing a response)? At most one an hour.',
      perform: async (p, r) => {
        const result = await remindUnread(ctx, p, entity, Number(r.id()));
        // A reminder that reached nobody is not a failure, but the office must notice it was not sent.
        return { message: reminderMessage(result), type: result.queued > 0 ? 'success' : 'info' };
      },
    }),
  };
}
