import { buildAssets, buildRoutes } from '@adminjs/express';
import AdminJS, { ForbiddenError, NotFoundError, Router as AdminRouter, type AdminJSOptions } from 'adminjs';
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import formidable from 'express-formidable';
import { MAX_UPLOAD_BYTES, MiB } from '../services/attachments/uploads.js';
import { IMPORT_MAX_BYTES } from '../services/imports/imports.js';
import { importTemplates } from '../services/imports/templates.js';
import session from 'express-session';
import type { AppContext } from '../context.js';
import { AppError, badRequest, forbidden, notFound } from '../errors.js';
import { checkConsoleSession, endConsoleSession, signInToConsole, type ConsoleAdmin } from './auth.js';
import { componentsBundle } from './components/index.js';
import { dashboardCounts } from './dashboard.js';
import { consoleResources } from './resources/index.js';
import { consoleAdminOf } from './scoped-resource.js';
import { DatabaseSessionStore } from './session-store.js';
import { consoleLocale } from './locale.js';

export const CONSOLE_PATH = '/admin';
const COOKIE_NAME = 'sp_console';

declare module 'express-session' {
  interface SessionData {
    adminUser?: ConsoleAdmin;
    redirectTo?: string;
  }
}

/**
 * AdminJS's pages run inline scripts (its state) and ask Google for a font; the console's own
 * policy allows the first and blocks the second, so nothing is fetched from outside the server.
 */
const CONSOLE_CSP = [
  "default-src 'self'", "script-src 'self' 'unsafe-inline'", "style-src 'self' 'unsafe-inline'", "img-src 'self' data:",
  "font-src 'self' data:", "connect-src 'self'", "frame-ancestors 'none'", "form-action 'self'", "base-uri 'self'", "object-src 'none'",
].join('; ');

function consoleOptions(ctx: AppContext): AdminJSOptions {
  return {
    rootPath: CONSOLE_PATH,
    loginPath: `${CONSOLE_PATH}/login`,
    logoutPath: `${CONSOLE_PATH}/logout`,
    resources: consoleResources(ctx),
    branding: { companyName: 'School platform console', withMadeWithLove: false, logo: false },
    locale: consoleLocale,
    settings: { defaultPerPage: 20 },
    dashboard: {
      component: 'SchoolDashboard',
      handler: async (_request, _response, context) => dashboardCounts(ctx, consoleAdminOf(context as never)),
    },
  };
}

/**
 * The admin console's router, to be mounted at /admin: AdminJS over the same models and services as
 * the API. Sign-in is a sessions row (listed by GET /web-app/sessions); the cookie session, stored in
 * the database, only points at that row, and every request re-checks it, so revoking the row, a
 * suspended school or a deleted admin sends the browser back to the login page.
 */
