import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { migrate, openDatabase } from './db.js';
import { createLogger } from './logger.js';
import { createFileStore } from './services/attachments/storage.js';
import { TokenSigner } from './services/auth/tokens.js';
import { installAuditCapture } from './services/audit/capture.js';

/**
 * Opens the database, brings its schema up to date and builds the context every door shares. Redis
 * (REDIS_URL) is connected for a server, without waiting for it: the start goes on if it is away.
 * Its client (about 20 MB resident) is loaded only then.
 */
export async function createContext(config: Config, options: { migrate?: boolean; redis?: boolean } = {}): Promise<AppContext> {
  const db = await openDatabase(config);
  installAuditCapture(db.sequelize);
  if (options.migrate !== false) await migrate(db.sequelize);
  const log = createLogger(config.logLevel);
  const redis = config.redisUrl && options.redis !== false ? (await import('./redis.js')).connectRedis(config.redisUrl, log) : undefined;
  return { config, db, tokens: new TokenSigner(config.jwtSecret), log, files: createFileStore(config), ...(redis ? { redis } : {}) };
}

/** Closes what createContext opened. */
export async function closeContext(ctx: AppContext): Promise<void> {
  ctx.files.close();
  await Promise.all([ctx.db.close(), ctx.redis?.close()]);
}
