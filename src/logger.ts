import { pino, type Logger } from 'pino';

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

export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], censor: '[REDACTED]' },
  });
}
