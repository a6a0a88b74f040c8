import { DataTypes, type Sequelize } from 'sequelize';

/**
 * Events on the calendar: an activity's `starts_at`, `ends_at`, `all_day` and `location`, and
 * `span_end`, the last instant its span covers (its end, its start without one, the end of its last
 * day when all day), by which the calendars find what overlaps a range. `calendar_feeds`: one
 * subscription URL per parent, kept only as the SHA-256 of its token.
 */
export const name = '0020-events-and-calendar-feeds';

export async function up(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  await qi.addColumn('activities', 'starts_at', { type: DataTypes.DATE(3), allowNull: true });
  await qi.addColumn('activities', 'ends_at', { type: DataTypes.DATE(3), allowNull: true });
  await qi.addColumn('activities', 'all_day', { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false });
  await qi.addColumn('activities', 'location', { type: DataTypes.STRING(200), allowNull: true });
  await qi.addColumn('activities', 'span_end', { type: DataTypes.DATE(3), allowNull: true });
  await qi.addIndex('activities', ['school_id', 'deleted_status', 'span_end', 'starts_at'], { name: 'activities_calendar' });
  await qi.createTable('calendar_feeds', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    school_id: { type: DataTypes.STRING(64), allowNull: false },
    parent_id: { type: DataTypes.INTEGER, allowNull: false },
    token_hash: { type: DataTypes.STRING(64), allowNull: false },
    created_at: { type: DataTypes.DATE(3), allowNull: false },
    updated_at: { type: DataTypes.DATE(3), allowNull: false },
  });
  await qi.addIndex('calendar_feeds', ['school_id', 'parent_id'], { name: 'calendar_feeds_parent_uq', unique: true });
  await qi.addIndex('calendar_feeds', ['token_hash'], { name: 'calendar_feeds_token_uq', unique: true });
}

export async function down(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  await qi.dropTable('calendar_feeds');
  await qi.removeIndex('activities', 'activities_calendar');
  for (const column of ['span_end', 'location', 'all_day', 'ends_at', 'starts_at']) await qi.removeColumn('activities', column);
}
