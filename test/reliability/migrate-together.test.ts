import { afterAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { Sequelize } from 'sequelize';
import { migrate } from '../../src/db.js';
import { migrations } from '../../migrations/index.js';
import { mysqlUrl, withDatabase } from '../helpers/database.js';

/**
 * Instances started together on a database without the schema (a first deployment, or a release
 * with a new migration rolled out to every instance at once) take turns: the migrations run once and
 * every instance starts.
 */
const url = mysqlUrl();
const name = `sp_mig_${randomBytes(4).toString('hex')}`;
const opened: Sequelize[] = [];

afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  if (url) {
    const c = await mysql.createConnection(url);
    await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await c.end();
  }
});

const open = (target: string) => {
  const sequelize = target.startsWith('mysql:') ? new Sequelize(target, { logging: false }) : new Sequelize({ dialect: 'sqlite', storage: target, logging: false });
  opened.push(sequelize);
  return sequelize;
};

describe('migrations started by two instances at once', () => {
  it('run once, and neither instance fails', async () => {
    if (!url) {
      // The embedded database serves one process: its migrations run once, and again find nothing to do.
      const file = path.join(mkdtempSync(path.join(tmpdir(), 'sp-mig-')), 'school-platform.sqlite');
      expect(await migrate(open(file))).toHaveLength(migrations.length);
      expect(await migrate(open(file))).toEqual([]);
      return;
    }
    const c = await mysql.createConnection(url);
    await c.query(`CREATE DATABASE \`${name}\``);
    await c.end();
    const [first, second] = await Promise.all([migrate(open(withDatabase(url, name))), migrate(open(withDatabase(url, name)))]);
    expect([first, second].map((done) => done.length).sort((x, y) => x - y)).toEqual([0, migrations.length]);
  }, 120_000);
});
