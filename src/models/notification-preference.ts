import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { bool, modelOptions, pk, ref, schoolId, str, timestamps } from './columns.js';

/** The categories of notification a parent can turn off, each a column of their preferences. */
export const notificationCategories = ['activities', 'notices', 'write_to', 'diary', 'attendance'] as const;
export type NotificationCategory = (typeof notificationCategories)[number];

/** The channels a parent is reached by, each a `channel_<name>` column of their preferences. */
export const notificationChannels = ['push', 'email', 'sms'] as const;
export type NotificationChannel = (typeof notificationChannels)[number];

/** A parent's push preferences: a row exists once they changed something; without one, every category is on and no quiet hours. */
export class NotificationPreference extends Model<InferAttributes<NotificationPreference>, InferCreationAttributes<NotificationPreference>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare parent_id: number;
  declare activities: CreationOptional<boolean>;
  declare notices: CreationOptional<boolean>;
  declare write_to: CreationOptional<boolean>;
  declare diary: CreationOptional<boolean>;
  declare attendance: CreationOptional<boolean>;
  /** Quiet hours as HH:MM in the school's time zone; the start may be after the end (across midnight). */
  /** The channels the parent may be reached by (section 24): push, e-mail, SMS. */
  declare channel_push: CreationOptional<boolean>;
  declare channel_email: CreationOptional<boolean>;
  declare channel_sms: CreationOptional<boolean>;
  declare quiet_start: CreationOptional<string | null>;
  declare quiet_end: CreationOptional<string | null>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    NotificationPreference.init(
      {
        id: pk(), school_id: schoolId(), parent_id: ref(), activities: bool(true), notices: bool(true), write_to: bool(true), diary: bool(true),
        attendance: bool(true), channel_push: bool(true), channel_email: bool(true), channel_sms: bool(true), quiet_start: str(5, true), quiet_end: str(5, true), ...timestamps(),
      },
      {
        sequelize, tableName: 'notification_preferences', modelName: 'NotificationPreference', ...modelOptions,
        indexes: [{ name: 'notification_preferences_parent', unique: true, fields: ['school_id', 'parent_id'] }],
      },
    );
  }
}
