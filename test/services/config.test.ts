import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config.js';

const dir = () => mkdtempSync(path.join(tmpdir(), 'sp-config-'));

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const c = loadConfig({ DATA_DIR: dir() });
    expect(c).toMatchObject({
      port: 3000, host: '127.0.0.1', adminSessionHours: 12, signupEnabled: true, rateLimitPublic: 60, rateLimitAuth: 600,
      loginRateLimitIp: 30, sessionPruneDays: 90, writeToArchiveDays: 30, maintenanceIntervalSeconds: 300, pushProvider: 'log',
      publicAppUrl: 'http://localhost:3000', logLevel: 'info', adminConsoleEnabled: true, production: false, corsOrigins: [],
      dbQueryTimeoutMs: 10_000, shutdownGraceSeconds: 10,
    });
    expect(c.databaseUrl).toBeUndefined();
    expect(c.redisUrl).toBeUndefined();
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'postgres://x@y/z'],
    ['SIGNUP_ENABLED', 'maybe'],
    ['PUSH_PROVIDER', 'pigeon'],
    ['RATE_LIMIT_PUBLIC', '-1'],
    ['LOG_LEVEL', 'loud'],
    ['CORS_ORIGINS', 'not an origin'],
    ['PUBLIC_APP_URL', 'nowhere'],
    ['REDIS_URL', 'localhost:6379'],
    ['REDIS_URL', 'redis://:pw@127.0.0.1:notaport/0'],
    ['REDIS_URL', 'redis://:pw@127.0.0.1:6379/zero'],
    ['DATABASE_URL', 'mysql://root:pw@127.0.0.1:notaport/test'],
    ['DB_QUERY_TIMEOUT_MS', '0'],
    ['DB_QUERY_TIMEOUT_MS', 'ten seconds'],
    ['SHUTDOWN_GRACE_SECONDS', '-5'],
  ])('stops on a bad %s naming the variable', (name, value) => {
    expect(() => loadConfig({ DATA_DIR: dir(), [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir(), [name]: value })).toThrow(name);
  });

  it('never repeats a bad service URL, which may hold a password', () => {
    for (const [name, value] of [['REDIS_URL', 'redis://:S3cret@127.0.0.1:notaport/0'], ['DATABASE_URL', 'mysql://root:S3cret@127.0.0.1:notaport/test']]) {
      let message = '';
      try {
        loadConfig({ DATA_DIR: dir(), [name!]: value });
      } catch (err) {
        message = (err as Error).message;
      }
      expect(message).toContain(name);
      expect(message).not.toContain('S3cret');
    }
  });

  it('reads REDIS_URL, DB_QUERY_TIMEOUT_MS and SHUTDOWN_GRACE_SECONDS', () => {
    const c = loadConfig({ DATA_DIR: dir(), REDIS_URL: 'redis://cache.internal:6379/2', DB_QUERY_TIMEOUT_MS: '2500', SHUTDOWN_GRACE_SECONDS: '30' });
    expect({ redisUrl: c.redisUrl, dbQueryTimeoutMs: c.dbQueryTimeoutMs, shutdownGraceSeconds: c.shutdownGraceSeconds }).toEqual({
      redisUrl: 'redis://cache.internal:6379/2', dbQueryTimeoutMs: 2500, shutdownGraceSeconds: 30,
    });
  });

  it('refuses production without a JWT_SECRET of at least 32 bytes', () => {
    const base = { DATA_DIR: dir(), NODE_ENV: 'production', ADMIN_COOKIE_SECRET: 'c'.repeat(40) };
    expect(() => loadConfig(base)).toThrow(/JWT_SECRET/);
    expect(() => loadConfig({ ...base, JWT_SECRET: 'short' })).toThrow(/JWT_SECRET/);
    expect(loadConfig({ ...base, JWT_SECRET: 's'.repeat(32) }).production).toBe(true);
  });

  it('reads TRUST_PROXY as off, a hop count or a list of proxies', () => {
    expect(loadConfig({ DATA_DIR: dir() }).trustProxy).toBe(false);
    expect(loadConfig({ DATA_DIR: dir(), TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ DATA_DIR: dir(), TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toBe('loopback, 10.0.0.0/8');
    expect(() => loadConfig({ DATA_DIR: dir(), TRUST_PROXY: 'x;y' })).toThrow(/TRUST_PROXY/);
  });

  it('refuses PUSH_PROVIDER=fcm without a service-account file', () => {
    expect(() => loadConfig({ DATA_DIR: dir(), PUSH_PROVIDER: 'fcm' })).toThrow(/FCM_SERVICE_ACCOUNT_FILE/);
  });

  it('generates the JWT secret once into DATA_DIR with mode 0600 and keeps it across restarts', () => {
    const d = dir();
    const first = loadConfig({ DATA_DIR: d });
    const second = loadConfig({ DATA_DIR: d });
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(second.jwtSecret).toBe(first.jwtSecret);
    const file = path.join(d, 'jwt-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(first.jwtSecret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});
