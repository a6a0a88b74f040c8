import { DataTypes, type Sequelize } from 'sequelize';

/**
 * The audit trail: one row per change, sign-in and lock-out, appended in the transaction of what it
 * records. Read newest first within a school, by entity, by actor and by action. Students keep when
 * they were archived (the retention period counts from it) and when they were erased.
 */
export const name = '0010-audit';

export async function up(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  await qi.createTable('audit_events', {
    id: { type: DataTypes.BIGINT, autoIncrement: true, primaryKey: true },
    school_id: { type: DataTypes.STRING(64), allowNull: true },
    at: { type: DataTypes.DATE(3), allowNull: false },
    actor_type: { type: DataTypes.STRING(10), allowNull: false },
    actor_id: { type: DataTypes.STRING(64), allowNull: true },
    actor_name: { type: DataTypes.STRING(200), allowNull: true },
    door: { type: DataTypes.STRING(8), allowNull: false },
    action: { type: DataTypes.STRING(64), allowNull: false },
    entity_type: { type: DataTypes.STRING(20), allowNull: false },
    entity_id: { type: DataTypes.STRING(64), allowNull: true },
    changes: { type: DataTypes.TEXT, allowNull: true },
    ip: { type: DataTypes.STRING(64), allowNull: true },
    request_id: { type: DataTypes.STRING(128), allowNull: true },
  });
  await qi.addIndex('audit_events', ['school_id', 'id'], { name: 'audit_events_school' });
  await qi.addIndex('audit_events', ['school_id', 'at'], { name: 'audit_events_school_at' });
  await qi.addIndex('audit_events', ['school_id', 'entity_type', 'entity_id', 'id'], { name: 'audit_events_entity' });
  await qi.addIndex('audit_events', ['school_id', 'actor_type', 'actor_id', 'id'], { name: 'audit_events_actor' });
  await qi.addIndex('audit_events', ['school_id', 'action', 'id'], { name: 'audit_events_action' });
  await qi.addColumn('students', 'archived_at', { type: DataTypes.DATE(3), allowNull: true });
  await qi.addColumn('students', 'erased_at', { type: DataTypes.DATE(3), allowNull: true });
  await qi.addIndex('students', ['status', 'archived_at'], { name: 'students_retention' });
}

export async function down(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  await qi.removeIndex('students', 'students_retention');
  await qi.removeColumn('students', 'erased_at');
  await qi.removeColumn('students', 'archived_at');
  await qi.dropTable('audit_events');
}
