import type { ResourceWithOptions } from 'adminjs';
import type { AppContext } from '../../context.js';
import { Notification } from '../../models/index.js';
import { notificationStatuses } from '../../models/notification.js';
import { concealedMessage } from '../../services/notifications/notifications.js';
import { roleAccess } from '../access.js';
import { defineResource } from './define.js';
import { menu } from './menu.js';
import { choices, readOnly } from './properties.js';

export function notificationsResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: Notification, scope: { schoolColumn: 'school_id', secret: ['address'], conceal: concealedMessage }, access: roleAccess.devicesReadOnly,
    options: {
      navigation: menu.access,
      sort: { sortBy: 'created_at', direction: 'desc' },
      listProperties: ['id', 'event', 'target_type', 'target_id', 'title', 'status', 'attempts', 'deliver_after', 'created_at'],
      filterProperties: ['event', 'status', 'target_type', 'target_id', 'channel', 'deliver_after', 'created_at'],
      showProperties: [
        'school_id', 'id', 'event', 'channel', 'entity_type', 'entity_id', 'target_type', 'target_id', 'title', 'body', 'status', 'attempts',
        'last_error', 'deliver_after', 'next_attempt_at', 'sent_at', 'created_at', 'updated_at',
      ],
      properties: {
        status: { availableValues: choices(notificationStatuses) },
        target_type: { availableValues: choices(['parent', 'staff', 'token']) },
        created_at: readOnly,
      },
    },
    services: { noun: 'Notification' },
  });
}
