import { id, schoolIdField } from '../../../services/schemas.js';
import { operatorPrincipal } from '../../../services/access/guards.js';
import { deleteWebhook } from '../../../services/webhooks/webhooks.js';
import { assertSchool } from '../../lookups.js';
import type { Action } from '../../runtime.js';

export interface WebhookRemoveFlags {
  school?: string;
  id?: string;
}

export const action: Action<WebhookRemoveFlags> = async (cli, flags) => {
  const schoolId = await cli.need(flags.school, { flag: '--school', message: 'School id', schema: schoolIdField() });
  const webhookId = await cli.need(flags.id, { flag: '--id', message: 'Webhook id', schema: id() });
  await cli.confirm(`Remove webhook #${webhookId} of ${schoolId}?`);
  const ctx = await cli.context();
  await assertSchool(schoolId);
  await deleteWebhook(ctx, operatorPrincipal(schoolId), webhookId);
  return { data: { school_id: schoolId, id: webhookId, removed: true }, lines: [`Webhook #${webhookId} of ${schoolId} removed.`] };
};
