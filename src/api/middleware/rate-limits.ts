import type { RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';

function limiter(limit: number, key: 'ip' | 'session', message: string): RequestHandler {
  return rateLimit({
    windowMs: 60_000,
    limit,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
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

/** Per IP on public routes, per session once authenticated, and a tighter per-IP budget for logins. */
export function createRateLimits(config: Config): RateLimits {
  return {
    public: limiter(config.rateLimitPublic, 'ip', 'Too many requests; slow down'),
    authenticated: limiter(config.rateLimitAuth, 'session', 'Too many requests for this session; slow down'),
    login: limiter(config.loginRateLimitIp, 'ip', 'Too many login attempts from this address; try again in a minute'),
  };
}
