import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { modelOptions, str, timestamps } from './columns.js';

export type SchoolStatus = 'active' | 'suspended';

export class School extends Model<InferAttributes<School>, InferCreationAttributes<School>> {
  declare id: string;
  declare name: string;
  declare status: CreationOptional<SchoolStatus>;
  /** An IANA zone (`Asia/Kolkata`): the local time of the school's parents, for quiet hours. */
  declare timezone: CreationOptional<string>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    School.init(
      { id: { ...str(64), primaryKey: true }, name: str(200), status: str(16, false, 'active'), timezone: str(64, false, 'UTC'), ...timestamps() },
      { sequelize, tableName: 'schools', modelName: 'School', ...modelOptions },
    );
  }
}
