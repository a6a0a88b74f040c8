import type { Sequelize } from 'sequelize';

/**
 * The parent feed walks activities_feed newest first and keeps the items the parent may see. With
 * `audience_scope` in the index that test is made on the index entry, and only the items kept are
 * read from the table: at 1,000 schools a page read 197 buffer-pool pages instead of 271
 * (bench/README.md). The index keeps its name and MySQL swaps it in one ALTER, so an instance still
 * running the statement that names it (FORCE INDEX) finds it throughout a rolling upgrade. SQLite's
 * statements name no index.
 */
export const name = '0022-feed-index-audience-scope';

const before = ['school_id', 'status', 'deleted_status', 'created_at', 'id'];
const after = [...before, 'audience_scope'];

async function rebuild(sequelize: Sequelize, fields: string[]): Promise<void> {
  const columns = fields.join(', ');
  if (sequelize.getDialect() === 'mysql') {
    await sequelize.query(`ALTER TABLE activities DROP INDEX activities_feed, ADD INDEX activities_feed (${columns})`);
    return;
  }
  await sequelize.query('DROP INDEX activities_feed');
  await sequelize.query(`CREATE INDEX activities_feed ON activities (${columns})`);
}

export async function up(sequelize: Sequelize): Promise<void> {
  await rebuild(sequelize, after);
}

export async function down(sequelize: Sequelize): Promise<void> {
  await rebuild(sequelize, before);
}
