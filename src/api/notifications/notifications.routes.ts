import { z } from 'zod';
import { notificationStatuses } from '../../models/notification.js';
import { listNotifications, notificationListQuery, targetTypes } from '../../services/notifications/notifications.js';
import type { Routers } from '../routers.js';
import { timestamp } from '../schemas.js';

const notification = z.object({
  id: z.number(), event: z.string(), channel: z.enum(['push', 'sms']), entity_type: z.string().nullable(), entity_id: z.number().nullable(),
  target_type: z.enum(targetTypes), target_id: z.number().nullable(), title: z.string(), body: z.string(), status: z.enum(notificationStatuses),
  attempts: z.number(), last_error: z.string().nullable(), created_at: timestamp(), sent_at: timestamp().nullable(),
});

export function registerNotificationRoutes(r: Routers): void {
  r.web.route(
    {
      method: 'get', path: '/notifications', summary: "The school's notification records, newest first (super_admin, admin, it_contact)",
      description: 'One record per target device and delivery; the device token or phone number is never shown.',
      query: notificationListQuery.extend({ school_id: z.string().optional() }),
      response: z.object({
        notifications: z.array(notification),
        pagination: z.object({ total: z.number(), page: z.number(), limit: z.number(), pages: z.number() }),
      }),
    },
    async ({ ctx, principal, query }) => ({ data: await listNotifications(ctx, principal, query) }),
  );
}
