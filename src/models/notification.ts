import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { DataTypes } from 'sequelize';
import { date, json, modelOptions, pk, ref, schoolId, str, timestamps } from './columns.js';

export const notificationStatuses = ['pending', 'sent', 'failed', 'skipped'] as const;
export type NotificationStatus = (typeof notificationStatuses)[number];
export const channels = ['push', 'sms', 'email'] as const;
export type Channel = (typeof channels)[number];

/**
 * The push outbox and its delivery record in one table: a row is written as 'pending' in the same
 * transaction as its event, and the worker moves it to 'sent', 'failed' or 'skipped'.
 */
export class Notification extends Model<InferAttributes<Notification>, InferCreationAttributes<Notification>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare event: string;
  declare channel: CreationOptional<Channel>;
  declare entity_type: CreationOptional<string | null>;
  declare entity_id: CreationOptional<number | null>;
  declare target_type: 'parent' | 'staff' | 'token';
  declare target_id: CreationOptional<number | null>;
  declare session_id: CreationOptional<number | null>;
  /** Device token (push), phone number (sms) or e-mail address; never shown by the API. */
  declare address: CreationOptional<string | null>;
  declare title: string;
  declare body: string;
  declare data: CreationOptional<Record<string, string> | null>;
  declare status: CreationOptional<NotificationStatus>;
  declare attempts: CreationOptional<number>;
  declare last_error: CreationOptional<string | null>;
  declare next_attempt_at: CreationOptional<Date | null>;
  /** Set when the push was held for the parent's quiet hours: it is sent from then on. */
  declare deliver_after: CreationOptional<Date | null>;
  declare sent_at: CreationOptional<Date | null>;
  /** The gateway's id for the message (Twilio's sid), by which its status callbacks find the record. */
  declare provider_id: CreationOptional<string | null>;
  /** When the gateway reported the message delivered (Twilio's `delivered` status). */
  declare delivered_at: CreationOptional<Date | null>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    Notification.init(
      {
        id: pk(), school_id: schoolId(), event: str(40), channel: str(8, false, 'push'), entity_type: str(20, true), entity_id: ref(true),
        target_type: str(10), target_id: ref(true), session_id: ref(true), address: str(512, true), title: str(200), body: str(2000),
        data: json('data'), status: str(10, false, 'pending'), attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        last_error: str(1000, true), next_attempt_at: date(), deliver_after: date(), sent_at: date(),
        provider_id: str(64, true), delivered_at: date(), ...timestamps(),
      },
      {
        sequelize, tableName: 'notifications', modelName: 'Notification', ...modelOptions,
        indexes: [
          { name: 'notifications_school_created', fields: ['school_id', 'created_at', 'id'] },
          { name: 'notifications_due', fields: ['status', 'next_attempt_at'] },
          { name: 'notifications_school_status', fields: ['school_id', 'status', 'created_at'] },
          { name: 'notifications_provider_id', fields: ['provider_id'] },
          { name: 'notifications_entity', fields: ['school_id', 'entity_type', 'entity_id', 'target_type'] },
        ],
      },
    );
  }
}
