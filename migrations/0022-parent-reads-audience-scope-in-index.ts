import type { Sequelize } from 'sequelize';

/**
 * The parent feed walks activities_feed and the parents' board notices_board_urgent, newest first,
 * keeping the items the parent may see. With `audience_scope` (and for the board `published_at`) in
 * the index, that test is made on the index entry and only the items kept are read from the table:
 * at 1,000 schools a feed page read 197 buffer-pool pages instead of 271, a board page 147 instead
 * of 200 (bench/README.md). Each index keeps its name and MySQL swaps it in one ALTER, so an instance
 * still running a statement that names it (FORCE INDEX) finds it throughout a rolling upgrade.
 * SQLite's statements name no index.
 */
export const name = '0022-parent-reads-audience-scope-in-index';

const indexes = [
  { table: 'activities', name: 'activities_feed', before: ['school_id', 'status', 'deleted_status', 'created_at', 'id'], added: ['audience_scope'] },
  { table: 'notices', name: 'notices_board_urgent', before: ['school_id', 'notice_deleted', 'is_urgent', 'is_important', 'created_at', 'id'], added: ['audience_scope', 'published_at'] },
];

async function rebuild(sequelize: Sequelize, table: string, index: string, fields: string[]): Promise<void> {
  const columns = fields.join(', ');
  if (sequelize.getDialect() === 'mysql') {
    await sequelize.query(`ALTER TABLE ${table} DROP INDEX ${index}, ADD INDEX ${index} (${columns})`);
    return;
  }
  await sequelize.query(`DROP INDEX ${index}`);
  await sequelize.query(`CREATE INDEX ${index} ON ${table} (${columns})`);
}

export async function up(sequelize: Sequelize): Promise<void> {
  for (const i of indexes) await rebuild(sequelize, i.table, i.name, [...i.before, ...i.added]);
}

export async function down(sequelize: Sequelize): Promise<void> {
  for (const i of indexes) await rebuild(sequelize, i.table, i.name, i.before);
}
