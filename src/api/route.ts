import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import type { AppContext, Principal } from '../context.js';
import { AppError, fieldError, forbidden } from '../errors.js';
import type { UserType } from '../models/session.js';
import { schoolIdField } from '../services/schemas.js';
import { refuseNul, zodDetails } from '../services/validation.js';

export type AppName = 'parent-app' | 'teachers-app' | 'web-app';
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export const appUserType: Record<AppName, UserType> = { 'parent-app': 'parent', 'teachers-app': 'staff', 'web-app': 'admin' };

export interface Reply {
  status?: number;
  message?: string;
  data?: unknown;
}

export interface RouteSpec<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType> {
  method: Method;
  path: string;
  summary: string;
  description?: string;
  /** Defaults to true: a verified token of the app's user type and an active session. */
  auth?: boolean;
  body?: B;
  query?: Q;
  params?: P;
  /** Schema of `data` in the success envelope, for the OpenAPI document. */
  response?: z.ZodType;
  /** Success status, 200 unless given. */
  status?: number;
  /** A change: the body must name at least one of its fields (school_id aside), as the service requires; the document says so too. */
  someField?: boolean;
  /** Further success statuses with the same body schema, each with when it is given and its example (a dry run's 200 beside an import's 201). */
  otherSuccesses?: Record<number, { description: string; example?: { message?: string; data?: unknown } }>;
  /** Error statuses this route can answer besides the ones every route shares. */
  errors?: number[];
  /**
   * Checks, once the path is read and before the body is judged, that the record it names is there
   * for the caller: an update of an unknown or another school's record is 404 whatever its body.
   */
  found?: (call: { ctx: AppContext; principal: Principal; params: z.infer<P> }) => Promise<unknown>;
  /**
   * The service judges the body, part by part, in the order the contract gives for this request (a
   * form response's child before the form being open, and both before its answers): the handler gets
   * the body as sent, and `body` only describes it in the document.
   */
  bodyJudgedByService?: boolean;
  /** Extra middleware run before validation (rate limits on logins, for instance). */
  before?: RequestHandler[];
  /**
   * A file sent as the raw body instead of JSON (a roster import): the media types taken and the size
   * limit (413 above it). The handler gets `req.body` as a Buffer, empty when none came.
   */
  upload?: { types: string[]; maxBytes: number; description: string };
  /**
   * A `multipart/form-data` body carrying one file in the part named `field`, which the handler
   * streams from the request itself (nothing reads the body before it); described in the reference.
   */
  multipart?: { field: string; description: string };
  /**
   * A success body that is not the JSON envelope (a CSV file, a calendar, a web page, Twilio's
   * TwiML): its media type, an example and the headers it comes with, for the OpenAPI document. The
   * handler writes it; its errors stay JSON, but for the statuses in `errors`, answered in the same
   * media type (a web page's 404).
   */
  produces?: { type: string; description: string; example: string; headers?: Record<string, string>; errors?: Record<number, string> };
  /** The body is form-encoded (a web form, a gateway's callback) instead of JSON. */
  form?: boolean;
  /** Not rate limited: a gateway's callbacks, refused by their signature before any work. */
  rateLimited?: false;
  /** Example request body, shown in the API reference; generated from `body` when absent. */
  example?: unknown;
  /** Example success envelope's `message` and `data`, shown in the API reference; `data` is generated from `response` when absent. */
  responseExample?: { message?: string; data?: unknown };
}

/** The body a handler gets: as its schema gives it, or as sent when the service judges it. */
type BodyOf<B extends z.ZodType, S extends boolean> = S extends true ? unknown : z.infer<B>;

export interface Call<B, Q, P> {
  ctx: AppContext;
  body: B;
  query: Q;
  params: P;
  req: Request;
  res: Response;
}

export interface AuthedCall<B, Q, P> extends Call<B, Q, P> {
  principal: Principal;
}

export interface RegisteredRoute {
  app: AppName | null;
  method: Method;
  /** Full Express path, e.g. /web-app/staff/:id */
  path: string;
  spec: RouteSpec<z.ZodType, z.ZodType, z.ZodType>;
}


function parsePart<T extends z.ZodType>(schema: T | undefined, value: unknown, part: 'body' | 'query' | 'params'): z.infer<T> {
  if (!schema) return {} as z.infer<T>;
  refuseNul(value);
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const details = zodDetails(result.error);
  const fields = [...new Set(details.map((d) => d.field))].join(', ');
  throw new AppError('BAD_REQUEST', `Invalid ${part === 'params' ? 'path' : part}: ${fields}`, details);
}

/**
 * The routes of one app (or of the public root). Each route declares its schemas once: they validate
 * the request, type the handler and feed the OpenAPI document, so the reference cannot drift.
 */
