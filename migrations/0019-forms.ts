import { DataTypes, type Sequelize } from 'sequelize';

/**
 * Forms on activities and notices (permission slips, sign-ups, RSVPs) and the families' responses.
 * A form's row holds its definition and, in `counts`, how many responses chose each option: a
 * response is written under a lock on that row, so the counts and the capacities they are held to
 * move one response at a time. One response per child (or per family) is a unique key on
 * `respondent`. An item's `form_id` lets a feed page skip the forms query when none of its items has one.
 */
export const name = '0019-forms';

const timestamps = {
  created_at: { type: DataTypes.DATE(3), allowNull: false },
  updated_at: { type: DataTypes.DATE(3), allowNull: false },
};

export async function up(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  await qi.createTable('forms', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    school_id: { type: DataTypes.STRING(64), allowNull: false },
    entity_type: { type: DataTypes.STRING(20), allowNull: false },
    entity_id: { type: DataTypes.INTEGER, allowNull: false },
    questions: { type: DataTypes.TEXT, allowNull: false },
    due_at: { type: DataTypes.DATE(3), allowNull: true },
    per_student: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
    editable: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
    closed_at: { type: DataTypes.DATE(3), allowNull: true },
    counts: { type: DataTypes.TEXT, allowNull: false },
    response_count: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    ...timestamps,
  });
  await qi.addIndex('forms', ['school_id', 'entity_type', 'entity_id'], { name: 'forms_item_uq', unique: true });
  await qi.createTable('form_responses', {
    id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
    school_id: { type: DataTypes.STRING(64), allowNull: false },
    form_id: { type: DataTypes.INTEGER, allowNull: false },
    parent_id: { type: DataTypes.INTEGER, allowNull: false },
    student_id: { type: DataTypes.INTEGER, allowNull: true },
    respondent: { type: DataTypes.STRING(24), allowNull: false },
    answers: { type: DataTypes.TEXT, allowNull: false },
    signature: { type: DataTypes.STRING(120), allowNull: true },
    signed_at: { type: DataTypes.DATE(3), allowNull: true },
    ip: { type: DataTypes.STRING(64), allowNull: true },
    user_agent: { type: DataTypes.STRING(512), allowNull: true },
    submitted_at: { type: DataTypes.DATE(3), allowNull: false },
    ...timestamps,
  });
  await qi.addIndex('form_responses', ['school_id', 'form_id', 'respondent'], { name: 'form_responses_one_uq', unique: true });
  await qi.addIndex('form_responses', ['school_id', 'form_id', 'submitted_at', 'id'], { name: 'form_responses_form' });
  await qi.addIndex('form_responses', ['school_id', 'parent_id', 'form_id'], { name: 'form_responses_parent' });
  await qi.addIndex('form_responses', ['school_id', 'student_id'], { name: 'form_responses_student' });
  await qi.addColumn('activities', 'form_id', { type: DataTypes.INTEGER, allowNull: true });
  await qi.addColumn('notices', 'form_id', { type: DataTypes.INTEGER, allowNull: true });
}

export async function down(sequelize: Sequelize): Promise<void> {
  const qi = sequelize.getQueryInterface();
  await qi.removeColumn('notices', 'form_id');
  await qi.removeColumn('activities', 'form_id');
  await qi.dropTable('form_responses');
  await qi.dropTable('forms');
}
