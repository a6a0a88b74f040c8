import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { flag, json, modelOptions, pk, schoolId, str, timestamps } from './columns.js';
import type { Rbac } from '../services/access/rbac.js';

/** Stored status: 1 active, 0 archived (access revoked). */
export class Staff extends Model<InferAttributes<Staff>, InferCreationAttributes<Staff>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare name: string;
  /** The designation's name; its rbac is the base of the staff member's effective rbac. */
  declare designation: string | null;
  declare phone_no: string;
  declare email: string | null;
  declare pin_hash: CreationOptional<string | null>;
  /** The staff member's own rbac, overlaid on the designation's. */
  declare rbac: CreationOptional<Rbac | null>;
  declare status: CreationOptional<number>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    Staff.init(
      {
        id: pk(), school_id: schoolId(), name: str(120), designation: str(120, true), phone_no: str(20), email: str(254, true),
        pin_hash: str(100, true), rbac: json('rbac'), status: flag(1), ...timestamps(),
      },
      {
        sequelize, tableName: 'staff', modelName: 'Staff', ...modelOptions,
        indexes: [
          { name: 'staff_school_phone_uq', unique: true, fields: ['school_id', 'phone_no'] },
          { name: 'staff_school_email_uq', unique: true, fields: ['school_id', 'email'] },
          { name: 'staff_school_status_name', fields: ['school_id', 'status', 'name'] },
        ],
      },
    );
  }
}
