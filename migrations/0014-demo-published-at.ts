import type { Sequelize } from 'sequelize';

/**
 * The demo seeder wrote its notices and published activities without `published_at`, so its notices
 * stayed off every parent's board and were listed as scheduled. A notice with neither time, or a
 * published activity without one, was posted at its creation.
 */
export const name = '0014-demo-published-at';

export async function up(sequelize: Sequelize): Promise<void> {
  await sequelize.query('UPDATE notices SET published_at = created_at WHERE published_at IS NULL AND publish_at IS NULL');
  await sequelize.query("UPDATE activities SET published_at = created_at WHERE published_at IS NULL AND status = 'published'");
}

/** Data only: the times it set are the posts' own. */
export async function down(): Promise<void> {}
