import type { ErrorRequestHandler, RequestHandler } from 'express';
import { BaseError, ConnectionError, DatabaseError, TimeoutError, UniqueConstraintError, ValidationError as SequelizeValidationError } from 'sequelize';
import { AppError, notFound } from '../../errors.js';
import { invalidFileLink } from '../../services/attachments/serving.js';
import { allModels } from '../../models/index.js';

const uniqueMessages: Record<string, string> = {
  phone_no: 'A record with this phone number already exists',
  email: 'A record with this email already exists',
  roll_no: 'A student with this roll number already exists',
  name: 'A record with this name already exists',
};

/**
 * A query that failed because the database went away under it: mysql2 marks every error that ends
 * its connection as fatal (a reset or closed socket, a protocol failure), and a server shutting down
 * answers the queries in progress with ER_SERVER_SHUTDOWN. Sequelize reports both as a DatabaseError.
 */
function lostDatabase(err: unknown): boolean {
  if (!(err instanceof DatabaseError)) return false;
  const cause = err.parent as { fatal?: boolean; code?: string } | undefined;
  return cause?.fatal === true || cause?.code === 'ER_SERVER_SHUTDOWN';
}

let indexColumns: Map<string, string[]> | undefined;
function uniqueIndexColumns(): Map<string, string[]> {
  indexColumns ??= new Map(
    allModels.flatMap((m) => (m.options.indexes ?? []).filter((i) => i.name).map((i) => [i.name!, (i.fields ?? []).map(String)] as [string, string[]])),
  );
  return indexColumns;
}

/** Maps anything thrown to the contract's error body; unexpected errors are logged and answer a bare 500. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const e = err as { type?: string; status?: number; statusCode?: number; expose?: boolean };
  if (e?.type === 'entity.parse.failed') return new AppError('BAD_REQUEST', 'The request body is not valid JSON');
  if (e?.type === 'entity.too.large') {
    const limit = (err as { limit?: number }).limit ?? 1024 * 1024;
    return new AppError('PAYLOAD_TOO_LARGE', `The request body is larger than ${Math.round(limit / (1024 * 1024))} MiB`);
  }
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') {
    return new AppError('BAD_REQUEST', 'The request body encoding is not supported');
  }
  if (err instanceof UniqueConstraintError) {
    // SQLite hands back the column names; MySQL names the violated index, resolved through the models.
    const raw = err.fields as unknown;
    const named = Array.isArray(raw) ? (raw as string[]) : Object.keys((raw as Record<string, unknown>) ?? {});
    const fields = named.flatMap((n) => uniqueIndexColumns().get(n) ?? [n]).filter((f) => f !== 'school_id');
    const field = fields[0] ?? 'record';
    return new AppError('CONFLICT', uniqueMessages[field] ?? 'This record already exists', fields.map((f) => ({ field: f, message: 'already exists' })));
  }
  if (err instanceof SequelizeValidationError) {
    return new AppError('BAD_REQUEST', 'Validation failed', err.errors.map((x) => ({ field: x.path ?? 'body', message: x.message })));
  }
  if (err instanceof ConnectionError || err instanceof TimeoutError || lostDatabase(err) || (err instanceof BaseError && /ConnectionAcquireTimeout/.test(err.name))) {
    return new AppError('SERVICE_UNAVAILABLE', 'The database is unavailable; try again shortly', undefined, { 'Retry-After': '5' });
  }
  // The router could not percent-decode a path parameter (`/students/%E0`): a client's mistake.
  if (err instanceof URIError) return new AppError('BAD_REQUEST', 'The request path is not validly percent-encoded');
  const status = e?.status ?? e?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500 && e?.expose) {
    return new AppError(status === 413 ? 'PAYLOAD_TOO_LARGE' : 'BAD_REQUEST', 'The request could not be read');
  }
  return new AppError('SERVER_ERROR', 'Something went wrong on our side');
}

export function errorBody(err: AppError) {
  return {
    success: false as const,
    message: err.message,
    ...(err.data !== undefined ? { data: err.data } : {}),
    error: { code: err.code, ...(err.details ? { details: err.details } : {}) },
  };
}

/**
 * A secret in the path that cannot even be percent-decoded is none we gave out: a calendar feed's
 * token is unknown (404) and a file URL's signature does not hold (403), as for any other wrong one.
 */
function undecodableSecret(path: string): AppError | undefined {
  if (path.startsWith('/calendar/')) return notFound('Calendar');
  if (path.startsWith('/files/')) return invalidFileLink();
  return undefined;
}

export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const appError = (err instanceof URIError && undecodableSecret(req.path)) || toAppError(err);
  if (appError.status >= 500) (req.log ?? console).error({ err }, 'request failed');
  if (res.headersSent) return;
  for (const [k, v] of Object.entries(appError.headers ?? {})) res.setHeader(k, v);
  res.status(appError.status).json(errorBody(appError));
};

export const unknownRoute: RequestHandler = (req) => {
  throw new AppError('NOT_FOUND', `No route for ${req.method} ${req.path}`);
};
