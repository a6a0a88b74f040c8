import { describe, it, expect, afterAll } from '@jest/globals';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../helpers/server-process.js';

/**
 * `npm run demo` as a newcomer runs it: it seeds a fresh embedded database, starts the server with
 * the console, and the sign-ins and curl calls it prints work as printed.
 */
const run = promisify(execFile);
const dirs: string[] = [];
const children: ChildProcess[] = [];

function startDemo(dataDir: string, port: number, withConsole = false) {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/demo.ts', '--data-dir', dataDir], {
    env: { ...process.env, NODE_OPTIONS: '', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ADMIN_CONSOLE_ENABLED: String(withConsole), DATABASE_URL: 'mysql://must-not-be-used@127.0.0.1:1/none' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const printed = async (text: string, timeoutMs = 90_000) => {
    const deadline = Date.now() + timeoutMs;
    while (!out.includes(text)) {
      if (child.exitCode !== null) throw new Error(`the demo exited: ${out}`);
      if (Date.now() > deadline) throw new Error(`the demo did not print "${text}": ${out}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return out;
  };
  return { child, exited, printed, output: () => out };
}

const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'sp-demo-test-'));
  dirs.push(dir);
  return dir;
};

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('npm run demo', () => {
  it('serves the demo school on a fresh database and prints sign-ins and curl calls that work', async () => {
    const dataDir = path.join(tempDir(), 'data-demo');
    const port = await freePort();
    const demo = startDemo(dataDir, port, true);
    const out = await demo.printed('Ctrl-C stops the server.');
    const base = `http://127.0.0.1:${port}`;

    expect(out).toContain(`Admin console:  ${base}/admin`);
    expect(out).toMatch(/Web admin app {2}e-mail admin\.demo@demo\.example\.org, password \S+/);
    // The office's admin and the IT contact beside the super_admin, each signing in with the role printed.
    for (const [who, role] of [['admin', 'super_admin'], ['office', 'admin'], ['it', 'it_contact']] as const) {
      const line = new RegExp(`e-mail (${who}\\.demo@demo\\.example\\.org), password (\\S+) {2}\\(${role}\\)`).exec(out);
      expect(line).not.toBeNull();
      const signin = await fetch(`${base}/web-app/signin`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: line![1], password: line![2] }) });
      expect(((await signin.json()) as { data: { user: { role: string } } }).data.user.role).toBe(role);
    }
    expect(out).toMatch(/Teachers app {3}phone \d+, PIN \d+, school demo/);
    expect(out).toMatch(/Parent app {5}phone \d+, PIN \d+/);
    expect((await fetch(`${base}/admin/login`)).status).toBe(200);
    expect(existsSync(path.join(dataDir, 'school-platform.sqlite'))).toBe(true);

    // The three calls exactly as printed (continuation lines joined), run by a shell.
    const calls = out.slice(out.indexOf('Try it:') + 'Try it:'.length, out.indexOf('Ctrl-C stops'))
      .replace(/\\\n\s*/g, '').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
    expect(calls).toHaveLength(3);
    const { stdout } = await run('bash', ['-c', `set -euo pipefail\n${calls[0]}\n${calls[1]}\necho\n${calls[2]}`]);
    const [noticeboard, parentLogin] = stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(noticeboard).toMatchObject({ success: true, data: { count: 4 } });
    expect(noticeboard.data.notices[0]).toMatchObject({ school_id: 'demo', is_important: true });
    expect(parentLogin).toMatchObject({ success: true, data: { parent: { school_id: 'demo' } } });
    expect(parentLogin.data.children).toHaveLength(2);

    demo.child.kill('SIGTERM');
    expect(await demo.exited).toBe(0);
  }, 180_000);

  it('starts from an empty database on every run, and never deletes a folder it did not make', async () => {
    const dataDir = path.join(tempDir(), 'data-demo');
    const first = startDemo(dataDir, await freePort());
    await first.printed('Ctrl-C stops the server.');
    first.child.kill('SIGTERM');
    await first.exited;
    writeFileSync(path.join(dataDir, 'left-over.txt'), 'from the last run');

    const second = startDemo(dataDir, await freePort());
    await second.printed('Ctrl-C stops the server.');
    expect(existsSync(path.join(dataDir, 'left-over.txt'))).toBe(false);
    second.child.kill('SIGTERM');
    await second.exited;

    const precious = tempDir();
    writeFileSync(path.join(precious, 'school-platform.sqlite'), 'a real database');
    const refused = startDemo(precious, await freePort());
    expect(await refused.exited).toBe(1);
    expect(refused.output()).toContain('was not made by the demo: refusing to delete it');
    expect(readFileSync(path.join(precious, 'school-platform.sqlite'), 'utf8')).toBe('a real database');
  }, 180_000);
});
