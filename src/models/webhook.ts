import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { bool, date, flag, json, longText, modelOptions, pk, ref, schoolId, str, timestamps } from './columns.js';

export const webhookEvents = [
  'activity.published', 'notice.published', 'write_to.created', 'write_to.resolved', 'admission.submitted', 'student.archived', 'staff.archived',
  'form.response_submitted',
] as const;
export type WebhookEvent = (typeof webhookEvents)[number];

export const webhookDeliveryStatuses = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof webhookDeliveryStatuses)[number];

/** A school's subscription: where to POST which events, and the secret that signs them. */
export class Webhook extends Model<InferAttributes<Webhook>, InferCreationAttributes<Webhook>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare url: string;
  declare events: (WebhookEvent | '*')[];
  /** Kept as returned to the caller, since it keys the HMAC; never shown again. */
  declare secret: string;
  declare active: CreationOptional<boolean>;
  declare disabled_reason: CreationOptional<string | null>;
  declare failing_since: CreationOptional<Date | null>;
  /** 1 once deleted: kept, with its deliveries, for the delivery log. */
  declare deleted_status: CreationOptional<number>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    Webhook.init(
      {
        id: pk(), school_id: schoolId(), url: str(2048), events: { ...json('events'), allowNull: false }, secret: str(64),
        active: bool(true), disabled_reason: str(300, true), failing_since: date(), deleted_status: flag(), ...timestamps(),
      },
      {
        sequelize, tableName: 'webhooks', modelName: 'Webhook', ...modelOptions,
        indexes: [{ name: 'webhooks_school', fields: ['school_id', 'deleted_status', 'id'] }],
      },
    );
  }
}

/** One event for one webhook: the outbox row and its delivery record. */
export class WebhookDelivery extends Model<InferAttributes<WebhookDelivery>, InferCreationAttributes<WebhookDelivery>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare webhook_id: number;
  declare event_id: string;
  declare event: string;
  /** The JSON body, exactly as sent on every attempt. */
  declare payload: string;
  declare status: CreationOptional<WebhookDeliveryStatus>;
  declare attempts: CreationOptional<number>;
  declare response_status: CreationOptional<number | null>;
  declare last_error: CreationOptional<string | null>;
  declare next_attempt_at: CreationOptional<Date | null>;
  declare delivered_at: CreationOptional<Date | null>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    WebhookDelivery.init(
      {
        id: pk(), school_id: schoolId(), webhook_id: ref(), event_id: str(36), event: str(40), payload: longText(false),
        status: str(10, false, 'pending'), attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        response_status: { type: DataTypes.INTEGER, allowNull: true }, last_error: str(1000, true), next_attempt_at: date(),
        delivered_at: date(), ...timestamps(),
      },
      {
        sequelize, tableName: 'webhook_deliveries', modelName: 'WebhookDelivery', ...modelOptions,
        indexes: [
          { name: 'webhook_deliveries_webhook', fields: ['school_id', 'webhook_id', 'created_at', 'id'] },
          { name: 'webhook_deliveries_due', fields: ['status', 'next_attempt_at'] },
          { name: 'webhook_deliveries_event_uq', unique: true, fields: ['school_id', 'webhook_id', 'event_id'] },
        ],
      },
    );
  }
}
