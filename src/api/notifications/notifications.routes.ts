import { z } from 'zod';
import { channels, notificationStatuses } from '../../models/notification.js';
import { listNotifications, notificationListQuery, targetTypes } from '../../services/notifications/notifications.js';
import { notificationPreferences, preferencesInput, updateNotificationPreferences } from '../../services/notifications/preferences.js';
import { notificationCategories, notificationChannels } from '../../models/notification-preference.js';
import type { Routers } from '../routers.js';
import { schoolIdField, timestamp } from '../../services/schemas.js';

const notification = z.object({
  id: z.number(), event: z.string(), channel: z.enum(channels), entity_type: z.string().nullable(), entity_id: z.number().nullable(),
  target_type: z.enum(targetTypes), target_id: z.number().nullable(), title: z.string(), body: z.string(), status: z.enum(notificationStatuses),
  attempts: z.number(), last_error: z.string().nullable(), created_at: timestamp(), sent_at: timestamp().nullable(),
  deliver_after: timestamp().nullable().describe("Set when the message was held for the parent's quiet hours: it is sent from then on"),
  delivered_at: timestamp().nullable().describe('When the SMS gateway reported the message delivered; null until then, and for push and e-mail'),
});

const preferencesView = z.object({
  categories: z.object(Object.fromEntries(notificationCategories.map((c) => [c, z.boolean()])) as Record<(typeof notificationCategories)[number], z.ZodBoolean>),
  quiet_hours: z.object({ start: z.string(), end: z.string() }).nullable(),
  channels: z.object(Object.fromEntries(notificationChannels.map((c) => [c, z.boolean()])) as Record<(typeof notificationChannels)[number], z.ZodBoolean>),
  timezone: z.string().describe("The school's time zone, in which the quiet hours are read"),
});
const preferencesExample = {
  categories: { activities: true, notices: true, write_to: true, diary: false, attendance: true },
  quiet_hours: { start: '21:30', end: '06:30' },
  channels: { push: true, email: true, sms: false },
  timezone: 'Asia/Kolkata',
};

export function registerNotificationRoutes(r: Routers): void {
  r.web.route(
    {
      method: 'get', path: '/notifications', summary: "The school's notification records, newest first (super_admin, admin, it_contact)",
      description:
        'One record per target device (push) or message (SMS, e-mail); a family sent nothing about an item has one `skipped` record naming why ' +
        '(a category or every channel off, `no channel`, `sms monthly limit`). The device token, phone number or e-mail address is never shown, nor any ' +
        "link a message carried; of a PIN set-up SMS only its existence, channel, event and status. `channel` filters: `push`, `sms` or `email`.",
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
      method: 'get', path: '/notification-preferences', summary: 'What the parent is sent, how, and when not',
      description:
        'Each category (`activities`, `notices`, `write_to`, `diary`, `attendance`) on or off, each channel (`push`, `email`, `sms`) on or off, and quiet hours ' +
        'in the school\'s time zone. Until changed, every category and channel is on and there are no quiet hours.',
      response: preferencesView,
      responseExample: { data: preferencesExample },
    },
    async ({ principal }) => ({ data: await notificationPreferences(principal) }),
  );
  r.parent.route(
    {
      method: 'put', path: '/notification-preferences', summary: 'Change what is sent, how, and when not (partial)',
      description:
        'Only what is sent changes. A notification of a category turned off is recorded `skipped`, naming the preference; one that falls in the quiet hours ' +
        'is held (`pending`, with `deliver_after` at the end of the quiet hours) and sent then, whatever its channel. A family is reached by push to its ' +
        'devices, else by e-mail to a verified address, else by SMS, among the channels left on. Urgent notices pass the categories and the quiet hours ' +
        'and go by every channel on; test pushes pass everything.',
      body: preferencesInput,
      response: preferencesView,
      example: { categories: { diary: false }, quiet_hours: { start: '21:30', end: '06:30' }, channels: { sms: false } },
      responseExample: { message: 'Notification preferences saved', data: preferencesExample },
    },
    async ({ ctx, principal, body }) => ({ message: 'Notification preferences saved', data: await updateNotificationPreferences(ctx, principal, body) }),
  );
}
