import type { Sequelize } from 'sequelize';

/**
 * Students archived through the API or the console before `archived_at` was kept on every door have
 * none, so retention never reached them: their last change (an archived student cannot be edited)
 * stands in for it. A student restored the same way kept a stale one, which would count a later
 * archive from the wrong day.
 */
export const name = '0013-student-archived-at-backfill';

export async function up(sequelize: Sequelize): Promise<void> {
  await sequelize.query("UPDATE students SET archived_at = updated_at WHERE status = 'archived' AND archived_at IS NULL");
  await sequelize.query("UPDATE students SET archived_at = NULL WHERE status <> 'archived' AND archived_at IS NOT NULL");
}

/** Data only: the column stays, and the times it now holds are as good as any. */
export async function down(): Promise<void> {}
