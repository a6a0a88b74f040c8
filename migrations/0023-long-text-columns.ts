import { QueryTypes, type Sequelize } from 'sequelize';

/**
 * A MySQL TEXT holds 65,535 bytes and strict mode refuses a longer value, yet the contract's limits
 * let these columns get past it: a form of 50 choice questions of 50 options (its definition, and its
 * counts keyed by option id), 50 text answers of 2,000 characters, an audited change holding two
 * 10,000-character descriptions that JSON escapes at up to six bytes a character, and the webhook
 * bodies carrying such data. A MEDIUMTEXT (16 MiB) stores and reads a short value just as a TEXT does
 * (its length takes one byte more). MySQL and MariaDB copy the table to change a column's type, holding
 * its writes meanwhile: on a large audit_events the step takes a while. Each column keeps its
 * nullability and collation; none has a default. Going down refuses while a longer value is stored.
 * SQLite's TEXT has no such limit: nothing changes there.
 */
export const name = '0023-long-text-columns';

const columns: Record<string, string[]> = {
  forms: ['questions', 'counts'],
  form_responses: ['answers'],
  audit_events: ['changes'],
  webhook_deliveries: ['payload'],
};

async function retype(sequelize: Sequelize, type: 'MEDIUMTEXT' | 'TEXT'): Promise<void> {
  if (sequelize.getDialect() !== 'mysql') return;
  for (const [table, names] of Object.entries(columns)) {
    const found = await sequelize.query<{ name: string; nullable: string; collation: string }>(
      `SELECT column_name AS name, is_nullable AS nullable, collation_name AS collation FROM information_schema.columns
       WHERE table_schema = DATABASE() AND table_name = :table AND column_name IN (:names)`,
      { replacements: { table, names }, type: QueryTypes.SELECT },
    );
    const byName = new Map(found.map((c) => [c.name, c]));
    // One ALTER a table: its rows are copied once.
    const changes = names.map((n) => {
      const c = byName.get(n);
      if (!c) throw new Error(`${table}.${n} not found`);
      return `MODIFY ${n} ${type} COLLATE ${c.collation} ${c.nullable === 'YES' ? 'NULL' : 'NOT NULL'}`;
    });
    await sequelize.query(`ALTER TABLE ${table} ${changes.join(', ')}`);
  }
}

export async function up(sequelize: Sequelize): Promise<void> {
  await retype(sequelize, 'MEDIUMTEXT');
}

export async function down(sequelize: Sequelize): Promise<void> {
  if (sequelize.getDialect() !== 'mysql') return;
  // Checked before any table changes: strict mode would refuse the value midway, some tables already back to TEXT.
  for (const [table, names] of Object.entries(columns)) {
    for (const n of names) {
      const [row] = await sequelize.query<{ id: number }>(`SELECT 1 AS id FROM ${table} WHERE LENGTH(${n}) > 65535 LIMIT 1`, { type: QueryTypes.SELECT });
      if (row) throw new Error(`${table}.${n} holds a value longer than a TEXT takes: nothing was changed`);
    }
  }
  await retype(sequelize, 'TEXT');
}
