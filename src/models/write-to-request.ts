import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { DataTypes } from 'sequelize';
import { date, day, json, modelOptions, pk, ref, schoolId, str, text, timestamps } from './columns.js';

export const writeToTypes = ['leave', 'complaint', 'query', 'feedback', 'other'] as const;
export const writeToStatuses = ['open', 'in_progress', 'resolved', 'archived'] as const;
export type WriteToStatus = (typeof writeToStatuses)[number];

export class WriteToRequest extends Model<InferAttributes<WriteToRequest>, InferCreationAttributes<WriteToRequest>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare parent_id: number;
  declare student_id: number | null;
  declare type: (typeof writeToTypes)[number];
  declare subject: string;
  declare message: string;
  declare status: CreationOptional<WriteToStatus>;
  declare assigned_staff_id: CreationOptional<number | null>;
  declare leave_from: CreationOptional<string | null>;
  declare leave_to: CreationOptional<string | null>;
  declare resolved_at: CreationOptional<Date | null>;
  declare replies_count: CreationOptional<number>;
  /** The ids of its attachments, in order; null for none. */
  declare attachment_ids: CreationOptional<number[] | null>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    WriteToRequest.init(
      {
        id: pk(), school_id: schoolId(), parent_id: ref(), student_id: ref(true), type: str(16), subject: str(200), message: text(false),
        status: str(16, false, 'open'), assigned_staff_id: ref(true), leave_from: day(), leave_to: day(), resolved_at: date(),
        replies_count: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 }, attachment_ids: json('attachment_ids'), ...timestamps(),
      },
      {
        sequelize, tableName: 'write_to_requests', modelName: 'WriteToRequest', ...modelOptions,
        indexes: [
          { name: 'write_to_parent', fields: ['school_id', 'parent_id', 'status', 'created_at'] },
          { name: 'write_to_queue', fields: ['school_id', 'status', 'created_at'] },
          { name: 'write_to_assigned', fields: ['school_id', 'assigned_staff_id'] },
          { name: 'write_to_student', fields: ['school_id', 'student_id'] },
          { name: 'write_to_resolved', fields: ['status', 'resolved_at'] },
        ],
      },
    );
  }
}
