import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Database } from './db.js';
import type { AdminRole } from './models/admin-user.js';
import type { UserType } from './models/session.js';
import type { SharedRedis } from './redis.js';
import type { FileStore } from './services/attachments/storage.js';
import type { Feature, Level } from './services/access/rbac.js';
import type { TokenSigner } from './services/auth/tokens.js';

/** What every service is handed: configuration, the database, the token signer and the logger. */
export interface AppContext {
  config: Config;
  db: Database;
  tokens: TokenSigner;
  log: Logger;
  /** Where attachments' bytes are kept (DATA_DIR/files, or STORAGE_URL's S3-compatible store). */
  files: FileStore;
  /** The shared Redis, when REDIS_URL is set and the caller serves requests (the command line does not). */
  redis?: SharedRedis;
}

/** The caller, resolved once per request from the verified token and its session row. */
export interface Principal {
  type: UserType;
  userId: number;
  /** Null only for the operator's platform_admin, who works in the console alone. */
  schoolId: string;
  sessionId: number;
  /** The account's name as the audit trail records it, read with the session. */
  name?: string | null;
  role?: AdminRole;
  rbac?: Record<Feature, Level>;
}

