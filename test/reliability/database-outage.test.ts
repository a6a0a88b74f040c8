import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import sqlite3 from 'sqlite3';
import { freshDatabase, mysqlUrl, type TestDatabase } from '../helpers/database.js';
import { post, startServer, type ServerProcess } from '../helpers/server-process.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { fetchChecked } from '../helpers/openapi-check.js';

/**
 * Database outage, against the real server process under load. On MariaDB the database is taken
 * away through a TCP proxy (the shared server stays up for the other test files): requests answer a
 * clean 503 within seconds, /readyz says so, and the service recovers by itself when the database
 * returns. On SQLite there is no server to lose; the outage there is another process holding the
 * write lock: writes answer 503 within seconds instead of hanging, reads go on, and writes resume
 * when the lock is released.
 */
const CLIENT_TIMEOUT_MS = 8000;
/** The server's DB_QUERY_TIMEOUT_MS in the MariaDB outage (the default is 10 s). */
const QUERY_TIMEOUT_MS = 1500;

interface Outcome {
  path: string;
  method: string;
  startedAt: number;
  endedAt: number;
  status: number | 'timeout' | 'network error';
  retryAfter?: string | null;
  body: string;
}

async function timed(url: string, path: string, init: RequestInit = {}): Promise<Outcome> {
  const startedAt = Date.now();
  const method = init.method ?? 'GET';
  try {
    const res = await fetchChecked(url + path, { ...init, signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
    const body = await res.text();
    return { path, method, startedAt, endedAt: Date.now(), status: res.status, retryAfter: res.headers.get('retry-after'), body };
  } catch (err) {
    const status = (err as Error).name === 'TimeoutError' ? 'timeout' : 'network error';
    return { path, method, startedAt, endedAt: Date.now(), status, body: String(err) };
  }
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, withinMs: number): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const internals = /SELECT |INSERT INTO|UPDATE |sqlite|SQLITE_|ER_|ECONN|PROTOCOL_|Sequelize|\.ts:\d+|node_modules|\bat [\w.<>]+ \(/i;

const ok = (o: Outcome) => o.status === 200 || o.status === 201;

/** Anything but a success must be the contract's 503 with a Retry-After, and nothing of the server's insides. */
function unclean(outcomes: Outcome[]): Outcome[] {
  return outcomes.filter((o) => {
    if (ok(o)) return false;
    if (o.status !== 503 || !o.retryAfter || internals.test(o.body)) return true;
    try {
      const body = JSON.parse(o.body) as Record<string, any>;
      return !(body.success === false && typeof body.message === 'string' && body.error?.code === 'SERVICE_UNAVAILABLE');
    } catch {
      return true;
    }
  });
}

const summary = (outcomes: Outcome[]) => outcomes.map((o) => `${o.method} ${o.path} ${o.status} in ${o.endedAt - o.startedAt} ms: ${o.body.slice(0, 200)}`);

let loads = 0;

/** Six clients sending authenticated reads and, every fifth request, a write, until stopped. */
function startLoad(server: ServerProcess, token: string) {
  const outcomes: Outcome[] = [];
  let stopped = false;
  let n = 0;
  const run = (loads += 1);
  const auth = { Authorization: `Bearer ${token}` };
  const reads = ['/web-app/sessions', '/web-app/admins', '/web-app/designations', '/web-app/staff?school_id=outage'];
  const client = async () => {
    while (!stopped) {
      const i = n++;
      outcomes.push(
        i % 5 === 4
          ? await timed(server.url, '/web-app/grades', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name: `Grade ${run}.${i}` }) })
          : await timed(server.url, reads[i % reads.length]!, { headers: auth }),
      );
    }
  };
  const clients = Array.from({ length: 6 }, client);
  return {
    outcomes,
    startedFrom: (t: number) => outcomes.filter((o) => o.startedAt >= t),
    async stop() {
      stopped = true;
      await Promise.all(clients);
    },
  };
}

