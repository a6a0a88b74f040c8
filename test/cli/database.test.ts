import { describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../helpers/cli.js';

/**
 * Without DATABASE_URL the command line works on DATA_DIR/school-platform.sqlite only when it exists:
 * any command but `db migrate` is refused (exit 1) having created nothing, naming where it looked
 * and what to do; `db migrate` creates it and says so. A school made in a database the server never
 * reads is the mistake this prevents.
 */
const root = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
const envFor = (dataDir: string): NodeJS.ProcessEnv => ({
  ...process.env, NODE_OPTIONS: '', LOG_LEVEL: '', DATA_DIR: dataDir, DATABASE_URL: '', JWT_SECRET: '', ADMIN_COOKIE_SECRET: '',
});

const commands = [
  ['tenant', 'list'],
  ['tenant', 'create', '--id', 'nowhere', '--name', 'Nowhere School', '--admin-email', 'head@nowhere.example', '--admin-password', 'a long password'],
  ['admin', 'create', '--role', 'platform_admin', '--email', 'op@nowhere.example', '--name', 'Operator', '--password', 'a long password'],
  ['pin', 'reset', '--school', 'nowhere', '--type', 'parent', '--phone', '9876543210', '--pin', '2468'],
  ['sessions', 'purge'],
  ['db', 'seed', '--school', 'nowhere'],
  ['remind', '--school', 'nowhere', '--notice', '1'],
];

function expectRefusal(run: { code: number; stderr: string }, file: string) {
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(`No database at ${file}`);
  for (const words of ['DATA_DIR', 'DATABASE_URL', 'school-platform db migrate']) expect(run.stderr).toContain(words);
}

describe('the command line without a database', () => {
  it('refuses every command but db migrate with exit 1, creating no folder, database or secret file', async () => {
    const missing = path.join(mkdtempSync(path.join(tmpdir(), 'sp-no-db-')), 'data');
    for (const args of commands) {
      const run = await runCli(envFor(missing), args);
      expect({ args, code: run.code }).toEqual({ args, code: 1 });
      expectRefusal(run, path.join(missing, 'school-platform.sqlite'));
    }
    expect(existsSync(missing)).toBe(false);
  }, 240_000);

  it('names the absolute path of a relative DATA_DIR, and leaves an existing empty folder empty', async () => {
    const relative = `sp-no-db-${process.pid}-${Date.now()}`;
    const run = await runCli(envFor(relative), ['tenant', 'list', '--json']);
    expectRefusal(run, path.join(root, relative, 'school-platform.sqlite'));
    expect(run.json).toEqual({ error: { code: 'FAILED', message: expect.stringContaining(path.join(root, relative)) } });
    expect(existsSync(path.join(root, relative))).toBe(false);
    const empty = mkdtempSync(path.join(tmpdir(), 'sp-empty-'));
    expectRefusal(await runCli(envFor(empty), ['tenant', 'list']), path.join(empty, 'school-platform.sqlite'));
    expect(readdirSync(empty)).toEqual([]);
  }, 120_000);

  it('db migrate creates the database, saying where; then the other commands work on it', async () => {
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'sp-new-db-')), 'data');
    const file = path.join(dataDir, 'school-platform.sqlite');
    const migrated = await runCli(envFor(dataDir), ['db', 'migrate']);
    expect(migrated.code).toBe(0);
    expect(migrated.stdout).toContain(`Created the database at ${file}.`);
    expect(existsSync(file)).toBe(true);
    const again = await runCli(envFor(dataDir), ['db', 'migrate', '--json']);
    expect(again.json).toEqual({ applied: [] });
    const listed = await runCli(envFor(dataDir), ['tenant', 'list', '--json']);
    expect({ code: listed.code, json: listed.json }).toEqual({ code: 0, json: [] });
  }, 120_000);
});
