import { DataTypes, type Sequelize } from 'sequelize';

/**
 * A school's time zone (quiet hours are the parents' local hours), each parent's notification
 * preferences, and the time a held notification becomes deliverable.
 */
export const name = '0008-school-settings-and-preferences';

const category = { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true };

export async function up(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  await qi.addColumn('schools', 'timezone', { type: DataTypes.STRING(64), allowNull: false, defaultValue: 'UTC' });
  await qi.addColumn('notifications', 'deliver_after', { type: DataTypes.DATE(3), allowNull: true });
  await qi.createTable('notification_preferences', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    school_id: { type: DataTypes.STRING(64), allowNull: false },
    parent_id: { type: DataTypes.INTEGER, allowNull: false },
    activities: category,
    notices: category,
    write_to: category,
    diary: category,
    attendance: category,
    quiet_start: { type: DataTypes.STRING(5), allowNull: true },
    quiet_end: { type: DataTypes.STRING(5), allowNull: true },
    created_at: { type: DataTypes.DATE(3), allowNull: false },
    updated_at: { type: DataTypes.DATE(3), allowNull: false },
  });
  await qi.addIndex('notification_preferences', ['school_id', 'parent_id'], { name: 'notification_preferences_parent', unique: true });
}

export async function down(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  await qi.dropTable('notification_preferences');
  await qi.removeColumn('notifications', 'deliver_after');
  await qi.removeColumn('schools', 'timezone');
}
