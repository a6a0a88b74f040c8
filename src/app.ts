import cors from 'cors';
import express, { type Express, type Router } from 'express';
import helmet from 'helmet';
import type { AppContext } from './context.js';
import { mountDocs } from './api/docs/docs.js';
import { mountFiles } from './api/files/files.routes.js';
import { mountHealth, notReady } from './api/health/health.routes.js';
import { createAuthenticators } from './api/middleware/authenticate.js';
import { errorHandler, unknownRoute } from './api/middleware/errors.js';
import { createRateLimits } from './api/middleware/rate-limits.js';
import { requestLog } from './api/middleware/request-log.js';
import { mountMetrics } from './api/metrics/metrics.js';
import { buildOpenApi } from './api/openapi.js';
import { ApiRouter, type RegisteredRoute } from './api/route.js';
import type { Routers } from './api/routers.js';
import { features } from './api/features.js';
import { AppError } from './errors.js';
import { LINK_PAGE_PATH, PAGE_HEADERS, linkPageErrors } from './api/links/link-page-html.js';
import { version } from './version.js';

export interface CreatedApp {
  app: Express;
  routes: RegisteredRoute[];
  /**
   * Shutdown has begun: from now on every request (on a connection that was already open) answers
   * 503 with `Connection: close`, `/readyz` included, so load balancers stop sending any.
   */
  drain(): void;
}

export interface AppOptions {
  /** The admin console's router (src/admin buildConsole), built ahead because AdminJS loads asynchronously. */
  console?: Router;
}

/** The Express app with the three API apps, health, docs and (when given) the admin console; it does not listen. */
export function createApp(ctx: AppContext, options: AppOptions = {}): CreatedApp {
  const app = express();
  app.disable('x-powered-by');
  // API answers are computed per call; hashing each body for an ETag costs time and never saves a transfer here.
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.set('trust proxy', ctx.config.trustProxy);

  // The console's record actions without a form (Archive, say) run as GETs.
  app.use(requestLog(app, ctx.log, { writesByGet: '/admin/api/' }));
  let draining = false;
  app.use((req, res, next) => {
    if (!draining) return next();
    res.setHeader('Connection', 'close');
    if (req.path === '/readyz') return notReady(res, 'This instance is shutting down');
    next(new AppError('SERVICE_UNAVAILABLE', 'This instance is shutting down; try again', undefined, { 'Retry-After': '1' }));
  });
  if (ctx.config.metricsEnabled) mountMetrics(app, ctx);
  // Signed file URLs need none of what follows (security headers for pages, CORS grants, body
  // parsing, tokens, rate limits): a feed's thumbnails arrive by the dozen, so they skip it all.
  mountFiles(app, ctx);
  app.use(helmet());
  // The pages opened from a message keep their headers on every answer, a rate limit's or a bad body's too.
  const { 'Content-Type': _html, ...pageHeaders } = PAGE_HEADERS;
  app.use((req, res, next) => {
    if (LINK_PAGE_PATH.test(req.path)) res.set(pageHeaders);
    next();
  });
  // Credentials are granted with the origin, to listed origins only; every other origin gets no CORS grant at all.
  const grants = cors((req, done) => done(null, { origin: ctx.config.corsOrigins, credentials: ctx.config.corsOrigins.includes(req.headers.origin ?? '') }));
  // A call without an Origin (the apps, most of the traffic) gets from cors only its Vary: Origin,
  // set here without building cors's options for it.
  app.use((req, res, next) => {
    if (req.headers.origin !== undefined || req.method === 'OPTIONS') return grants(req, res, next);
    res.vary('Origin');
    next();
  });
  // Uploads stream their multipart body themselves; any other body there is refused by them, not parsed.
  // Twilio's callbacks are form-encoded and refused by their signature first, whatever their body.
  const json = express.json({ limit: '1mb' });
  const notJson = (req: express.Request) => (req.method === 'POST' && /^\/(parent|teachers|web)-app\/attachments\/?$/.test(req.path)) || req.path.startsWith('/webhooks/twilio/');
  app.use((req, res, next) => (notJson(req) ? next() : json(req, res, next)));

  const auth = createAuthenticators(ctx);
  const limits = createRateLimits(ctx.config, ctx.redis);
  const routers: Routers = {
    parent: new ApiRouter(ctx, 'parent-app', auth['parent-app'], limits),
    teachers: new ApiRouter(ctx, 'teachers-app', auth['teachers-app'], limits),
    web: new ApiRouter(ctx, 'web-app', auth['web-app'], limits),
    root: new ApiRouter(ctx, null, null, limits),
    limits,
  };
  for (const register of features) register(routers);

  if (options.console) app.use('/admin', options.console);
  mountHealth(app, ctx);
  const routes = [routers.parent, routers.teachers, routers.web, routers.root].flatMap((r) => r.routes);
  mountDocs(app, () => buildOpenApi(routes, version));
  app.use('/parent-app', routers.parent.router);
  app.use('/teachers-app', routers.teachers.router);
  app.use('/web-app', routers.web.router);
  app.use(routers.root.router);

  app.use(unknownRoute);
  app.use(linkPageErrors);
  app.use(errorHandler);
  return {
    app,
    routes,
    drain: () => {
      draining = true;
    },
  };
}