export async function buildConsole(ctx: AppContext): Promise<Router> {
  const admin = new AdminJS(consoleOptions(ctx));
  const store = new DatabaseSessionStore(ctx.config.adminSessionHours * 3_600_000);
  const loginPage = (errorMessage: string | null) => admin.renderLogin({ action: admin.options.loginPath, errorMessage });
  /** The login page again, saying why: a refused sign-in, or a body its form cannot have sent. */
  const refuseLogin = async (res: Response, err: AppError) => {
    for (const [name, value] of Object.entries(err.headers ?? {})) res.setHeader(name, value);
    res.status(err.status).send(await loginPage(err.message));
  };
  const router = express.Router();

  router.use((_req, res, next) => {
    res.setHeader('Content-Security-Policy', CONSOLE_CSP);
    // Lets the browser name the console as the origin of its own form posts (no-referrer would send "null").
    res.setHeader('Referrer-Policy', 'same-origin');
    next();
  });
  router.use(sameOriginOnly);
  // Static assets first: they need no session, so a page load costs one session check, not eight.
  router.get('/frontend/assets/components.bundle.js', (_req, res) => {
    res.type('text/javascript').send(componentsBundle);
  });
  // The import templates hold no school's data: served like the assets, without a session.
  router.get('/import-templates/:kind.csv', (req, res, next) => {
    // Its own names only: an inherited one (constructor, __proto__) is no template.
    if (!Object.hasOwn(importTemplates, req.params.kind)) return next(notFound('Import template'));
    res.type('text/csv').attachment(`${req.params.kind}.csv`).send(importTemplates[req.params.kind as keyof typeof importTemplates]);
  });
  // The bundles are megabytes: the browser keeps them and asks again only whether they changed.
  router.use('/frontend/assets', (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-cache');
    next();
  });
  buildAssets({ admin, assets: AdminRouter.assets, routes: AdminRouter.routes, router });
  // Pages and API answers carry a school's records: never kept by the browser or a proxy.
  router.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next();
  });

  router.use(
    session({
      name: COOKIE_NAME,
      secret: ctx.config.adminCookieSecret,
      store,
      resave: false,
      saveUninitialized: false,
      proxy: ctx.config.production,
      cookie: {
        httpOnly: true,
        sameSite: 'lax',
        secure: ctx.config.production,
        path: CONSOLE_PATH,
        maxAge: ctx.config.adminSessionHours * 3_600_000,
      },
    }),
  );
  const fieldsOnly = formBody(0);
  // The login form is a page: a body it cannot read gets the page back, saying why.
  router.post('/login', (req, res, next) => fieldsOnly(req, res, (err?: unknown) => (err instanceof AppError ? refuseLogin(res, err).catch(next) : next(err))));
  router.use(async (req: Request, _res: Response, next: NextFunction) => {
    const signedIn = req.session.adminUser;
    if (!signedIn) return next();
    const current = await checkConsoleSession(ctx, signedIn.sessionId);
    if (current) {
      req.session.adminUser = current;
      return next();
    }
    // The sessions row ended (revoked, logged out, expired, school suspended): start over signed out.
    req.session.regenerate(next);
  });

  router.get('/login', async (_req, res) => {
    res.send(await loginPage(null));
  });
  router.post('/login', async (req, res, next) => {
    const fields = (req as Request & { fields?: Record<string, unknown> }).fields ?? {};
    let signedIn: ConsoleAdmin;
    try {
      signedIn = await signInToConsole(ctx, String(fields.email ?? ''), String(fields.password ?? ''), req);
    } catch (err) {
      if (!(err instanceof AppError)) return next(err);
      return refuseLogin(res, err);
    }
    await store.prune();
    const redirectTo = req.session.redirectTo?.startsWith(`${CONSOLE_PATH}/`) ? req.session.redirectTo : CONSOLE_PATH;
    // A new cookie session at sign-in, so a session id planted before it is worth nothing after.
    req.session.regenerate((err) => {
      if (err) return next(err);
      req.session.adminUser = signedIn;
      req.session.save((saveErr) => (saveErr ? next(saveErr) : res.redirect(redirectTo)));
    });
  });
  router.get('/logout', async (req, res, next) => {
    const signedIn = req.session.adminUser;
    if (signedIn) await endConsoleSession(ctx, signedIn);
    req.session.destroy((err) => (err ? next(err) : res.redirect(`${CONSOLE_PATH}/login`)));
  });

  router.use((req, res, next) => {
    if (req.session.adminUser) return next();
    if (req.method === 'GET' && !req.path.startsWith('/api/')) req.session.redirectTo = req.originalUrl;
    res.redirect(`${CONSOLE_PATH}/login`);
  });
  // Bodies are read once signed in: a stranger's upload is neither read nor written to a temporary file.
  // The Import action and the forms' file uploads take a file (each up to the API's 20 MiB); every other form takes fields only.
  router.use('/api/resources/:resourceId/actions/import', formBody(IMPORT_MAX_BYTES));
  router.use(
    '/api/resources/:resourceId/actions/upload',
    formBody(MAX_UPLOAD_BYTES),
    // The form hears why an upload was refused (a file over the limit, a body it cannot read), as the apps would.
    (err: unknown, _req: Request, res: Response, next: NextFunction) => {
      if (!(err instanceof AppError)) return next(err);
      res.json({ notice: { type: 'error', message: err.message } });
    },
  );
  router.use(fieldsOnly);
  router.use(knownResourcesOnly(admin));
  buildRoutes({ admin, routes: AdminRouter.routes, router });
  // AdminJS throws its own errors outside the actions (a bulk action on ids none of which is in the
  // admin's school, an unknown resource): answered as the API answers them, not as a crash.
  router.use((err: unknown, _req: Request, _res: Response, next: NextFunction) => {
    if (err instanceof NotFoundError) return next(notFound('Record'));
    if (err instanceof ForbiddenError) return next(forbidden(err.message));
    next(err);
  });
  return router;
}

