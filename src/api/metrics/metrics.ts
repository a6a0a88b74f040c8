import type { Express, RequestHandler } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AppContext } from '../../context.js';
import type { ServiceRoute } from '../openapi.js';

/**
 * Prometheus metrics at /metrics (METRICS_ENABLED=true): request counts and latencies by route
 * template and status, the database pool, and the push outbox backlog. Routes are labelled by their
 * template (/web-app/staff/:id), never by the raw URL, so ids and tokens cannot explode the label set.
 */
export function mountMetrics(app: Express, ctx: AppContext): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered', labelNames, registers: [registry] });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency',
    labelNames,
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  new Gauge({
    name: 'db_pool_connections',
    help: "Database pool connections by pool and state (MySQL: 'models' for Sequelize, 'statements' for the prepared hot path; SQLite has no pool)",
    labelNames: ['pool', 'state'],
    registers: [registry],
    collect() {
      for (const { pool, ...states } of ctx.db.pools()) {
        for (const [state, n] of Object.entries(states)) this.set({ pool, state }, n);
      }
    },
  });
  new Gauge({
    name: 'push_outbox_backlog',
    help: 'Notifications waiting in the outbox (pending)',
    registers: [registry],
    async collect() {
      const [row] = await ctx.db.select<{ n: number }>("SELECT COUNT(*) AS n FROM notifications WHERE status = 'pending'");
      this.set(Number(row?.n ?? 0));
    },
  });

  const observe: RequestHandler = (req, res, next) => {
    const end = latency.startTimer();
    res.on('finish', () => {
      const route = (res.locals.routeTemplate as string | undefined) ?? (req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched');
      const labels = { method: req.method, route, status: String(res.statusCode) };
      requests.inc(labels);
      end(labels);
    });
    next();
  };
  app.use(observe);
  app.get('/metrics', async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  });
}

/** /metrics, for the OpenAPI document. */
export const metricsRoute: ServiceRoute = {
  method: 'get', path: '/metrics',
  summary: 'Prometheus metrics (METRICS_ENABLED=true)',
  description:
    'Request counts and latencies by route template and status, the database pools, the push outbox backlog and the process defaults, ' +
    'in the Prometheus text format. Served only when the server runs with `METRICS_ENABLED=true` (404 otherwise); it is unauthenticated, ' +
    'so expose it to the scraper only.',
  responses: {
    200: {
      description: 'The metrics, in the Prometheus text exposition format (version 0.0.4)',
      content: {
        'text/plain': {
          schema: { type: 'string' },
          example: '# HELP http_requests_total HTTP requests answered\n# TYPE http_requests_total counter\nhttp_requests_total{method="GET",route="/web-app/grades",status="200"} 42\n',
        },
      },
    },
    404: { description: 'METRICS_ENABLED is not true: no such route', error: true },
  },
};
