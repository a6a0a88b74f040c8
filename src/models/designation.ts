import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { json, modelOptions, pk, schoolId, str, timestamps } from './columns.js';
import type { Rbac } from '../services/access/rbac.js';

export class Designation extends Model<InferAttributes<Designation>, InferCreationAttributes<Designation>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare name: string;
  declare rbac: Rbac;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    Designation.init(
      { id: pk(), school_id: schoolId(), name: str(120), rbac: json('rbac', false), ...timestamps() },
      {
        sequelize, tableName: 'designations', modelName: 'Designation', ...modelOptions,
        indexes: [{ name: 'designations_school_name_uq', unique: true, fields: ['school_id', 'name'] }],
      },
    );
  }
}
