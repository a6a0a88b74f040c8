import type { Express, Response } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { ping } from '../../db.js';
import type { ServiceRoute } from '../openapi.js';

/** The readiness probe's 503: `status` at the top level too, for probes that read only that. */
export function notReady(res: Response, message: string): void {
  res.status(503).json({ success: false, message, error: { code: 'SERVICE_UNAVAILABLE' }, status: 'unavailable' });
}

/** Liveness and readiness for load balancers; outside the apps, unauthenticated and not rate limited. */
export function mountHealth(app: Express, ctx: AppContext): void {
  app.get('/healthz', (_req, res) => {
    res.json({ success: true, data: { status: 'ok' } , status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    try {
      const latency = await Promise.race([
        ping(ctx.db),
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000).unref()),
      ]);
      res.json({ success: true, status: 'ready', data: { status: 'ready', database: { status: 'up', latency_ms: Math.round(latency * 100) / 100 } } });
    } catch {
      notReady(res, 'The database is not answering');
    }
  });
}

/** The two routes above, for the OpenAPI document: `status` is at the top level too, for probes that read only that. */
export const healthRoutes: ServiceRoute[] = [
  {
    method: 'get', path: '/healthz',
    summary: 'Liveness: the process answers',
    description: 'Answers 200 while the process runs, without touching the database: restart the instance when it stops answering.',
    responses: {
      200: {
        description: 'The process is up',
        schema: z.object({ success: z.literal(true), status: z.literal('ok'), data: z.object({ status: z.literal('ok') }) }),
      },
    },
  },
  {
    method: 'get', path: '/readyz',
    summary: 'Readiness: the database answers',
    description: 'Answers 200 when the database answers a ping within 2 seconds, else 503: take the instance out of the load balancer until it is ready. From SIGTERM on it answers 503 (`This instance is shutting down`) on connections that were already open.',
    responses: {
      200: {
        description: 'Ready to serve',
        schema: z.object({
          success: z.literal(true),
          status: z.literal('ready'),
          data: z.object({ status: z.literal('ready'), database: z.object({ status: z.literal('up'), latency_ms: z.number() }) }),
        }),
        example: { success: true, status: 'ready', data: { status: 'ready', database: { status: 'up', latency_ms: 0.42 } } },
      },
      503: {
        description: 'The database is not answering, or the instance is shutting down',
        schema: z.object({
          success: z.literal(false),
          message: z.string(),
          status: z.literal('unavailable'),
          error: z.object({ code: z.literal('SERVICE_UNAVAILABLE') }),
        }),
        example: { success: false, message: 'The database is not answering', error: { code: 'SERVICE_UNAVAILABLE' }, status: 'unavailable' },
      },
    },
  },
];
