import { Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { DataTypes } from 'sequelize';
import { date, str } from './columns.js';

/** Failed-login counters, in the database so that every instance sees the same lock-out. */
export class LoginLockout extends Model<InferAttributes<LoginLockout>, InferCreationAttributes<LoginLockout>> {
  /** '' for keys that belong to no school (admin e-mails, parent phones looked up across schools). */
  declare school_id: string;
  declare account_key: string;
  declare failures: number;
  declare window_started_at: Date;
  declare locked_until: Date | null;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    LoginLockout.init(
      {
        school_id: { ...str(64), primaryKey: true }, account_key: { ...str(300), primaryKey: true },
        failures: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 }, window_started_at: date(false), locked_until: date(),
        updated_at: { type: DataTypes.DATE(3), allowNull: false },
      },
      { sequelize, tableName: 'login_lockouts', modelName: 'LoginLockout', timestamps: true, createdAt: false, updatedAt: 'updated_at' },
    );
  }
}
