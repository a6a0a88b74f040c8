import { z } from 'zod';
import { notificationStatuses } from '../../models/notification.js';
import { listNotifications, notificationListQuery, targetTypes } from '../../services/notifications/notifications.js';
import { notificationPreferences, preferencesInput, updateNotificationPreferences } from '../../services/notifications/preferences.js';
import { notificationCategories } from '../../models/notification-preference.js';
import type { Routers } from '../routers.js';
import { schoolIdField, timestamp } from '../../services/schemas.js';

const notification = z.object({
  id: z.number(), event: z.string(), channel: z.enum(['push', 'sms']), entity_type: z.string().nullable(), entity_id: z.number().nullable(),
  target_type: z.enum(targetTypes), target_id: z.number().nullable(), title: z.string(), body: z.string(), status: z.enum(notificationStatuses),
  attempts: z.number(), last_error: z.string().nullable(), created_at: timestamp(), sent_at: timestamp().nullable(),
  deliver_after: timestamp().nullable().describe("Set when the push was held for the parent's quiet hours: it is sent from then on"),
});

const preferencesView = z.object({
  categories: z.object(Object.fromEntries(notificationCategories.map((c) => [c, z.boolean()])) as Record<(typeof notificationCategories)[number], z.ZodBoolean>),
  quiet_hours: z.object({ start: z.string(), end: z.string() }).nullable(),
  timezone: z.string().describe("The school's time zone, in which the quiet hours are read"),
});
const preferencesExample = {
  categories: { activities: true, notices: true, write_to: true, diary: false, attendance: true },
  quiet_hours: { start: '21:30', end: '06:30' },
  timezone: 'Asia/Kolkata',
};

export function registerNotificationRoutes(r: Routers): void {
  r.web.route(
    {
      method: 'get', path: '/notifications', summary: "The school's notification records, newest first (super_admin, admin, it_contact)",
      description: 'One record per target device and delivery; the device token or phone number is never shown.',
      query: notificationListQuery.extend({ school_id: schoolIdField().optional() }),
      response: z.object({
        notifications: z.array(notification),
        pagination: z.object({ total: z.number(), page: z.number(), limit: z.number(), pages: z.number() }),
      }),
    },
    async ({ ctx, principal, query }) => ({ data: await listNotifications(ctx, principal, query) }),
  );
  r.parent.route(
    {
      method: 'get', path: '/notification-preferences', summary: 'What the parent wants pushed, and when not',
      description:
        'Each category (`activities`, `notices`, `write_to`, `diary`, `attendance`) on or off, and quiet hours in the school\'s time zone. ' +
        'Until changed, every category is on and there are no quiet hours.',
      response: preferencesView,
      responseExample: { data: preferencesExample },
    },
    async ({ principal }) => ({ data: await notificationPreferences(principal) }),
  );
  r.parent.route(
    {
      method: 'put', path: '/notification-preferences', summary: 'Change what is pushed, and when not (partial)',
      description:
        'Only what is sent changes. A push of a category turned off is recorded `skipped`, naming the preference; one that falls in the quiet hours ' +
        'is held (`pending`, with `deliver_after` at the end of the quiet hours) and sent then. Urgent notices and test pushes pass both.',
      body: preferencesInput,
      response: preferencesView,
      example: { categories: { diary: false }, quiet_hours: { start: '21:30', end: '06:30' } },
      responseExample: { message: 'Notification preferences saved', data: preferencesExample },
    },
    async ({ ctx, principal, body }) => ({ message: 'Notification preferences saved', data: await updateNotificationPreferences(ctx, principal, body) }),
  );
}
