import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomInt } from 'node:crypto';
import { createClient } from 'redis';
import { freshDatabase, type TestDatabase } from '../helpers/database.js';
import { freePort, post, startServer, type ServerProcess } from '../helpers/server-process.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';
import { redisUrl } from '../helpers/redis.js';
import { fetchChecked } from '../helpers/openapi-check.js';

/**
 * Redis (REDIS_URL) holds the rate-limit counters that several instances share, and is optional in
 * operation: two instances spend one public budget between them; a Redis that stops answering (or is
 * not there at start-up) leaves the API answering, limited per instance, with the health report
 * saying so and one log line; when Redis answers again the shared counters come back by themselves.
 * Each test's client address (X-Forwarded-For, trusted from loopback) is its own, so the counters of
 * parallel runs never meet.
 */
let database: TestDatabase;
const servers: ServerProcess[] = [];
const proxies: TcpProxy[] = [];

beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await Promise.all(proxies.map((p) => p.close()));
  await database?.drop();
});

/**
 * An address from a documentation range (RFC 5737), used only as a header value: each call a new one,
 * its counters from an earlier run (they outlive it in Redis for a minute) cleared first.
 */
let lastAddress = randomInt(0, 254);
async function clientAddress(): Promise<string> {
  lastAddress = (lastAddress + 1) % 254;
  const ip = `198.51.100.${lastAddress + 1}`;
  const direct = createClient({ url: redisUrl() });
  await direct.connect();
  try {
    await direct.del(['public', 'login', 'session'].map((name) => `sp:rl:${name}:${ip}`));
  } finally {
    direct.destroy();
  }
  return ip;
}
const publicPath = '/web-app/grades?school_id=redis-school';

async function server(env: Record<string, string>): Promise<ServerProcess> {
  const s = await startServer({ DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl, TRUST_PROXY: 'loopback', LOG_LEVEL: 'info', ...env });
  servers.push(s);
  return s;
}

async function hit(s: ServerProcess, ip: string) {
  const started = Date.now();
  const res = await fetchChecked(s.url + publicPath, { headers: { 'x-forwarded-for': ip }, signal: AbortSignal.timeout(5000) });
  await res.text();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), ms: Date.now() - started };
}

