import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { modelOptions, str, timestamps } from './columns.js';

export type SchoolStatus = 'active' | 'suspended';

export class School extends Model<InferAttributes<School>, InferCreationAttributes<School>> {
  declare id: string;
  declare name: string;
  declare status: CreationOptional<SchoolStatus>;
  /** An IANA zone (`Asia/Kolkata`): the local time of the school's parents, for quiet hours. */
  declare timezone: CreationOptional<string>;
  /** ISO 3166-1 alpha-2: how its national phone numbers are read; null until set (SMS_DEFAULT_COUNTRY applies). */
  declare country: CreationOptional<string | null>;
  /** SMS about posts a month at most (PIN set-up links and test messages aside). */
  declare sms_monthly_limit: CreationOptional<number>;
  /** The school's attachments may hold this much (MiB, files and thumbnails together). */
  declare storage_limit_mb: CreationOptional<number>;
  /** What its stored files and thumbnails hold, kept by conditional updates as uploads come and go. */
  declare storage_used_bytes: CreationOptional<number>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    School.init(
      {
        id: { ...str(64), primaryKey: true }, name: str(200), status: str(16, false, 'active'), timezone: str(64, false, 'UTC'), country: str(2, true),
        sms_monthly_limit: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 1000 },
        storage_limit_mb: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 5120 },
        storage_used_bytes: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
        ...timestamps(),
      },
      { sequelize, tableName: 'schools', modelName: 'School', ...modelOptions },
    );
  }
}