async function signedInServer(env: Record<string, string>): Promise<{ server: ServerProcess; token: string }> {
  const server = await startServer(env);
  const signup = await post(`${server.url}/web-app/signup`, { name: 'Head', email: 'head@outage.example', password: 'a long password', school_id: 'outage' });
  expect(signup.status).toBe(201);
  const signin = await post(`${server.url}/web-app/signin`, { email: 'head@outage.example', password: 'a long password' });
  expect(signin.status).toBe(200);
  return { server, token: signin.body!.data.access_token };
}

function mariadbOutage() {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let server: ServerProcess;
  let token: string;

  beforeAll(async () => {
    database = await freshDatabase();
    const real = new URL(database.databaseUrl!);
    proxy = await startTcpProxy({ host: real.hostname, port: Number(real.port || 3306) });
    ({ server, token } = await signedInServer({ DATA_DIR: database.dataDir, DATABASE_URL: proxy.urlFor(database.databaseUrl!), DB_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS) }));
  });
  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
    await database?.drop();
  });

  /** Load, cut the database, check the answers meanwhile, bring it back, check the recovery. */
  async function outage(cut: () => Promise<void> | void, requestsDuring: number) {
    const pid = server.child.pid;
    const load = startLoad(server, token);
    try {
      await until('healthy traffic', () => (load.outcomes.filter(ok).length >= 20 || undefined), 30_000);
      await cut();
      const downAt = Date.now();
      await until('requests during the outage', () => (load.startedFrom(downAt).length >= requestsDuring || undefined), 60_000);
      const ready = await timed(server.url, '/readyz');

      proxy.up();
      const upAt = Date.now();
      const recovered = await until('a success after the database returned', () => load.startedFrom(upAt).find(ok), 30_000);
      await until('traffic after the recovery', () => (load.startedFrom(recovered.endedAt).length >= 20 || undefined), 30_000);
      await load.stop();

      // Answered meanwhile: requests both sent and answered while the database was away.
      const during = load.outcomes.filter((o) => o.startedAt >= downAt && o.endedAt < upAt);
      expect(summary(load.outcomes.filter((o) => typeof o.status !== 'number'))).toEqual([]);
      expect(summary(unclean(load.outcomes))).toEqual([]);
      expect(during.length).toBeGreaterThanOrEqual(requestsDuring / 2);
      expect(summary(during.filter(ok))).toEqual([]);
      expect(ready.status).toBe(503);
      expect(ready.endedAt - ready.startedAt).toBeLessThan(5000);
      expect(JSON.parse(ready.body)).toMatchObject({ success: false, error: { code: 'SERVICE_UNAVAILABLE' } });
      // Back by itself, in the same process.
      expect(recovered.startedAt - upAt).toBeLessThan(10_000);
      expect(summary(load.startedFrom(recovered.endedAt).filter((o) => !ok(o)))).toEqual([]);
      expect((await timed(server.url, '/readyz')).status).toBe(200);
      expect({ pid: server.child.pid, exitCode: server.child.exitCode }).toEqual({ pid, exitCode: null });
      // On the wire when the database went away: sent before the cut, answered during the outage.
      const caught = load.outcomes.filter((o) => o.startedAt < downAt && o.endedAt >= downAt && o.endedAt < upAt);
      return { during, caught, downAt };
    } finally {
      await load.stop();
    }
  }

  it('answers a clean 503 at once when MariaDB stops, even mid-query, and recovers without a restart', async () => {
    // The connections are cut while a query is on the wire, so some request loses its database mid-query.
    const { during } = await outage(() => proxy.downMidQuery(), 30);
    expect(Math.max(...during.map((o) => o.endedAt - o.startedAt))).toBeLessThan(4000);
  }, 150_000);

  it('ends statements MariaDB stops answering mid-query with a 503 after DB_QUERY_TIMEOUT_MS, never a hung request, and the pools heal', async () => {
    // Open connections stay open and silent: only the statement bound ends what is on the wire.
    const { during, caught, downAt } = await outage(() => proxy.pause(), 12);
    const slowest = Math.max(...during.map((o) => o.endedAt - o.startedAt));
    expect(slowest).toBeGreaterThanOrEqual(QUERY_TIMEOUT_MS - 100);
    expect(slowest).toBeLessThan(CLIENT_TIMEOUT_MS);
    // The requests whose statements were on the wire at the pause are ended by the statement bound,
    // not by the client's timeout: a write runs up to three statements (its change, the actor's name,
    // its audit event). Those sent after it may first wait for a new connection (the connect timeout).
    const timedOut = caught.filter((o) => o.status === 503 && o.endedAt - downAt < 3 * QUERY_TIMEOUT_MS);
    expect(timedOut.length).toBeGreaterThan(0);
  }, 150_000);

  it('answers a clean 503 within the connect timeout when MariaDB hangs, and recovers without a restart', async () => {
    // A hung server or a dropped network: connections are accepted and never answered.
    await outage(() => proxy.down('silent'), 12);
  }, 150_000);
}

