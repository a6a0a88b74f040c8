import type { RequestHandler } from 'express';
import { ipKeyGenerator, MemoryStore, rateLimit, type ClientRateLimitInfo, type Options, type Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import type { SharedRedis } from '../../redis.js';

/**
 * Counts in Redis while it answers, so that every instance spends one budget, and in the process
 * while it does not: a Redis outage loosens the limits to one budget per instance instead of taking
 * the API down. The Redis side (its scripts) is loaded again each time Redis comes back.
 */
class SharedOrLocalStore implements Store {
  readonly prefix: string;
  private readonly local = new MemoryStore();
  private readonly shared: RedisStore;
  private options?: Options;
  private loaded: Promise<boolean> = Promise.resolve(false);

  constructor(
    private readonly redis: SharedRedis,
    name: string,
  ) {
    this.prefix = `sp:rl:${name}:`;
    this.shared = new RedisStore({ prefix: this.prefix, sendCommand: (...args: string[]) => redis.command(args) });
    redis.onAvailable(() => this.load());
  }

  init(options: Options): void {
    this.options = options;
    this.local.init(options);
    this.load();
  }

  private load(): Promise<boolean> {
    if (!this.options || !this.redis.available()) return this.loaded;
    this.loaded = this.shared.init(this.options).then(() => true, () => false);
    return this.loaded;
  }

  /** The shared counters when Redis answers and the scripts are in it; a failed load is tried again. */
  private async sharedReady(): Promise<boolean> {
    if (!this.redis.available()) return false;
    return (await this.loaded) || this.load();
  }

  /** Runs `op` on Redis when it can, else (or when it fails mid-way; the connection logs that) on the process. */
  private async either<T>(op: (store: Store) => Promise<T> | T): Promise<T> {
    if (await this.sharedReady()) {
      try {
        return await op(this.shared);
      } catch {
        // Counted locally below.
      }
    }
    return op(this.local);
  }

  increment(key: string) {
    return this.either((store) => store.increment(key));
  }

  decrement(key: string) {
    return this.either((store) => store.decrement(key));
  }

  resetKey(key: string) {
    return this.either((store) => store.resetKey(key));
  }

  get(key: string): Promise<ClientRateLimitInfo | undefined> {
    return this.either(async (store) => store.get?.(key));
  }

  shutdown(): void {
    this.local.shutdown();
  }
}

function limiter(limit: number, key: 'ip' | 'session', name: string, message: string, redis: SharedRedis | undefined): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    ...(redis ? { store: new SharedOrLocalStore(redis, name) } : {}),
    keyGenerator: (req) => (key === 'session' && req.principal ? `s:${req.principal.sessionId}` : ipKeyGenerator(req.ip ?? '')),
    // express-rate-limit has already set Retry-After; the error handler writes the envelope.
    handler: (_req, _res, next) => next(new AppError('TOO_MANY_REQUESTS', message)),
  });
}

export interface RateLimits {
  public: RequestHandler;
  authenticated: RequestHandler;
  login: RequestHandler;
}

/**
 * Per IP on public routes, per session once authenticated, and a tighter per-IP budget for logins;
 * with Redis (REDIS_URL), each budget is shared by every instance.
 */
export function createRateLimits(config: Config, redis?: SharedRedis): RateLimits {
  return {
    public: limiter(config.rateLimitPublic, 'ip', 'public', 'Too many requests; slow down', redis),
    authenticated: limiter(config.rateLimitAuth, 'session', 'session', 'Too many requests for this session; slow down', redis),
    login: limiter(config.loginRateLimitIp, 'ip', 'login', 'Too many login attempts from this address; try again in a minute', redis),
  };
}
