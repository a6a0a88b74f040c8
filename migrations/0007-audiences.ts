import { DataTypes, type Sequelize } from 'sequelize';

/**
 * Audiences of activities and notices (any union of grades, groups and named students; none is the
 * whole school), read receipts (`item_reads`: READS is a reserved word in MySQL), and the times an
 * item was published and last reminded. An activity aimed at one student (`student_id`) becomes an
 * audience of that student.
 */
export const name = '0007-audiences';

const timestamps = {
  created_at: { type: DataTypes.DATE(3), allowNull: false },
  updated_at: { type: DataTypes.DATE(3), allowNull: false },
};

export async function up(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  for (const table of ['activities', 'notices']) {
    await qi.addColumn(table, 'audience_scope', { type: DataTypes.SMALLINT, allowNull: false, defaultValue: 0 });
    await qi.addColumn(table, 'published_at', { type: DataTypes.DATE(3), allowNull: true });
    await qi.addColumn(table, 'reminded_at', { type: DataTypes.DATE(3), allowNull: true });
  }
  await qi.createTable('audience_targets', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    school_id: { type: DataTypes.STRING(64), allowNull: false },
    entity_type: { type: DataTypes.STRING(20), allowNull: false },
    entity_id: { type: DataTypes.INTEGER, allowNull: false },
    student_id: { type: DataTypes.INTEGER, allowNull: true },
    grade: { type: DataTypes.STRING(60), allowNull: true },
    group_id: { type: DataTypes.INTEGER, allowNull: true },
    ...timestamps,
  });
  await qi.addIndex('audience_targets', ['school_id', 'entity_type', 'entity_id'], { name: 'audience_targets_entity' });
  // The feeds find the items aimed at a family's children from each kind of target.
  await qi.addIndex('audience_targets', ['school_id', 'entity_type', 'student_id', 'entity_id'], { name: 'audience_targets_student' });
  await qi.addIndex('audience_targets', ['school_id', 'entity_type', 'grade', 'entity_id'], { name: 'audience_targets_grade' });
  await qi.addIndex('audience_targets', ['school_id', 'entity_type', 'group_id', 'entity_id'], { name: 'audience_targets_group' });
  await qi.createTable('item_reads', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    school_id: { type: DataTypes.STRING(64), allowNull: false },
    entity_type: { type: DataTypes.STRING(20), allowNull: false },
    entity_id: { type: DataTypes.INTEGER, allowNull: false },
    parent_id: { type: DataTypes.INTEGER, allowNull: false },
    read_at: { type: DataTypes.DATE(3), allowNull: false },
  });
  await qi.addIndex('item_reads', ['school_id', 'entity_type', 'entity_id', 'parent_id'], { name: 'item_reads_uq', unique: true });
  await sequelize.query(
    `INSERT INTO audience_targets (school_id, entity_type, entity_id, student_id, created_at, updated_at)
     SELECT school_id, 'activity', id, student_id, created_at, updated_at FROM activities WHERE student_id IS NOT NULL`,
  );
  await sequelize.query('UPDATE activities SET audience_scope = 1 WHERE student_id IS NOT NULL');
  await sequelize.query("UPDATE activities SET published_at = created_at WHERE status = 'published'");
  await sequelize.query('UPDATE notices SET published_at = created_at');
}

export async function down(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  await qi.dropTable('item_reads');
  await qi.dropTable('audience_targets');
  for (const table of ['activities', 'notices']) {
    for (const column of ['audience_scope', 'published_at', 'reminded_at']) await qi.removeColumn(table, column);
  }
}
