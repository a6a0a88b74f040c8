import type { Sequelize } from 'sequelize';

/**
 * A group's description takes up to 10,000 characters, as every description does. SQLite does not
 * hold a VARCHAR to its length, so only MySQL's column changes.
 */
export const name = '0012-group-description-text';

export async function up(sequelize: Sequelize): Promise<void> {
  if (sequelize.getDialect() === 'mysql') await sequelize.query('ALTER TABLE student_groups MODIFY description TEXT NULL');
}

export async function down(sequelize: Sequelize): Promise<void> {
  if (sequelize.getDialect() === 'mysql') await sequelize.query('ALTER TABLE student_groups MODIFY description VARCHAR(1000) NULL');
}
