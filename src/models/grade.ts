import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { DataTypes } from 'sequelize';
import { modelOptions, pk, ref, schoolId, str, timestamps } from './columns.js';

export class Grade extends Model<InferAttributes<Grade>, InferCreationAttributes<Grade>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare name: string;
  declare sort_order: CreationOptional<number>;
  declare class_teacher_id: CreationOptional<number | null>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    Grade.init(
      {
        id: pk(), school_id: schoolId(), name: str(60), sort_order: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        class_teacher_id: ref(true), ...timestamps(),
      },
      {
        sequelize, tableName: 'grades', modelName: 'Grade', ...modelOptions,
        indexes: [{ name: 'grades_school_name_uq', unique: true, fields: ['school_id', 'name'] }],
      },
    );
  }
}
