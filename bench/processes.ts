import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { dataDir } from './layout.js';

/** A server under test running as its own process, so its memory and CPU are its own. */
export interface ServerProcess {
  name: string;
  pid: number;
  url: string;
  /** Resident memory in MB, from /proc (null once the process has gone). */
  rssMb(): number | null;
  output(): string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export function rssMbOf(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** CPU time (user + system) a process has used so far, in ms, from /proc (null once it has gone). */
export function cpuMsOf(pid: number): number | null {
  try {
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

/** The local MariaDB server's process, whose CPU per request is the database's share of the work. */
export function databasePid(): number | null {
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const name = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (name === 'mariadbd' || name === 'mysqld') return Number(entry);
    }
  } catch {
    // No /proc to read: the figure is left out.
  }
  return null;
}

function answers(url: string): Promise<number | null> {
  return new Promise((resolve) => {
    const req = http.get(url, { timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? null);
    });
    req.on('error', () => resolve(null));
    req.on('timeout', () => {
      req.destroy();
      resolve(null);
    });
  });
}

export interface StartOptions {
  name: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  port: number;
  /** Polled until it answers 200; any HTTP answer counts when null. */
  readyPath: string | null;
  timeoutMs?: number;
}

/**
 * Starts `node <args>` and waits until it answers on its port; a process that exits first fails with its output.
 * Everything it prints also goes to bench/.data/logs/<name>.log (a `--trace-gc` run, say).
 */
export async function startServer(o: StartOptions): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, o.args, { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe'] });
  mkdirSync(path.join(dataDir, 'logs'), { recursive: true });
  const file = createWriteStream(path.join(dataDir, 'logs', `${o.name}.log`));
  child.once('exit', () => file.end());
  let out = '';
  const keep = (chunk: Buffer) => {
    file.write(chunk);
    out = (out + chunk.toString()).slice(-8000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exited: number | null = null;
  const exit = new Promise<void>((resolve) => child.once('exit', (code) => {
    exited = code ?? -1;
    resolve();
  }));
  const url = `http://127.0.0.1:${o.port}`;
  const deadline = Date.now() + (o.timeoutMs ?? 90_000);
  const stop = async () => {
    if (exited !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 12_000);
    await exit;
    clearTimeout(timer);
  };
  for (;;) {
    if (exited !== null) throw new Error(`${o.name} exited with code ${exited} before it was ready:\n${out.trim()}`);
    const status = await answers(url + (o.readyPath ?? '/'));
    if (status !== null && (o.readyPath === null || status === 200)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${o.name} did not answer on ${url} in time:\n${out.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { name: o.name, pid: child.pid!, url, rssMb: () => rssMbOf(child.pid!), output: () => out, stop };
}