let adminToken: string | undefined;
async function health(s: ServerProcess): Promise<Record<string, any>> {
  if (!adminToken) {
    // Its own client address: the shared counters of loopback outlive this run in Redis.
    const from = { 'x-forwarded-for': await clientAddress() };
    expect((await post(`${s.url}/web-app/signup`, { name: 'Head', email: 'head@redis.example', password: 'a long password', school_id: 'redis-school' }, from)).status).toBe(201);
    adminToken = (await post(`${s.url}/web-app/signin`, { email: 'head@redis.example', password: 'a long password' }, from)).body!.data.access_token;
  }
  const res = await fetchChecked(`${s.url}/web-app/diagnostics/health`, { headers: { Authorization: `Bearer ${adminToken}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Record<string, any> }).data;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, withinMs: number): Promise<T> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('Redis for shared rate limits', () => {
  it('has two instances spend one public budget between them', async () => {
    const [a, b] = await Promise.all([server({ REDIS_URL: redisUrl(), RATE_LIMIT_PUBLIC: '6' }), server({ REDIS_URL: redisUrl(), RATE_LIMIT_PUBLIC: '6' })]);
    // Until its client has connected, an instance counts on its own (as when Redis is down): on a busy machine that
    // can outlast the first requests, so the shared budget is measured from the moment both use Redis.
    const downs = () => [a, b].map((s) => count(s.output(), 'Redis is not answering'));
    let statuses: number[] = [];
    // A Redis command slower than the service's 250 ms (a loaded machine) rightly sends an instance to
    // counting on its own for a while: the shared budget is measured again, up to three times, over a
    // stretch in which neither instance lost Redis.
    for (let attempt = 1; attempt <= 3; attempt++) {
      for (const s of [a, b]) await until('Redis connected', async () => ((await health(s)).redis?.status === 'ok' ? true : undefined), 15_000);
      const before = downs();
      const ip = await clientAddress();
      statuses = [];
      for (let i = 0; i < 8; i++) {
        const res = await hit(i % 2 ? b : a, ip);
        statuses.push(res.status);
        if (res.status === 429) expect(Number(res.retryAfter)).toBeGreaterThan(0);
      }
      if (downs().every((n, i) => n === before[i])) break;
    }
    expect(statuses.slice(0, 6).every((s) => s !== 429)).toBe(true);
    expect(statuses.slice(6)).toEqual([429, 429]);
    // Another client still has its own budget.
    expect((await hit(b, await clientAddress())).status).not.toBe(429);
  }, 60_000);

  it('keeps answering while Redis is away, says so once, and shares the counters again when it is back', async () => {
    const target = new URL(redisUrl());
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    proxies.push(proxy);
    const s = await server({ REDIS_URL: `redis://127.0.0.1:${proxy.port}`, RATE_LIMIT_PUBLIC: '1000' });
    const ip = await clientAddress();
    await until('Redis connected', async () => ((await health(s)).redis?.status === 'ok' ? true : undefined), 10_000);
    expect((await health(s)).redis).toEqual({ status: 'ok', latency_ms: expect.any(Number) });
    expect((await hit(s, ip)).status).toBe(200);

    for (const cut of [() => proxy.down('refuse'), () => proxy.pause()]) {
      cut();
      const during = [];
      for (let i = 0; i < 10; i++) during.push(await hit(s, ip));
      expect(during.map((r) => r.status)).toEqual(Array(10).fill(200));
      expect(Math.max(...during.map((r) => r.ms))).toBeLessThan(1500);
      const report = await health(s);
      expect({ status: report.status, redis: report.redis }).toEqual({ status: 'degraded', redis: { status: 'degraded', latency_ms: null } });

      proxy.up();
      await until('Redis back', async () => ((await health(s)).redis?.status === 'ok' ? true : undefined), 15_000);
      expect((await health(s)).status).toBe('ok');
    }
    expect(count(s.output(), 'Redis is not answering')).toBe(2);
    expect(count(s.output(), 'Redis answers again')).toBe(2);

    // The counters are Redis's again: a request is counted there.
    const direct = createClient({ url: redisUrl() });
    await direct.connect();
    try {
      const before = Number(await direct.get(`sp:rl:public:${ip}`)) || 0;
      expect((await hit(s, ip)).status).toBe(200);
      expect(Number(await direct.get(`sp:rl:public:${ip}`))).toBe(before + 1);
    } finally {
      direct.destroy();
    }
  }, 90_000);

  it('starts and serves when Redis is not there at start-up', async () => {
    const s = await server({ REDIS_URL: `redis://127.0.0.1:${await freePort()}`, RATE_LIMIT_PUBLIC: '3' });
    const ip = await clientAddress();
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await hit(s, ip)).status);
    // Limited by the instance's own counters meanwhile.
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await health(s)).redis).toEqual({ status: 'degraded', latency_ms: null });
    expect(count(s.output(), 'Redis is not answering')).toBe(1);
  }, 60_000);

  it('says once that a Redis taking the connection but silent at start-up does not answer, and shares again when it does', async () => {
    const target = new URL(redisUrl());
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 6379) });
    proxies.push(proxy);
    proxy.down('silent');
    const s = await server({ REDIS_URL: `redis://127.0.0.1:${proxy.port}/0`, RATE_LIMIT_PUBLIC: '3' });
    expect((await health(s)).redis).toEqual({ status: 'degraded', latency_ms: null });
    const ip = await clientAddress();
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await hit(s, ip)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    await until('the start-up wait to pass', async () => (count(s.output(), 'Redis is not answering') === 1 ? true : undefined), 10_000);
    proxy.up();
    expect(await until('Redis to answer', async () => ((await health(s)).redis?.status === 'ok' ? (await health(s)).redis : undefined), 20_000)).toEqual({ status: 'ok', latency_ms: expect.any(Number) });
    expect(count(s.output(), 'Redis is not answering')).toBe(1);
  }, 60_000);
});
