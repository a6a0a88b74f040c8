import { z } from 'zod';
import { schoolIdField } from '../../../services/schemas.js';
import { operatorPrincipal } from '../../../services/access/guards.js';
import { createWebhook, newWebhookInput, webhookEventChoices } from '../../../services/webhooks/webhooks.js';
import { assertSchool } from '../../lookups.js';
import type { Action } from '../../runtime.js';

export interface WebhookAddFlags {
  school?: string;
  url?: string;
  events?: string;
}

const eventList = z
  .string()
  .transform((v) => v.split(',').map((e) => e.trim()).filter(Boolean))
  .pipe(z.array(z.enum(webhookEventChoices, { error: `each must be one of ${webhookEventChoices.join(', ')}` })).min(1, 'name at least one event'));

export const action: Action<WebhookAddFlags> = async (cli, flags) => {
  const schoolId = await cli.need(flags.school, { flag: '--school', message: 'School id', schema: schoolIdField() });
  const url = await cli.need(flags.url, { flag: '--url', message: 'URL to POST events to', schema: newWebhookInput.shape.url });
  const events = await cli.need(flags.events, { flag: '--events', message: 'Events, comma-separated (* for every event)', schema: eventList });
  const ctx = await cli.context();
  await assertSchool(schoolId);
  const webhook = await createWebhook(ctx, operatorPrincipal(schoolId), { url, events });
  return {
    data: webhook,
    lines: [
      `Webhook #${webhook.id} added for ${schoolId}: ${webhook.url} (${webhook.events.join(', ')}).`,
      `Signing secret (shown this once): ${webhook.secret}`,
    ],
  };
};
