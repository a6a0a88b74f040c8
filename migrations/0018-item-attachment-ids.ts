import { DataTypes, type Sequelize } from 'sequelize';

/**
 * The items that carry attachments keep their ids in order (`attachment_ids`, JSON text, null for
 * none): a page of items reads its files with one query by primary key, none when no item has any,
 * and the item's own audit event records the attachments it gained or lost.
 */
export const name = '0018-item-attachment-ids';

const tables = ['activities', 'notices', 'diary_entries', 'write_to_requests', 'write_to_replies'];

export async function up(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  for (const table of tables) await qi.addColumn(table, 'attachment_ids', { type: DataTypes.TEXT, allowNull: true });
}

export async function down(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  for (const table of tables) await qi.removeColumn(table, 'attachment_ids');
}
