import { z } from 'zod';
import { webhookDeliveryStatuses } from '../../models/webhook.js';
import { idParam, timestamp } from '../../services/schemas.js';
import {
  assertWebhookFound, createWebhook, deleteWebhook, deliveryListQuery, getWebhook, listDeliveries, listWebhooks, newWebhookInput, updateWebhook, webhookChangesInput,
  webhookEventChoices,
} from '../../services/webhooks/webhooks.js';
import type { Routers } from '../routers.js';

const webhookView = z.object({
  id: z.number(), url: z.string(), events: z.array(z.enum(webhookEventChoices)), active: z.boolean(),
  disabled_reason: z.string().nullable().describe('Why the webhook was switched off; null while it is on'),
  created_at: timestamp(), updated_at: timestamp(),
});
const deliveryView = z.object({
  id: z.number(), event_id: z.string().describe('The X-Webhook-Id of every try'), event: z.string(), status: z.enum(webhookDeliveryStatuses),
  attempts: z.number().describe('HTTP tries so far'), response_status: z.number().nullable(), last_error: z.string().nullable(),
  created_at: timestamp(), delivered_at: timestamp().nullable(),
});
const example = {
  id: 3, url: 'https://sis.example.org/hooks/school-platform', events: ['notice.published', 'admission.submitted'], active: true,
  disabled_reason: null, created_at: '2026-03-02T09:15:00.000Z', updated_at: '2026-03-02T09:15:00.000Z',
};
const secretNote = 'Every delivery is a POST of `{id, event, school_id, occurred_at, data}` signed with `X-Webhook-Signature: sha256=<hex HMAC-SHA256 of "<X-Webhook-Timestamp>.<body>">`.';

export function registerWebhookRoutes(r: Routers): void {
  const web = r.web;
  web.route(
    {
      method: 'get', path: '/webhooks', summary: "The school's webhooks (super_admin)",
      description: 'Oldest first. The secret is never shown again after creation.', response: z.array(webhookView), responseExample: { data: [example] },
    },
    async ({ principal }) => ({ data: await listWebhooks(principal) }),
  );
  web.route(
    {
      method: 'post', path: '/webhooks', status: 201, summary: 'Add a webhook (super_admin)',
      description:
        `Answers the signing \`secret\` (32 random bytes, base64url) this once. ${secretNote} The URL must be https under NODE_ENV=production, ` +
        'and its host must resolve only to public addresses (400 otherwise) unless WEBHOOK_ALLOW_PRIVATE=true. `events` defaults to `["*"]`.',
      body: newWebhookInput, response: webhookView.extend({ secret: z.string().describe('Shown once: keep it where the receiver can read it') }),
      example: { url: 'https://sis.example.org/hooks/school-platform', events: ['notice.published', 'admission.submitted'] },
      responseExample: { message: 'Webhook created', data: { ...example, secret: 'q3Zc8k1xN0m9Yv2Lr5Tt7Wb4Hj6Pd8Sa0Gf2Ke4Ui6Oo' } },
    },
    async ({ ctx, principal, body }) => ({ message: 'Webhook created', data: await createWebhook(ctx, principal, body) }),
  );
  web.route(
    {
      method: 'get', path: '/webhooks/:id', params: idParam, summary: 'A webhook (super_admin)',
      description: "Another school's or a deleted webhook: 404.", response: webhookView, errors: [404], responseExample: { data: example },
    },
    async ({ principal, params }) => ({ data: await getWebhook(principal, params.id) }),
  );
  web.route(
    {
      method: 'put', path: '/webhooks/:id', someField: true, params: idParam, summary: 'Change a webhook, or switch it on or off (super_admin)',
      found: ({ principal, params }) => assertWebhookFound(principal, params.id),
      description:
        'A webhook whose every delivery failed for 3 days is switched off (`active: false`, `disabled_reason` saying why); `active: true` switches it on again. ' +
        'A new URL is checked as on creation.',
      body: webhookChangesInput, response: webhookView, errors: [404], example: { active: true },
      responseExample: { message: 'Webhook updated', data: example },
    },
    async ({ ctx, principal, params, body }) => ({ message: 'Webhook updated', data: await updateWebhook(ctx, principal, params.id, body) }),
  );
  web.route(
    {
      method: 'delete', path: '/webhooks/:id', params: idParam, summary: 'Delete a webhook (super_admin)',
      description: 'It gets no further events; deliveries still waiting are failed. Its delivery log stays.', errors: [404],
      responseExample: { message: 'Webhook deleted' },
    },
    async ({ ctx, principal, params }) => {
      await deleteWebhook(ctx, principal, params.id);
      return { message: 'Webhook deleted' };
    },
  );
  web.route(
    {
      method: 'get', path: '/webhooks/:id/deliveries', params: idParam, query: deliveryListQuery, summary: "A webhook's deliveries, newest first (super_admin)",
      description: 'One row per event: `pending` while tries remain (retried after about 5 s, 30 s, 2 min, 10 min and 1 h), then `delivered` or `failed`.',
      response: z.object({
        deliveries: z.array(deliveryView),
        pagination: z.object({ total: z.number(), page: z.number(), limit: z.number(), pages: z.number() }),
      }),
      errors: [404],
      responseExample: {
        data: {
          deliveries: [{
            id: 41, event_id: '1b4e28ba-2fa1-4d2e-883f-0016d3cca427', event: 'notice.published', status: 'delivered', attempts: 2, response_status: 200,
            last_error: null, created_at: '2026-03-02T10:00:00.000Z', delivered_at: '2026-03-02T10:00:05.210Z',
          }],
          pagination: { total: 1, page: 1, limit: 20, pages: 1 },
        },
      },
    },
    async ({ principal, params, query }) => ({ data: await listDeliveries(principal, params.id, query) }),
  );
}
