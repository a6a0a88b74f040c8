import type { Express, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { randomUUID } from 'node:crypto';
import { redactUrl } from '../../logger.js';
import { actingUntil } from '../../services/audit/context.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** The request's id: the caller's X-Request-Id when it is sane, else a new UUID. */
    id: string;
    /** A child of the service's logger naming the request id; made on first use. */
    log: Logger;
  }
}

const saneId = /^[\w.:-]{1,128}$/;

/**
 * X-Request-Id on every answer and one log line per request when it ends (`request completed`, or
 * `request errored` at error level for a 5xx), in the shape pino-http writes. Written here rather
 * than taken from pino-http: that package builds a child logger with the request serialised into it
 * for every request, even when the level would log nothing, which cost about 13% of the CPU of an
 * authenticated read (bench/README.md).
 */
export function requestLog(app: Express, log: Logger, options: { writesByGet?: string } = {}): RequestHandler {
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: { id: string }) {
      const child = log.child({ reqId: this.id });
      Object.defineProperty(this, 'log', { value: child, configurable: true });
      return child;
    },
  });
  return (req, res, next) => {
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' && saneId.test(given) ? given : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    if (log.isLevelEnabled('error')) {
      const start = performance.now();
      const ended = () => {
        res.off('finish', ended);
        res.off('close', ended);
        const failed = res.statusCode >= 500;
        if (!log.isLevelEnabled(failed ? 'error' : 'info')) return;
        const line = {
          req: { id, method: req.method, url: redactUrl(req.originalUrl) },
          res: { statusCode: res.statusCode },
          responseTime: Math.round(performance.now() - start),
          ...(res.writableFinished ? {} : { aborted: true }),
        };
        if (failed) log.error(line, 'request errored');
        else log.info(line, 'request completed');
      };
      res.on('finish', ended);
      res.on('close', ended);
    }
    // A read changes nothing and goes without the audit context (context.ts says what it costs),
    // except under `writesByGet`, where a GET may change data.
    const read = req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS';
    if (read && !(options.writesByGet && req.path.startsWith(options.writesByGet))) return next();
    // Until a token names the caller, whoever calls a public route (a sign-in, the admission form) is a family.
    const end = actingUntil({ door: 'api', actorType: 'parent', requestId: id, get ip() { return req.ip ?? null; } }, next);
    res.once('finish', end);
    res.once('close', end);
  };
}
