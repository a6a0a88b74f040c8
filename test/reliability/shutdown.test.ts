import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect, type Socket } from 'node:net';
import mysql from 'mysql2/promise';
import sqlite3 from 'sqlite3';
import { freshDatabase, mysqlUrl, type TestDatabase } from '../helpers/database.js';
import { post, startServer } from '../helpers/server-process.js';
import { assertRawAnswer, fetchChecked } from '../helpers/openapi-check.js';

/**
 * The shutdown sequence, against the real server process: at SIGTERM a slow request is in flight
 * (it waits for a table another connection has locked); the listening socket closes at once, a
 * request arriving on a connection that was already open answers 503 with `Connection: close`
 * (readiness included), the slow request still completes when the lock goes, and the process exits 0.
 */
let database: TestDatabase;

beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => database?.drop());

/** Another client holding the grades table (MariaDB) or the whole file (SQLite) until released. */
async function holdGrades(): Promise<{ release(): Promise<void> }> {
  if (mysqlUrl()) {
    const conn = await mysql.createConnection(database.databaseUrl!);
    await conn.query('LOCK TABLES grades WRITE');
    return {
      async release() {
        await conn.query('UNLOCK TABLES');
        await conn.end();
      },
    };
  }
  const db = new sqlite3.Database(database.sqliteStorage!);
  const exec = (sql: string) => new Promise<void>((resolve, reject) => db.exec(sql, (err) => (err ? reject(err) : resolve())));
  await exec('BEGIN EXCLUSIVE');
  return {
    async release() {
      await exec('ROLLBACK');
      await new Promise((resolve) => db.close(resolve));
    },
  };
}

/** A connection on which a request has begun (its request line and some headers are sent) but not ended. */
async function requestBegun(port: number, path: string): Promise<{ finish(): Promise<string> }> {
  const socket: Socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let answer = '';
  socket.on('data', (d) => (answer += d));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
  return {
    async finish() {
      socket.write('Connection: keep-alive\r\n\r\n');
      await closed;
      return answer;
    },
  };
}

const connectable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

describe('shutdown on SIGTERM', () => {
  it('refuses new connections, answers new requests 503, lets the request in flight finish and exits 0', async () => {
    const server = await startServer({ DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl, SHUTDOWN_GRACE_SECONDS: '20' });
    const signup = await post(`${server.url}/web-app/signup`, { name: 'Head', email: 'head@shutdown.example', password: 'a long password', school_id: 'shutdown' });
    expect(signup.status).toBe(201);
    const signin = await post(`${server.url}/web-app/signin`, { email: 'head@shutdown.example', password: 'a long password' });
    const auth = { Authorization: `Bearer ${signin.body!.data.access_token}` };

    const lock = await holdGrades();
    const startedAt = Date.now();
    const slow = fetchChecked(`${server.url}/web-app/grades`, {
      method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Grade 13' }),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, any>, at: Date.now() }));
    const readiness = await requestBegun(server.port, '/readyz');
    const other = await requestBegun(server.port, '/healthz');
    await new Promise((r) => setTimeout(r, 500));

    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    expect(await connectable(server.port)).toBe(false);
    const [ready, healthz] = [await readiness.finish(), await other.finish()];
    assertRawAnswer('GET', '/readyz', ready);
    assertRawAnswer('GET', '/healthz', healthz);
    for (const answer of [ready, healthz]) {
      expect(answer).toMatch(/^HTTP\/1\.1 503 /);
      expect(answer).toMatch(/\r\nconnection: close\r\n/i);
      expect(answer).toContain('"code":"SERVICE_UNAVAILABLE"');
    }
    expect(healthz).toMatch(/\r\nretry-after: \d+\r\n/i);
    expect(server.child.exitCode).toBeNull();

    await new Promise((r) => setTimeout(r, 500));
    await lock.release();
    const done = await slow;
    expect({ status: done.status, name: done.body.data?.name ?? done.body.message }).toEqual({ status: 201, name: 'Grade 13' });
    expect(done.at).toBeGreaterThan(signalledAt + 700);
    expect(await server.exited).toBe(0);
    expect(Date.now() - startedAt).toBeLessThan(20_000);
  }, 60_000);
});
