import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { bool, date, flag, json, modelOptions, pk, ref, schoolId, str, text, timestamps } from './columns.js';

export const activityTypes = ['event', 'announcement'] as const;
export const activityStatuses = ['draft', 'scheduled', 'published', 'cancelled'] as const;

export class Activity extends Model<InferAttributes<Activity>, InferCreationAttributes<Activity>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare title: string;
  declare description: CreationOptional<string | null>;
  declare activity_type: CreationOptional<(typeof activityTypes)[number]>;
  declare staff_id: number;
  /** Null: school-wide; a value targets one student. */
  declare student_id: CreationOptional<number | null>;
  declare status: CreationOptional<(typeof activityStatuses)[number]>;
  declare deleted_status: CreationOptional<number>;
  /** 0: the whole school; 1: its audience_targets rows say who. */
  declare audience_scope: CreationOptional<number>;
  /** A scheduled activity publishes itself then. */
  declare publish_at: CreationOptional<Date | null>;
  /** When it was first published (its push went out then); never moved afterwards. */
  declare published_at: CreationOptional<Date | null>;
  /** The last reminder to its unread families: at most one an hour. */
  declare reminded_at: CreationOptional<Date | null>;
  /** Its form, when it has one. */
  declare form_id: CreationOptional<number | null>;
  /** An event's time and place (all-day events start at the start of a day of the school's zone). */
  declare starts_at: CreationOptional<Date | null>;
  declare ends_at: CreationOptional<Date | null>;
  declare all_day: CreationOptional<boolean>;
  declare location: CreationOptional<string | null>;
  /** The last instant the event covers: its end, else its start; all day, the end of its last day. */
  declare span_end: CreationOptional<Date | null>;
  /** The ids of its attachments, in order; null for none. */
  declare attachment_ids: CreationOptional<number[] | null>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    Activity.init(
      {
        id: pk(), school_id: schoolId(), title: str(200), description: text(), activity_type: str(20, false, 'announcement'),
        staff_id: ref(), student_id: ref(true), status: str(16, false, 'draft'), deleted_status: flag(0), audience_scope: flag(0), publish_at: date(), published_at: date(), reminded_at: date(), form_id: ref(true),
        starts_at: date(), ends_at: date(), all_day: bool(false), location: str(200, true), span_end: date(), attachment_ids: json('attachment_ids'), ...timestamps(),
      },
      {
        sequelize, tableName: 'activities', modelName: 'Activity', ...modelOptions,
        indexes: [
          { name: 'activities_feed', fields: ['school_id', 'status', 'deleted_status', 'created_at', 'id', 'audience_scope'] },
          { name: 'activities_school_created', fields: ['school_id', 'deleted_status', 'created_at', 'id'] },
          { name: 'activities_school_student', fields: ['school_id', 'student_id'] },
          { name: 'activities_school_staff', fields: ['school_id', 'staff_id'] },
          { name: 'activities_author', fields: ['school_id', 'staff_id', 'status', 'deleted_status', 'created_at', 'id'] },
          { name: 'activities_due', fields: ['status', 'publish_at'] },
          { name: 'activities_calendar', fields: ['school_id', 'deleted_status', 'span_end', 'starts_at'] },
        ],
      },
    );
  }
}
