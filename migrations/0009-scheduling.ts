import { DataTypes, type Sequelize } from 'sequelize';

/**
 * Scheduled activities and notices (`publish_at`; an activity's status `scheduled`) and urgent
 * notices (`is_urgent`, listed first). The due-item check finds scheduled items by their time.
 */
export const name = '0009-scheduling';

export async function up(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  await qi.addColumn('activities', 'publish_at', { type: DataTypes.DATE(3), allowNull: true });
  await qi.addColumn('notices', 'publish_at', { type: DataTypes.DATE(3), allowNull: true });
  await qi.addColumn('notices', 'is_urgent', { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false });
  await qi.addIndex('activities', ['status', 'publish_at'], { name: 'activities_due' });
  await qi.addIndex('notices', ['published_at', 'publish_at'], { name: 'notices_due' });
  // Urgent first, then important, then newest: the board's order, read backwards.
  await qi.addIndex('notices', ['school_id', 'notice_deleted', 'is_urgent', 'is_important', 'created_at', 'id'], { name: 'notices_board_urgent' });
}

export async function down(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  await qi.removeIndex('notices', 'notices_board_urgent');
  await qi.removeIndex('notices', 'notices_due');
  await qi.removeIndex('activities', 'activities_due');
  await qi.removeColumn('notices', 'is_urgent');
  await qi.removeColumn('notices', 'publish_at');
  await qi.removeColumn('activities', 'publish_at');
}
