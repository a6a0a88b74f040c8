import { schoolIdField } from '../../../services/schemas.js';
import { operatorPrincipal } from '../../../services/access/guards.js';
import { listWebhooks } from '../../../services/webhooks/webhooks.js';
import { assertSchool } from '../../lookups.js';
import { table, type Action } from '../../runtime.js';

export interface WebhookListFlags {
  school?: string;
}

export const action: Action<WebhookListFlags> = async (cli, flags) => {
  const schoolId = await cli.need(flags.school, { flag: '--school', message: 'School id', schema: schoolIdField() });
  await cli.context();
  await assertSchool(schoolId);
  const webhooks = await listWebhooks(operatorPrincipal(schoolId));
  const rows = webhooks.map((w) => ({ ...w, events: w.events.join(','), active: w.active ? 'on' : `off: ${w.disabled_reason ?? ''}` }));
  return {
    data: webhooks,
    lines: rows.length ? table(rows, ['id', 'url', 'events', 'active', 'created_at']) : [`No webhooks for ${schoolId}.`],
  };
};
