import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import { date, modelOptions, timestamps } from './columns.js';

/** One admin console cookie session (express-session's data); its admin's sessions row is what signs it in. */
export class ConsoleSession extends Model<InferAttributes<ConsoleSession>, InferCreationAttributes<ConsoleSession>> {
  declare sid: string;
  declare data: string;
  declare expires_at: Date;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    ConsoleSession.init(
      { sid: { type: DataTypes.STRING(128), primaryKey: true }, data: { type: DataTypes.TEXT, allowNull: false }, expires_at: date(false), ...timestamps() },
      {
        sequelize, tableName: 'console_sessions', modelName: 'ConsoleSession', ...modelOptions,
        indexes: [{ name: 'console_sessions_expires', fields: ['expires_at'] }],
      },
    );
  }
}
