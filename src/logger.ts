import { pino, type Logger } from 'pino';

/** Redacts the secrets a query string may carry (access_token, admission_token) from a URL before it reaches a log line. */
export const redactUrl = (url: string | undefined) => (url ?? '').replace(/([?&](?:access_token|admission_token)=)[^&#]*/gi, '$1[REDACTED]');

export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], censor: '[REDACTED]' },
  });
}
