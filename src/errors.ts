export const errorStatus = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  UNPROCESSABLE: 422,
  TOO_MANY_REQUESTS: 429,
  SERVER_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export interface FieldError {
  field: string;
  message: string;
}

/** The one error type of the service: thrown anywhere, rendered by the API's error handler, the console and the CLI. */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: FieldError[] | Array<Record<string, unknown>> | Record<string, unknown>,
    readonly headers?: Record<string, string>,
    /** Sent as the error body's `data` (a rejected import's whole report). */
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = errorStatus[code];
  }
}

export const badRequest = (message: string, details?: AppError['details']) => new AppError('BAD_REQUEST', message, details);
export const fieldError = (field: string, message: string) =>
  new AppError('BAD_REQUEST', `${field} ${message}`, [{ field, message }]);
export const unauthorized = (message = 'Authentication required') => new AppError('UNAUTHORIZED', message);
export const forbidden = (message = 'You do not have access to this resource') => new AppError('FORBIDDEN', message);
export const notFound = (what = 'Resource') => new AppError('NOT_FOUND', `${what} not found`);
export const conflict = (message: string, details?: AppError['details']) => new AppError('CONFLICT', message, details);
