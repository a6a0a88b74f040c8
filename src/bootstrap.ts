import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { migrate, openDatabase } from './db.js';
import { createLogger } from './logger.js';
import { TokenSigner } from './services/auth/tokens.js';

/** Opens the database, brings its schema up to date and builds the context every door shares. */
export async function createContext(config: Config, options: { migrate?: boolean } = {}): Promise<AppContext> {
  const db = await openDatabase(config);
  if (options.migrate !== false) await migrate(db.sequelize);
  return { config, db, tokens: new TokenSigner(config.jwtSecret), log: createLogger(config.logLevel) };
}
