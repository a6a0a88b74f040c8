import { DataTypes, type Sequelize } from 'sequelize';

/**
 * Reaching families outside the app (SMS and e-mail): a school's country (how its national phone
 * numbers are read) and monthly SMS limit; a parent's address given in the app and not yet verified;
 * each parent's channels; a delivery record's gateway id and delivery time, and the index reach and
 * the gateway's status callbacks read records by.
 */
export const name = '0015-reaching-families';

const on = { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true };

export async function up(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  await qi.addColumn('schools', 'country', { type: DataTypes.STRING(2), allowNull: true });
  await qi.addColumn('schools', 'sms_monthly_limit', { type: DataTypes.INTEGER, allowNull: false, defaultValue: 1000 });
  await qi.addColumn('parents', 'unverified_email', { type: DataTypes.STRING(254), allowNull: true });
  await qi.addColumn('notification_preferences', 'channel_push', on);
  await qi.addColumn('notification_preferences', 'channel_email', on);
  await qi.addColumn('notification_preferences', 'channel_sms', on);
  await qi.addColumn('notifications', 'provider_id', { type: DataTypes.STRING(64), allowNull: true });
  await qi.addColumn('notifications', 'delivered_at', { type: DataTypes.DATE(3), allowNull: true });
  await qi.addIndex('notifications', ['provider_id'], { name: 'notifications_provider_id' });
  await qi.addIndex('notifications', ['school_id', 'entity_type', 'entity_id', 'target_type'], { name: 'notifications_entity' });
}

export async function down(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  await qi.removeIndex('notifications', 'notifications_entity');
  await qi.removeIndex('notifications', 'notifications_provider_id');
  await qi.removeColumn('notifications', 'delivered_at');
  await qi.removeColumn('notifications', 'provider_id');
  for (const c of ['channel_sms', 'channel_email', 'channel_push']) await qi.removeColumn('notification_preferences', c);
  await qi.removeColumn('parents', 'unverified_email');
  await qi.removeColumn('schools', 'sms_monthly_limit');
  await qi.removeColumn('schools', 'country');
}
