import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { TEST_JWT_SECRET } from './app.js';
import { fetchChecked } from './openapi-check.js';

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** The real server (src/server.ts through tsx) as a child process, as an operator would run it; on a free port unless env names one. */
export async function startServer(env: Record<string, string | undefined>, options: { startTimeoutMs?: number } = {}): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      HOST: '127.0.0.1',
      JWT_SECRET: TEST_JWT_SECRET,
      ADMIN_COOKIE_SECRET: TEST_JWT_SECRET,
      LOG_LEVEL: 'warn',
      ADMIN_CONSOLE_ENABLED: 'false',
      RATE_LIMIT_PUBLIC: '1000000',
      RATE_LIMIT_AUTH: '1000000',
      LOGIN_RATE_LIMIT_IP: '1000000',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.startTimeoutMs ?? 30_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited during start-up: ${out}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start: ${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
    child,
    output: () => out,
    exited,
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** A JSON POST to a server process; its answer is checked against the OpenAPI document. */
export async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetchChecked(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, any> | null };
}
