import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { date, modelOptions, pk, schoolId, str, timestamps } from './columns.js';

/** A guardian account, stored per school: (school_id, phone_no) is unique. */
export class Parent extends Model<InferAttributes<Parent>, InferCreationAttributes<Parent>> {
  declare id: CreationOptional<number>;
  declare school_id: string;
  declare father_name: string | null;
  declare mother_name: CreationOptional<string | null>;
  declare phone_no: string;
  declare email: CreationOptional<string | null>;
  /**
   * The address the parent gave in the app, while it awaits their click on its verification link:
   * `email` is verified unless it is this one. An address any other door sets (admission, import,
   * the console) differs from it, so it counts as verified without that door knowing of verification.
   */
  declare unverified_email: CreationOptional<string | null>;
  declare pin_hash: CreationOptional<string | null>;
  declare pin_setup_token_hash: CreationOptional<string | null>;
  declare pin_setup_expires_at: CreationOptional<Date | null>;
  /** What this parent's uploads not yet attached hold (bytes), against their cap. */
  declare unattached_upload_bytes: CreationOptional<number>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    Parent.init(
      {
        id: pk(), school_id: schoolId(), father_name: str(120, true), mother_name: str(120, true), phone_no: str(20),
        email: str(254, true), unverified_email: str(254, true), pin_hash: str(100, true), pin_setup_token_hash: str(64, true), pin_setup_expires_at: date(),
        unattached_upload_bytes: { type: DataTypes.BIGINT, allowNull: false, defaultValue: 0 },
        ...timestamps(),
      },
      {
        sequelize, tableName: 'parents', modelName: 'Parent', ...modelOptions,
        indexes: [
          { name: 'parents_school_phone_uq', unique: true, fields: ['school_id', 'phone_no'] },
          { name: 'parents_school_pin_setup_uq', unique: true, fields: ['school_id', 'pin_setup_token_hash'] },
          // A login without school_id looks the phone up in every school.
          { name: 'parents_phone', fields: ['phone_no'] },
        ],
      },
    );
  }
}
