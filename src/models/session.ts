import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { DataTypes } from 'sequelize';
import { bool, date, pk, ref, schoolId, str } from './columns.js';

export const userTypes = ['parent', 'staff', 'admin'] as const;
export type UserType = (typeof userTypes)[number];
/** The accounts that sign in with a PIN; admin users have a password. */
export const pinAccountTypes = ['parent', 'staff'] as const satisfies readonly UserType[];

/** One login on one device. The raw session token lives only inside the JWT; the row keeps its SHA-256. */
export class Session extends Model<InferAttributes<Session>, InferCreationAttributes<Session>> {
  declare id: CreationOptional<number>;
  /** Null only for a platform_admin's console session. */
  declare school_id: string | null;
  declare token_hash: string;
  declare user_type: UserType;
  declare user_id: number;
  declare fcm_token: CreationOptional<string | null>;
  declare device_id: CreationOptional<string | null>;
  declare device_name: CreationOptional<string | null>;
  declare user_agent: CreationOptional<string | null>;
  declare ip: CreationOptional<string | null>;
  declare created_at: CreationOptional<Date>;
  declare last_seen_at: Date;
  declare expires_at: Date;
  declare active: CreationOptional<boolean>;
  declare revoked_at: CreationOptional<Date | null>;

  static initModel(sequelize: Sequelize) {
    Session.init(
      {
        id: pk(), school_id: schoolId(true), token_hash: str(64), user_type: str(10), user_id: ref(), fcm_token: str(512, true),
        device_id: str(200, true), device_name: str(200, true), user_agent: str(500, true), ip: str(64, true),
        created_at: { type: DataTypes.DATE(3), allowNull: false }, last_seen_at: date(false), expires_at: date(false),
        active: bool(true), revoked_at: date(),
      },
      {
        sequelize, tableName: 'sessions', modelName: 'Session', underscored: true, timestamps: true, createdAt: 'created_at', updatedAt: false,
        indexes: [
          { name: 'sessions_school_token_uq', unique: true, fields: ['school_id', 'token_hash'] },
          { name: 'sessions_user', fields: ['school_id', 'user_type', 'user_id', 'active'] },
          { name: 'sessions_last_seen', fields: ['last_seen_at'] },
          { name: 'sessions_expires', fields: ['expires_at'] },
        ],
      },
    );
  }
}
