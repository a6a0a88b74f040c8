import { DataTypes, type Sequelize } from 'sequelize';

/**
 * The links sent in SMS and e-mail (a post's web page, unsubscribe, e-mail verification), kept as
 * hashes of their tokens, and each school's SMS count a month, the counter its monthly limit is
 * claimed from by a conditional update.
 */
export const name = '0016-link-tokens-and-sms-usage';

export async function up(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  await qi.createTable('link_tokens', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    school_id: { type: DataTypes.STRING(64), allowNull: false },
    kind: { type: DataTypes.STRING(12), allowNull: false },
    token_hash: { type: DataTypes.STRING(64), allowNull: false },
    parent_id: { type: DataTypes.INTEGER, allowNull: false },
    entity_type: { type: DataTypes.STRING(20), allowNull: true },
    entity_id: { type: DataTypes.INTEGER, allowNull: true },
    reply_id: { type: DataTypes.INTEGER, allowNull: true },
    email: { type: DataTypes.STRING(254), allowNull: true },
    expires_at: { type: DataTypes.DATE(3), allowNull: false },
    created_at: { type: DataTypes.DATE(3), allowNull: false },
  });
  await qi.addIndex('link_tokens', ['school_id', 'token_hash'], { name: 'link_tokens_token_uq', unique: true });
  await qi.addIndex('link_tokens', ['school_id', 'parent_id'], { name: 'link_tokens_parent' });
  await qi.createTable('sms_usage', {
    school_id: { type: DataTypes.STRING(64), allowNull: false, primaryKey: true },
    month: { type: DataTypes.STRING(7), allowNull: false, primaryKey: true },
    used: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    granted: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
  });
}

export async function down(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  await qi.dropTable('sms_usage');
  await qi.dropTable('link_tokens');
}
