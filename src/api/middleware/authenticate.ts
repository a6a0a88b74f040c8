import { parse as parseCookies } from 'cookie';
import type { Request, RequestHandler } from 'express';
import { Strategy as JwtStrategy } from 'passport-jwt';
import type { AppContext, Principal } from '../../context.js';
import { forbidden, unauthorized } from '../../errors.js';
import { identifyActor } from '../../services/audit/context.js';
import { resolvePrincipal } from '../../services/auth/sessions.js';
import { isTokenClaims } from '../../services/auth/tokens.js';
import { appUserType, type AppName } from '../route.js';

/** The token, looked for in this order: Authorization Bearer, access_token query parameter, access_token cookie. */
export function extractToken(req: Request): string | null {
  const header = req.headers.authorization;
  const bearer = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (bearer) {
    req.tokenSource = 'header';
    return bearer[1]!;
  }
  const query = (req.query as Record<string, unknown>).access_token;
  if (typeof query === 'string' && query) {
    req.tokenSource = 'query';
    return query;
  }
  // Parsed here, only when no other source gave a token: most calls carry a header and no cookie.
  const cookie = req.headers.cookie ? parseCookies(req.headers.cookie).access_token : undefined;
  if (cookie) {
    req.tokenSource = 'cookie';
    return cookie;
  }
  return null;
}

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function failureMessage(info: unknown): string {
  const name = (info as { name?: string } | undefined)?.name;
  if (name === 'TokenExpiredError') return 'The token has expired';
  if (name === 'JsonWebTokenError' || name === 'NotBeforeError') return 'The token is not valid';
  return 'Authentication required';
}

type Verdict = (err: unknown, principal: Principal | false, info?: unknown) => void;

/**
 * The JWT strategy (passport-jwt) run per request as passport runs a strategy: a delegate of the
 * strategy given success, fail and error. passport.authenticate() would also fit every request with
 * passport's session helpers (login, logout, isAuthenticated) that this stateless API never calls;
 * without them an authenticated read costs about 15% less CPU (bench/README.md). The strategy's
 * verify step is the session check.
 */
export function createAuthenticators(ctx: AppContext): Record<AppName, RequestHandler> {
  const strategy = new JwtStrategy(
    {
      jwtFromRequest: extractToken,
      // A KeyObject, not a string: jsonwebtoken would re-import a string secret on every call.
      secretOrKey: ctx.tokens.key as unknown as string,
      algorithms: ['HS256'],
      passReqToCallback: true,
    },
    (_req: Request, payload: unknown, done: (err: unknown, user?: Principal | false) => void) => {
      if (!isTokenClaims(payload)) return done(unauthorized('The token is not valid'));
      resolvePrincipal(ctx, payload).then((p) => done(null, p), done);
    },
  );
  const run = (req: Request, verdict: Verdict) => {
    const attempt = Object.create(strategy) as JwtStrategy & { success: (user: Principal) => void; fail: (challenge?: unknown) => void; error: (err: unknown) => void };
    attempt.success = (user) => verdict(null, user);
    attempt.fail = (challenge) => verdict(null, false, challenge);
    attempt.error = (err) => verdict(err, false);
    attempt.authenticate(req, {});
  };
  const make = (app: AppName): RequestHandler => {
    const expected = appUserType[app];
    return (req, _res, next) => {
      run(req, (err, principal, info) => {
        if (err) return next(err);
        if (!principal) return next(unauthorized(failureMessage(info)));
        if (principal.type !== expected) return next(forbidden(`This token is for another app; ${app} needs a ${expected} token`));
        // A cookie rides along with any cross-site form post, so a cookie-only write must come from a listed origin.
        if (req.tokenSource === 'cookie' && unsafeMethods.has(req.method)) {
          const origin = req.headers.origin;
          if (!origin || !ctx.config.corsOrigins.includes(origin)) {
            return next(forbidden('A write authenticated by cookie must come from an allowed Origin'));
          }
        }
        req.principal = principal;
        identifyActor(principal.type, principal.userId, principal.name ?? null);
        next();
      });
    };
  };
  return { 'parent-app': make('parent-app'), 'teachers-app': make('teachers-app'), 'web-app': make('web-app') };
}
