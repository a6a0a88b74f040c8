import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { WebhookDelivery } from '../../models/index.js';
import { webhookDeliveryStatuses } from '../../models/webhook.js';
import { roleAccess } from '../access.js';
import { defineResource } from './define.js';
import { menu } from '../labels/menu.js';
import { webhookDeliveryStatusLabels, webhookEventLabels } from '../labels/codes.js';
import { coded, readOnly, ref, status } from './properties.js';

export function webhookDeliveriesResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: WebhookDelivery, scope: { schoolColumn: 'school_id' }, access: roleAccess.webhookDeliveries,
    options: {
      navigation: menu.setup,
      sort: { sortBy: 'created_at', direction: 'desc' },
      listProperties: ['webhook_id', 'event', 'status', 'attempts', 'response_status', 'created_at', 'delivered_at'],
      filterProperties: ['webhook_id', 'event', 'status', 'event_id', 'created_at'],
      showProperties: [
        'school_id', 'id', 'webhook_id', 'event_id', 'event', 'status', 'attempts', 'response_status', 'last_error', 'next_attempt_at', 'payload',
        'created_at', 'delivered_at',
      ],
      properties: {
        webhook_id: ref('webhooks'),
        event: coded(Object.keys(webhookEventLabels).filter((e) => e !== '*'), webhookEventLabels),
        status: status(webhookDeliveryStatuses, webhookDeliveryStatusLabels),
        payload: { type: 'textarea' },
        created_at: readOnly,
      },
    },
    services: {},
  });
}
