import { pino, stdSerializers, type DestinationStream, type Logger } from 'pino';

/**
 * Redacts the secrets a URL may carry from it before it reaches a log line: the query's
 * access_token, admission_token or token, a calendar feed's token in its path (whatever follows
 * /calendar/), and the token of a link sent to a parent (`/v/`, `/u/`, `/e/`).
 */
export const redactUrl = (url: string | undefined) =>
  (url ?? '')
    .replace(/([?&](?:access_token|admission_token|token)=)[^&#]*/gi, '$1[REDACTED]')
    .replace(/^(\/calendar\/)[^/?#]+?(\.ics)?(?=$|[/?#])/i, '$1[REDACTED]$2')
    .replace(/^\/([vue])\/[^/?#]+/, '/$1/[REDACTED]');

/**
 * An error as a log line writes it, without the statement a database error carries (at its top and
 * in the driver's error it wraps): the statement holds the values it wrote, a PIN set-up SMS with
 * its link among them, or a phone number. What went wrong stays: the type, message, code and stack.
 */
function errWithoutStatement(err: Error): Record<string, unknown> {
  const out = stdSerializers.err(err) as unknown as Record<string, unknown>;
  for (const part of [out, out.parent, out.original, out.cause]) {
    if (part && typeof part === 'object') for (const key of ['sql', 'parameters']) delete (part as Record<string, unknown>)[key];
  }
  return out;
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], censor: '[REDACTED]' },
    serializers: { err: errWithoutStatement },
  }, destination);
}
