import type { ErrorRequestHandler, RequestHandler } from 'express';
import { BaseError, ConnectionError, TimeoutError, UniqueConstraintError, ValidationError as SequelizeValidationError } from 'sequelize';
import { AppError } from '../../errors.js';

const uniqueMessages: Record<string, string> = {
  phone_no: 'A record with this phone number already exists',
  email: 'A record with this email already exists',
  roll_no: 'A student with this roll number already exists',
  name: 'A record with this name already exists',
};

/** Maps anything thrown to the contract's error body; unexpected errors are logged and answer a bare 500. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const e = err as { type?: string; status?: number; statusCode?: number; expose?: boolean };
  if (e?.type === 'entity.parse.failed') return new AppError('BAD_REQUEST', 'The request body is not valid JSON');
  if (e?.type === 'entity.too.large') return new AppError('PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MiB');
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') {
    return new AppError('BAD_REQUEST', 'The request body encoding is not supported');
  }
  if (err instanceof UniqueConstraintError) {
    const fields = Object.keys(err.fields ?? {}).filter((f) => f !== 'school_id');
    const field = fields[0] ?? 'record';
    return new AppError('CONFLICT', uniqueMessages[field] ?? 'This record already exists', fields.map((f) => ({ field: f, message: 'already exists' })));
  }
  if (err instanceof SequelizeValidationError) {
    return new AppError('BAD_REQUEST', 'Validation failed', err.errors.map((x) => ({ field: x.path ?? 'body', message: x.message })));
  }
  if (err instanceof ConnectionError || err instanceof TimeoutError || (err instanceof BaseError && /ConnectionAcquireTimeout/.test(err.name))) {
    return new AppError('SERVICE_UNAVAILABLE', 'The database is unavailable; try again shortly', undefined, { 'Retry-After': '5' });
  }
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
    error: { code: err.code, ...(err.details ? { details: err.details } : {}) },
  };
}

export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const appError = toAppError(err);
  if (appError.status >= 500) (req.log ?? console).error({ err }, 'request failed');
  if (res.headersSent) return;
  for (const [k, v] of Object.entries(appError.headers ?? {})) res.setHeader(k, v);
  res.status(appError.status).json(errorBody(appError));
};

export const unknownRoute: RequestHandler = (req) => {
  throw new AppError('NOT_FOUND', `No route for ${req.method} ${req.path}`);
};