export class ApiRouter {
  readonly router = Router();
  readonly routes: RegisteredRoute[] = [];

  constructor(
    readonly ctx: AppContext,
    readonly app: AppName | null,
    private readonly authenticate: RequestHandler | null,
    private readonly limits: { public: RequestHandler; authenticated: RequestHandler },
  ) {}

  private add(spec: RouteSpec<z.ZodType, z.ZodType, z.ZodType>, handler: (call: AuthedCall<never, never, never>) => Promise<Reply | void>) {
    const needsAuth = spec.auth !== false;
    const base = this.app ? `/${this.app}` : '';
    this.routes.push({ app: this.app, method: spec.method, path: base + spec.path, spec });
    const run: RequestHandler = async (req: Request, res: Response, _next: NextFunction) => {
      const params = parsePart(spec.params, req.params, 'params');
      const query = parsePart(spec.query, req.query, 'query');
      if (spec.found) await spec.found({ ctx: this.ctx, principal: req.principal!, params });
      const body = spec.bodyJudgedByService ? (req.body ?? {}) : parsePart(spec.body, req.body, 'body');
      const call = { ctx: this.ctx, body, query, params, req, res, principal: req.principal } as AuthedCall<never, never, never>;
      const reply = (await handler(call)) ?? {};
      if (res.headersSent) return;
      res.status(reply.status ?? spec.status ?? 200).json({
        success: true,
        ...(reply.message !== undefined ? { message: reply.message } : {}),
        ...(reply.data !== undefined ? { data: reply.data } : {}),
      });
    };
    if (needsAuth && !this.authenticate) throw new Error(`${spec.path}: authenticated routes need an app`);
    const fullPath = base + spec.path;
    // Express restores req.baseUrl when an error leaves the router: keep the template for logs and metrics.
    const markRoute: RequestHandler = (_req, res, next) => {
      res.locals.routeTemplate = fullPath;
      next();
    };
    const chain: RequestHandler[] = [
      markRoute,
      ...(needsAuth ? [this.authenticate!, this.limits.authenticated, tenantGuard] : spec.rateLimited === false ? [] : [this.limits.public]),
      ...(spec.upload ? [express.raw({ type: spec.upload.types, limit: spec.upload.maxBytes })] : []),
      ...(spec.form ? [express.urlencoded({ extended: false, limit: '1mb' })] : []),
      ...(spec.before ?? []),
      run,
    ];
    this.router[spec.method](spec.path, ...chain);
  }

  /** An authenticated route: the handler gets the principal. */
  route<B extends z.ZodType = z.ZodObject, Q extends z.ZodType = z.ZodObject, P extends z.ZodType = z.ZodObject, S extends boolean = false>(
    spec: RouteSpec<B, Q, P> & { auth?: true; bodyJudgedByService?: S },
    handler: (call: AuthedCall<BodyOf<B, S>, z.infer<Q>, z.infer<P>>) => Promise<Reply | void>,
  ): void {
    this.add(spec as RouteSpec<z.ZodType, z.ZodType, z.ZodType>, handler as never);
  }

  /** A public route: no token needed. */
  publicRoute<B extends z.ZodType = z.ZodObject, Q extends z.ZodType = z.ZodObject, P extends z.ZodType = z.ZodObject, S extends boolean = false>(
    spec: RouteSpec<B, Q, P> & { auth: false; bodyJudgedByService?: S },
    handler: (call: Call<BodyOf<B, S>, z.infer<Q>, z.infer<P>>) => Promise<Reply | void>,
  ): void {
    this.add(spec as RouteSpec<z.ZodType, z.ZodType, z.ZodType>, handler as never);
  }
}

/**
 * A school_id in the query or the body of an authenticated request must be the token's: the tenant
 * comes from the verified token only, and a client naming another school is refused, not redirected.
 * A value that cannot be a school id at all is bad input (400), not another school.
 */
export const tenantGuard: RequestHandler = (req, _res, next) => {
  const principal = req.principal;
  if (!principal) throw forbidden();
  const claimed = [(req.query as Record<string, unknown>)?.school_id, (req.body as Record<string, unknown> | undefined)?.school_id];
  for (const value of claimed) {
    if (value === undefined || value === null || value === '') continue;
    const wellFormed = ['string', 'number'].includes(typeof value) && schoolIdField().safeParse(String(value)).success;
    if (!wellFormed) throw fieldError('school_id', 'is not a valid school id');
    if (String(value) !== principal.schoolId) throw forbidden('This token does not belong to that school');
  }
  next();
};

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal;
    /** Where the access token was found; a cookie-only write must come from an allowed Origin. */
    tokenSource?: 'header' | 'query' | 'cookie';
  }
}
