import type { Sequelize } from 'sequelize';

/**
 * Indexes for the parent's activity feed, a teacher's drafts and the filtered noticeboard: each puts
 * the filter's equality columns before the order columns, so a page is an ordered index scan, no sort.
 */
export const name = '0003-feed-indexes';

const indexes = [
  // The feed's two halves: school-wide (student_id IS NULL) and targeting the parent's children.
  { table: 'activities', name: 'activities_feed_student', fields: ['school_id', 'status', 'deleted_status', 'student_id', 'created_at', 'id'] },
  // The teachers' list filtered to the caller's drafts.
  { table: 'activities', name: 'activities_author', fields: ['school_id', 'staff_id', 'status', 'deleted_status', 'created_at', 'id'] },
  { table: 'notices', name: 'notices_board_type', fields: ['school_id', 'notice_deleted', 'notice_type', 'is_important', 'created_at', 'id'] },
];

export async function up(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  for (const index of indexes) await qi.addIndex(index.table, index.fields, { name: index.name });
}

export async function down(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  for (const index of indexes) await qi.removeIndex(index.table, index.name);
}
