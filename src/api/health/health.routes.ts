import type { Express } from 'express';
import type { AppContext } from '../../context.js';
import { ping } from '../../db.js';

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
      res.status(503).json({
        success: false,
        message: 'The database is not answering',
        error: { code: 'SERVICE_UNAVAILABLE' },
        status: 'unavailable',
      });
    }
  });
}
