import { loadConsole } from '../../src/admin/index.js';
import { createApp } from '../../src/app.js';
import { closeContext, createContext } from '../../src/bootstrap.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { AppContext } from '../../src/context.js';
import { freshDatabase } from './database.js';
import { checkedSupertest } from './openapi-check.js';

export interface TestApp {
  ctx: AppContext;
  app: ReturnType<typeof createApp>['app'];
  routes: ReturnType<typeof createApp>['routes'];
  /** supertest on the app; every answer is checked against the OpenAPI document (./openapi-check.ts). */
  api: ReturnType<typeof checkedSupertest>;
  close(): Promise<void>;
}

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-production-0123456789';

/** Configuration for tests: a quiet logger and rate limits high enough not to trip unless a test lowers them. */
export function testConfig(env: Record<string, string> = {}): Config {
  return {
    ...loadConfig({
      JWT_SECRET: TEST_JWT_SECRET,
      ADMIN_COOKIE_SECRET: TEST_JWT_SECRET,
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PUBLIC: '100000',
      RATE_LIMIT_AUTH: '100000',
      LOGIN_RATE_LIMIT_IP: '100000',
      // AdminJS costs seconds of start-up: only the console's own tests turn it on.
      ADMIN_CONSOLE_ENABLED: 'false',
      ...env,
    }),
    runJobs: false,
  };
}

/** The app on a fresh database of its own (SQLite, or MySQL when TEST_DATABASE_URL is set). */
export async function startTestApp(env: Record<string, string> = {}, overrides: Partial<Config> = {}): Promise<TestApp> {
  const database = await freshDatabase();
  const config: Config = {
    ...testConfig({ DATA_DIR: database.dataDir, ...env }),
    databaseUrl: database.databaseUrl,
    sqliteStorage: database.sqliteStorage,
    ...overrides,
  };
  const ctx = await createContext(config);
  const { app, routes } = createApp(ctx, { console: await loadConsole(ctx) });
  return {
    ctx,
    app,
    routes,
    api: checkedSupertest(app),
    async close() {
      await closeContext(ctx);
      await database.drop();
    },
  };
}
