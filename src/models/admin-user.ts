import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { modelOptions, pk, schoolId, str, timestamps } from './columns.js';

export const adminRoles = ['super_admin', 'admin', 'it_contact', 'platform_admin'] as const;
export type AdminRole = (typeof adminRoles)[number];

export class AdminUser extends Model<InferAttributes<AdminUser>, InferCreationAttributes<AdminUser>> {
  declare id: CreationOptional<number>;
  /** Null only for platform_admin, the operator's role that belongs to no school. */
  declare school_id: string | null;
  declare name: string;
  declare email: string;
  declare password_hash: string;
  declare role: AdminRole;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    AdminUser.init(
      {
        id: pk(), school_id: schoolId(true), name: str(120), email: str(254), password_hash: str(100), role: str(20),
        ...timestamps(),
      },
      {
        sequelize, tableName: 'admin_users', modelName: 'AdminUser', ...modelOptions,
        indexes: [{ name: 'admin_users_email_uq', unique: true, fields: ['email'] }, { name: 'admin_users_school', fields: ['school_id', 'role'] }],
      },
    );
  }
}
