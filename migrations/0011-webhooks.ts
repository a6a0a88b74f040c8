import { DataTypes, type Sequelize } from 'sequelize';

/**
 * Webhooks: a school's subscriptions (`webhooks`) and their outbox (`webhook_deliveries`), one row
 * per event and webhook, drained by the push worker. `event_id` names the event to the receiver and
 * stays the same across retries. `failing_since` is the first failed delivery since the last success:
 * three days of that switch the webhook off.
 */
export const name = '0011-webhooks';

const timestamps = {
  created_at: { type: DataTypes.DATE(3), allowNull: false },
  updated_at: { type: DataTypes.DATE(3), allowNull: false },
};

export async function up(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  await qi.createTable('webhooks', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    school_id: { type: DataTypes.STRING(64), allowNull: false },
    url: { type: DataTypes.STRING(2048), allowNull: false },
    events: { type: DataTypes.TEXT, allowNull: false },
    secret: { type: DataTypes.STRING(64), allowNull: false },
    active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
    disabled_reason: { type: DataTypes.STRING(300), allowNull: true },
    failing_since: { type: DataTypes.DATE(3), allowNull: true },
    deleted_status: { type: DataTypes.SMALLINT, allowNull: false, defaultValue: 0 },
    ...timestamps,
  });
  await qi.addIndex('webhooks', ['school_id', 'deleted_status', 'id'], { name: 'webhooks_school' });
  await qi.createTable('webhook_deliveries', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    school_id: { type: DataTypes.STRING(64), allowNull: false },
    webhook_id: { type: DataTypes.INTEGER, allowNull: false },
    event_id: { type: DataTypes.STRING(36), allowNull: false },
    event: { type: DataTypes.STRING(40), allowNull: false },
    payload: { type: DataTypes.TEXT, allowNull: false },
    status: { type: DataTypes.STRING(10), allowNull: false, defaultValue: 'pending' },
    attempts: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    response_status: { type: DataTypes.INTEGER, allowNull: true },
    last_error: { type: DataTypes.STRING(1000), allowNull: true },
    next_attempt_at: { type: DataTypes.DATE(3), allowNull: true },
    delivered_at: { type: DataTypes.DATE(3), allowNull: true },
    ...timestamps,
  });
  await qi.addIndex('webhook_deliveries', ['school_id', 'webhook_id', 'created_at', 'id'], { name: 'webhook_deliveries_webhook' });
  await qi.addIndex('webhook_deliveries', ['status', 'next_attempt_at'], { name: 'webhook_deliveries_due' });
  await qi.addIndex('webhook_deliveries', ['school_id', 'webhook_id', 'event_id'], { name: 'webhook_deliveries_event_uq', unique: true });
}

export async function down(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  await qi.dropTable('webhook_deliveries');
  await qi.dropTable('webhooks');
}
