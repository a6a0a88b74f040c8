import { DataTypes, type Sequelize } from 'sequelize';

/** The admin console's cookie sessions (express-session), in the database so that several instances share them. */
export const name = '0002-console-sessions';

export async function up(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  await qi.createTable('console_sessions', {
    sid: { type: DataTypes.STRING(128), primaryKey: true, allowNull: false },
    data: { type: DataTypes.TEXT, allowNull: false },
    expires_at: { type: DataTypes.DATE(3), allowNull: false },
    created_at: { type: DataTypes.DATE(3), allowNull: false },
    updated_at: { type: DataTypes.DATE(3), allowNull: false },
  });
  await qi.addIndex('console_sessions', ['expires_at'], { name: 'console_sessions_expires' });
}

export async function down(sequelize: Sequelize): Promise<void> {
  await sequelize.getQueryInterface().dropTable('console_sessions');
}
