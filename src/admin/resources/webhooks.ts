import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { Webhook } from '../../models/index.js';
import { createWebhook, deleteWebhook, updateWebhook, webhookEventChoices } from '../../services/webhooks/webhooks.js';
import { allows, roleAccess } from '../access.js';
import type { ConsoleAdmin } from '../auth.js';
import { defineResource } from './define.js';
import { menu } from '../labels/menu.js';
import { webhookEventLabels } from '../labels/codes.js';
import { choices } from '../labels/words.js';
import { deletedFlag, readOnly } from './properties.js';

export function webhooksResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: Webhook, scope: { schoolColumn: 'school_id', softDelete: 'deleted_status', secret: ['secret'] }, access: roleAccess.webhooks,
    options: {
      navigation: menu.setup,
      sort: { sortBy: 'id', direction: 'asc' },
      listProperties: ['url', 'events', 'active', 'disabled_reason', 'created_at'],
      filterProperties: ['url', 'active', 'deleted_status', 'created_at'],
      showProperties: ['school_id', 'id', 'url', 'events', 'active', 'disabled_reason', 'failing_since', 'deleted_status', 'created_at', 'updated_at'],
      editProperties: ['url', 'events', 'active'],
      properties: {
        url: { isTitle: true, description: 'https under production; never a private or reserved address' },
        events: {
          type: 'string', isArray: true, availableValues: choices(webhookEventChoices, webhookEventLabels), components: { list: 'ValueList', show: 'ValueList' },
          description: 'What to send; Every event sends them all, those added later included',
        },
        active: { description: 'A webhook whose every delivery failed for 3 days is switched off; switch it on here' },
        disabled_reason: readOnly,
        failing_since: readOnly,
        deleted_status: deletedFlag,
        created_at: readOnly,
      },
    },
    services: {
      fields: { url: 'text', events: 'list', active: 'boolean' },
      create: async (c, p, input) => {
        const { id: created, secret } = await createWebhook(c, p, input as never);
        return { id: created, secret: { label: 'The signing secret of this webhook: the receiving system checks each delivery with it', value: secret } };
      },
      newForm: {},
      update: (c, p, i, changes) => updateWebhook(c, p, i, changes as never),
      remove: (c, p, i) => deleteWebhook(c, p, i),
    },
    extraActions: {
      deliveries: {
        actionType: 'record', component: false, icon: 'List',
        isAccessible: ({ currentAdmin }) => allows(roleAccess.webhookDeliveries, currentAdmin as ConsoleAdmin, 'read'),
        handler: async (_request, _response, context) => ({
          record: context.record!.toJSON(context.currentAdmin),
          redirectUrl: `${context.h.resourceUrl({ resourceId: 'webhook_deliveries' })}?filters.webhook_id=${context.record!.id()}`,
        }),
      },
    },
  });
}
