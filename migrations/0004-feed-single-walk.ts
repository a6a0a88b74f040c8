import type { Sequelize } from 'sequelize';

/**
 * The parent feed is one backward walk of activities_feed that stops at the page: the index that
 * served its former two-range union (school-wide and targeted halves) has no reader left, and every
 * activity written paid for it.
 */
export const name = '0004-feed-single-walk';

const dropped = { name: 'activities_feed_student', fields: ['school_id', 'status', 'deleted_status', 'student_id', 'created_at', 'id'] };

export async function up(sequelize: Sequelize): Promise<void> {
  await sequelize.getQueryInterface().removeIndex('activities', dropped.name);
}

export async function down(sequelize: Sequelize): Promise<void> {
  await sequelize.getQueryInterface().addIndex('activities', dropped.fields, { name: dropped.name });
}