function sqliteLockedElsewhere() {
  let database: TestDatabase;
  let server: ServerProcess;
  let token: string;

  beforeAll(async () => {
    database = await freshDatabase();
    ({ server, token } = await signedInServer({ DATA_DIR: database.dataDir }));
  });
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
  });

  const exec = (db: sqlite3.Database, sql: string) => new Promise<void>((resolve, reject) => db.exec(sql, (err) => (err ? reject(err) : resolve())));

  it('answers writes a clean 503 within seconds while another process holds the write lock, serves reads, and recovers', async () => {
    const pid = server.child.pid;
    const load = startLoad(server, token);
    // Another process (a command-line run, a maintenance script) takes the write lock and keeps it.
    const other = new sqlite3.Database(database.sqliteStorage!);
    other.configure('busyTimeout', 30_000);
    try {
      await until('healthy traffic', () => (load.outcomes.filter(ok).length >= 20 || undefined), 30_000);
      await exec(other, 'BEGIN EXCLUSIVE');
      const lockedAt = Date.now();
      const writes = () => load.startedFrom(lockedAt).filter((o) => o.method === 'POST');
      await until('writes answered during the lock', () => (writes().length >= 6 || undefined), 60_000);
      const ready = await timed(server.url, '/readyz');

      await exec(other, 'ROLLBACK');
      const releasedAt = Date.now();
      const recovered = await until('a write after the lock was released', () => load.startedFrom(releasedAt).find((o) => o.method === 'POST' && ok(o)), 30_000);
      await until('traffic after the recovery', () => (load.startedFrom(recovered.endedAt).length >= 20 || undefined), 30_000);
      await load.stop();

      const during = load.outcomes.filter((o) => o.startedAt >= lockedAt && o.endedAt < releasedAt);
      expect(summary(load.outcomes.filter((o) => typeof o.status !== 'number'))).toEqual([]);
      expect(summary(unclean(load.outcomes))).toEqual([]);
      expect(summary(during.filter((o) => o.method === 'POST' && ok(o)))).toEqual([]);
      expect(during.filter((o) => o.method === 'POST').length).toBeGreaterThan(0);
      // The database still answers reads: they go on, and so does readiness.
      expect(summary(during.filter((o) => o.method === 'GET' && !ok(o)))).toEqual([]);
      expect(during.filter((o) => o.method === 'GET').length).toBeGreaterThan(0);
      expect(ready.status).toBe(200);
      expect(recovered.startedAt - releasedAt).toBeLessThan(10_000);
      expect(summary(load.startedFrom(recovered.endedAt).filter((o) => !ok(o)))).toEqual([]);
      expect({ pid: server.child.pid, exitCode: server.child.exitCode }).toEqual({ pid, exitCode: null });
    } finally {
      await load.stop();
      await new Promise((resolve) => other.close(resolve));
    }
  }, 150_000);
}

// Chosen at load time: the MariaDB outage where a database server exists, the SQLite lock otherwise.
if (mysqlUrl()) describe('database outage (MariaDB behind a proxy)', mariadbOutage);
else describe('database outage (SQLite locked by another process)', sqliteLockedElsewhere);
