import type { Sequelize } from 'sequelize';

/**
 * The web students search (a name or roll number anywhere in the text) cannot seek, so it reads the
 * school's students: from this index it tests the pattern on the entries themselves, counts the
 * matches without touching a row, and fetches only the rows of the page.
 */
export const name = '0005-student-search-index';

const index = { name: 'students_school_search', fields: ['school_id', 'status', 'student_full_name', 'roll_no'] };

export async function up(sequelize: Sequelize): Promise<void> {
  await sequelize.getQueryInterface().addIndex('students', index.fields, { name: index.name });
}

export async function down(sequelize: Sequelize): Promise<void> {
  await sequelize.getQueryInterface().removeIndex('students', index.name);
}
