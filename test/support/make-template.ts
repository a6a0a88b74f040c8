import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { migrate, openDatabase } from '../../src/db.js';
import { mysqlUrl, withDatabase } from '../helpers/database.js';

/** Migrates one template database per run and prints where it is; each test file then starts from a copy of it. */
async function makeTemplate(): Promise<Record<string, string>> {
  const url = mysqlUrl();
  if (!url) {
    const dir = mkdtempSync(path.join(tmpdir(), 'sp-template-'));
    const sqliteStorage = path.join(dir, 'template.sqlite');
    const db = await openDatabase({ dataDir: dir, sqliteStorage });
    await migrate(db.sequelize);
    await db.sequelize.query('PRAGMA wal_checkpoint(TRUNCATE)');
    await db.close();
    return { SP_TEMPLATE_SQLITE: sqliteStorage };
  }
  const name = `sp_template_${randomBytes(4).toString('hex')}`;
  const conn = await mysql.createConnection(url);
  await conn.query(`CREATE DATABASE \`${name}\``);
  await conn.end();
  const db = await openDatabase({ dataDir: tmpdir(), databaseUrl: withDatabase(url, name) });
  await migrate(db.sequelize);
  await db.close();
  return { SP_TEMPLATE_MYSQL: name };
}

process.stdout.write(JSON.stringify(await makeTemplate()));
process.exit(0);
