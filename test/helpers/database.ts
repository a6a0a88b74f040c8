import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';

/** Every table the migrations create, read from the template so a new table is copied without a change here. */
export async function templateTables(conn: mysql.Connection, template: string): Promise<string[]> {
  const [rows] = await conn.query('SELECT table_name AS t FROM information_schema.tables WHERE table_schema = ?', [template]);
  return (rows as Array<{ t: string }>).map((r) => r.t);
}

export const mysqlUrl = () => process.env.TEST_DATABASE_URL || undefined;

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export interface TestDatabase {
  databaseUrl?: string;
  sqliteStorage?: string;
  dataDir: string;
  drop(): Promise<void>;
}

/**
 * A fresh database for one test file, copied from the template that global-setup migrated once:
 * an SQLite file copy, or on MySQL a new database whose tables are created LIKE the template's.
 */
export async function freshDatabase(): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sp-test-'));
  const url = mysqlUrl();
  if (!url) {
    // The name the command line looks for in DATA_DIR, so a CLI test can run the binary on the app's database.
    const sqliteStorage = path.join(dataDir, 'school-platform.sqlite');
    copyFileSync(process.env.SP_TEMPLATE_SQLITE!, sqliteStorage);
    return { sqliteStorage, dataDir, drop: async () => undefined };
  }
  const template = process.env.SP_TEMPLATE_MYSQL!;
  const name = `sp_t_${randomBytes(6).toString('hex')}`;
  const conn = await mysql.createConnection(url);
  await conn.query(`CREATE DATABASE \`${name}\``);
  for (const t of await templateTables(conn, template)) {
    await conn.query(`CREATE TABLE \`${name}\`.\`${t}\` LIKE \`${template}\`.\`${t}\``);
  }
  await conn.query(`INSERT INTO \`${name}\`.schema_migrations SELECT * FROM \`${template}\`.schema_migrations`);
  await conn.end();
  return {
    databaseUrl: withDatabase(url, name),
    dataDir,
    async drop() {
      const c = await mysql.createConnection(url);
      await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
      await c.end();
    },
  };
}
