import { DataTypes, type Sequelize } from 'sequelize';

/**
 * Groups: a school's named sets of students (a section, a team, a bus route), in `student_groups`
 * (GROUPS is a reserved word in MySQL 8). A deleted group keeps its row and members (`deleted_key`
 * becomes its id), so its name is free again for a new group and what was addressed to it stays.
 */
export const name = '0006-groups';

const timestamps = {
  created_at: { type: DataTypes.DATE(3), allowNull: false },
  updated_at: { type: DataTypes.DATE(3), allowNull: false },
};

export async function up(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  await qi.createTable('student_groups', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    school_id: { type: DataTypes.STRING(64), allowNull: false },
    name: { type: DataTypes.STRING(120), allowNull: false },
    description: { type: DataTypes.STRING(1000), allowNull: true },
    deleted_key: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    ...timestamps,
  });
  await qi.addIndex('student_groups', ['school_id', 'name', 'deleted_key'], { name: 'student_groups_name_uq', unique: true });
  await qi.createTable('group_members', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    school_id: { type: DataTypes.STRING(64), allowNull: false },
    group_id: { type: DataTypes.INTEGER, allowNull: false },
    student_id: { type: DataTypes.INTEGER, allowNull: false },
    ...timestamps,
  });
  await qi.addIndex('group_members', ['school_id', 'group_id', 'student_id'], { name: 'group_members_uq', unique: true });
  await qi.addIndex('group_members', ['school_id', 'student_id', 'group_id'], { name: 'group_members_student' });
}

export async function down(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  await qi.dropTable('group_members');
  await qi.dropTable('student_groups');
}