/** What a form's fields may hold in all, as a JSON body to the API. */
const FORM_FIELDS_MAX_BYTES = MiB;

/**
 * Reads what the console's forms post: urlencoded fields (the login page) or multipart/form-data
 * with files up to `maxFileSize` in all (0: none). express.urlencoded reads the fields, since
 * formidable 1.x would hold them in memory without a limit. Any other body is refused unread: a JSON
 * one the app's parser has read already (formidable would wait for its end forever), an octet-stream
 * (which formidable takes as a file of any size). A body over a limit answers 413, any other that
 * cannot be read 400; formidable reports each problem as a plain Error, so it is told by its message.
 */
function formBody(maxFileSize: number): RequestHandler {
  const urlencoded = express.urlencoded({ extended: false, limit: FORM_FIELDS_MAX_BYTES });
  const multipart = formidable({ maxFieldsSize: FORM_FIELDS_MAX_BYTES, maxFileSize });
  const refusal = (err: Error & { status?: number }) => {
    if (err.message.startsWith('maxFileSize exceeded')) {
      if (!maxFileSize) return badRequest('This form takes no file');
      const limit = `larger than ${maxFileSize / MiB} MiB`;
      return new AppError('PAYLOAD_TOO_LARGE', `The file is ${limit}`, [{ field: 'file', message: `is ${limit}` }]);
    }
    if (err.status === 413 || err.message.startsWith('maxFieldsSize exceeded')) {
      return new AppError('PAYLOAD_TOO_LARGE', `The form is larger than the console takes: its fields may hold ${FORM_FIELDS_MAX_BYTES / MiB} MiB`);
    }
    return badRequest('The form could not be read');
  };
  return (req, res, next) => {
    // Read already, by the parser of the action's own path.
    if ((req as Request & { fields?: unknown }).fields) return next();
    const type = req.is(['urlencoded', 'multipart']);
    // No body, or an empty one (a POST without a form), has nothing to read.
    if (type === null || Number(req.headers['content-length']) === 0) return next();
    if (type === 'urlencoded') {
      return urlencoded(req, res, (err?: unknown) => {
        if (err) return next(refusal(err as Error));
        Object.assign(req, { fields: req.body });
        next();
      });
    }
    if (type === 'multipart') {
      return multipart(req, res, (err?: unknown) => {
        if (!err) return next();
        // formidable stops at the first problem, maybe with the request paused for a file write: the rest is read and dropped.
        req.resume();
        next(refusal(err as Error));
      });
    }
    next(badRequest('The console reads form fields only (urlencoded or multipart/form-data)'));
  };
}

const resourcePath = /^\/(?:api\/)?resources\/([^/]+)(?:\/(?:actions|bulk)\/([^/]+)|\/records\/[^/]+\/([^/]+))?/;

/** An unknown resource or action answers 404; AdminJS itself would fail on it with a 500. */
function knownResourcesOnly(admin: AdminJS) {
  return (req: Request, _res: Response, next: NextFunction) => {
    const match = resourcePath.exec(req.path);
    if (!match) return next();
    const resource = admin.resources.find((r) => r.id() === decodeURIComponent(match[1]!));
    const action = match[2] ?? match[3];
    // Its own actions only: an inherited name (constructor, __proto__) is no action.
    if (!resource || (action && !Object.hasOwn(resource.decorate().actions, decodeURIComponent(action)))) return next(notFound('Resource or action'));
    next();
  };
}

/**
 * The console's own script calls its API from its own pages; a request another site started (a form,
 * a link, an image) is refused. SameSite=Lax keeps the cookie off cross-site sub-requests already,
 * but AdminJS runs one-click actions as GET requests, which Lax still allows on a top-level navigation.
 */
function sameOriginOnly(req: Request, _res: Response, next: NextFunction) {
  const site = req.get('sec-fetch-site');
  const crossSite = site === 'cross-site' || site === 'same-site';
  const unsafe = req.method !== 'GET' && req.method !== 'HEAD';
  const origin = req.get('origin');
  // "null" is what a browser sends for an origin it hides; Sec-Fetch-Site still tells where the request came from.
  const foreignOrigin = !!origin && origin !== 'null' && origin !== `${req.protocol}://${req.get('host')}`;
  if ((crossSite && (unsafe || req.path.startsWith('/api/'))) || (unsafe && foreignOrigin)) {
    return next(forbidden('The console accepts changes from its own pages only'));
  }
  next();
}
