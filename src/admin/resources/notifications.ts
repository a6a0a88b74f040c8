import type { ResourceWithOptions } from 'adminjs';
import { Sequelize, type WhereOptions } from 'sequelize';
import type { AppContext } from '../../context.js';
import { Notification } from '../../models/index.js';
import { notificationStatuses } from '../../models/notification.js';
import { concealedMessage } from '../../services/notifications/notifications.js';
import { roleAccess } from '../access.js';
import { defineResource } from './define.js';
import { menu } from '../labels/menu.js';
import { channelLabels, entityTypeLabels, notificationEventLabels, notificationStatusLabels } from '../labels/codes.js';
import { linkedNames, type Pointer } from './linked-names.js';
import { coded, named, readOnly, status } from './properties.js';

export function notificationsResource(ctx: AppContext): ResourceWithOptions {
  return defineResource(ctx, {
    model: Notification, scope: {
      schoolColumn: 'school_id', secret: ['address'], conceal: concealedMessage,
      enrich: [linkedNames('recipient', recipientOf), linkedNames('item', (r) => (r.entity_type ? { kind: String(r.entity_type), id: r.entity_id } : null))],
      quickSearch: [{ label: "recipient's name or phone", where: recipientMatching }],
    }, access: roleAccess.devicesReadOnly,
    options: {
      navigation: menu.access,
      sort: { sortBy: 'created_at', direction: 'desc' },
      listProperties: ['event', 'channel', 'recipient', 'title', 'status', 'attempts', 'deliver_after', 'delivered_at', 'created_at'],
      filterProperties: ['event', 'status', 'target_type', 'target_id', 'channel', 'deliver_after', 'delivered_at', 'created_at', 'updated_at'],
      showProperties: [
        'school_id', 'id', 'event', 'channel', 'item', 'entity_type', 'entity_id', 'recipient', 'target_type', 'target_id', 'title', 'body', 'status', 'attempts',
        'last_error', 'deliver_after', 'next_attempt_at', 'sent_at', 'delivered_at', 'created_at', 'updated_at',
      ],
      properties: {
        event: coded(Object.keys(notificationEventLabels), notificationEventLabels),
        channel: coded(Object.keys(channelLabels), channelLabels),
        status: status(notificationStatuses, notificationStatusLabels),
        target_type: coded(['parent', 'staff', 'token'], { parent: 'Parent', staff: 'Staff member', token: 'A device' }),
        entity_type: coded(Object.keys(entityTypeLabels), entityTypeLabels),
        recipient: named(),
        item: named({ isVisible: { list: false, filter: false, show: true, edit: false } }),
        created_at: readOnly,
        delivered_at: { description: "When Twilio reported the SMS delivered to the phone (SMS only; empty until then)" },
      },
    },
    services: {},
  });
}

/** A parent's or staff member's name; a push to a bare device token has no person behind it. */
const recipientOf = (row: Record<string, unknown>): Pointer => (row.target_type === 'token' ? { label: 'A device' } : { kind: String(row.target_type), id: row.target_id });

/** Notifications to a parent or staff member of the row's school whose name or phone holds the words: one indexed subquery each. */
function recipientMatching(words: string): WhereOptions {
  const text = Notification.sequelize!.escape(words);
  const holds = (column: string) => `instr(lower(${column}), ${text}) > 0`;
  return Sequelize.literal(
    `((target_type = 'parent' AND target_id IN (SELECT p.id FROM parents p WHERE p.school_id = Notification.school_id AND (${['p.father_name', 'p.mother_name', 'p.phone_no'].map(holds).join(' OR ')})))` +
      ` OR (target_type = 'staff' AND target_id IN (SELECT s.id FROM staff s WHERE s.school_id = Notification.school_id AND (${['s.name', 's.phone_no'].map(holds).join(' OR ')}))))`,
  );
}
