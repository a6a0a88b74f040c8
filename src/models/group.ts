import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { DataTypes } from 'sequelize';
import { modelOptions, pk, ref, schoolId, str, text, timestamps } from './columns.js';

/** A school's named set of students; `deleted_key` is 0 while it exists, its id once deleted (so the name is free again). */
export class Group extends Model<InferAttributes<Group>, InferCreationAttributes<Group>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare name: string;
  declare description: CreationOptional<string | null>;
  declare deleted_key: CreationOptional<number>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    Group.init(
      {
        id: pk(), school_id: schoolId(), name: str(120), description: text(),
        deleted_key: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 }, ...timestamps(),
      },
      {
        sequelize, tableName: 'student_groups', modelName: 'Group', ...modelOptions,
        indexes: [{ name: 'student_groups_name_uq', unique: true, fields: ['school_id', 'name', 'deleted_key'] }],
      },
    );
  }
}

/** A student in a group. */
export class GroupMember extends Model<InferAttributes<GroupMember>, InferCreationAttributes<GroupMember>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare group_id: number;
  declare student_id: number;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    GroupMember.init(
      { id: pk(), school_id: schoolId(), group_id: ref(), student_id: ref(), ...timestamps() },
      {
        sequelize, tableName: 'group_members', modelName: 'GroupMember', ...modelOptions,
        indexes: [
          { name: 'group_members_uq', unique: true, fields: ['school_id', 'group_id', 'student_id'] },
          { name: 'group_members_student', fields: ['school_id', 'student_id', 'group_id'] },
        ],
      },
    );
  }
}
