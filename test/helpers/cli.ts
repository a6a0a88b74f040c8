import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestApp } from './app.js';

const root = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
const bin = path.join(root, 'bin', 'school-platform.js');
/*
 * The program the binary runs from the sources. The binary itself prefers a build in dist/ when one
 * exists, which would test a stale (or half-written) build after `npm start`; the tests run the
 * sources, and one test runs the binary to check that it starts the same program.
 */
const program = ['--import', 'tsx', path.join(root, 'src', 'cli', 'index.ts')];

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed, for runs with --json. */
  json: any;
}

/** The environment the operator would set: the test app's DATA_DIR (its SQLite file) or its MySQL database. */
export function cliEnv(t: TestApp, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, NODE_OPTIONS: '', LOG_LEVEL: '', DATA_DIR: t.ctx.config.dataDir, DATABASE_URL: t.ctx.config.databaseUrl ?? '', ...extra };
}

/** Runs the command line as a child process without a terminal (stdin is /dev/null); `viaBin` starts it through bin/. */
export function runCli(env: NodeJS.ProcessEnv, args: string[], options: { viaBin?: boolean } = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.viaBin ? [bin] : program), ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      let json: unknown;
      if (args.includes('--json') && stdout.trim()) json = JSON.parse(stdout);
      resolve({ code: code ?? -1, stdout, stderr, json });
    });
  });
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const stripAnsi = (s: string) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\x1b[()][A-Z0-9]/g, '');

export interface TerminalStep {
  /** Text the terminal shows before the answer is typed (a prompt's question). */
  waitFor: string;
  /** What the operator types, with \r for Enter. */
  type: string;
}

/**
 * Runs the command line on a pseudo-terminal (util-linux `script`), so stdin and stdout are TTYs as for an
 * operator at a shell: each answer is typed once its prompt is on screen. Gives the exit code and
 * the whole screen transcript without colour codes.
 */
export function runInTerminal(env: NodeJS.ProcessEnv, args: string[], steps: TerminalStep[], timeoutMs = 45_000): Promise<{ code: number; screen: string }> {
  const command = [process.execPath, ...program, ...args].map(shellQuote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qefc', command, '/dev/null'], { cwd: root, env: { ...env, TERM: 'xterm' }, stdio: ['pipe', 'pipe', 'pipe'] });
    const pending = [...steps];
    let screen = '';
    let seenUpTo = 0;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no "${pending[0]?.waitFor ?? 'exit'}" on the terminal within ${timeoutMs} ms; it showed:\n${stripAnsi(screen)}`));
    }, timeoutMs);
    const onOutput = (d: Buffer) => {
      screen += d.toString();
      const next = pending[0];
      if (!next) return;
      const visible = stripAnsi(screen);
      const at = visible.indexOf(next.waitFor, seenUpTo);
      if (at === -1) return;
      seenUpTo = at + next.waitFor.length;
      pending.shift();
      child.stdin.write(next.type);
    };
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, screen: stripAnsi(screen) });
    });
  });
}
