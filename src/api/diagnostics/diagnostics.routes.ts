import { z } from 'zod';
import { health, sendTestPush, testPushInput } from '../../services/diagnostics/diagnostics.js';
import type { Routers } from '../routers.js';
import { timestamp } from '../../services/schemas.js';

const healthView = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  uptime_s: z.number(),
  database: z.object({ driver: z.enum(['sqlite', 'mysql']), status: z.enum(['up', 'down']), latency_ms: z.number().nullable() }),
  push: z.object({
    provider: z.enum(['log', 'fcm']), outbox_pending: z.number().nullable(), outbox_failed: z.number().nullable(), last_error: z.string().nullable(),
  }),
  sms: z.object({ provider: z.enum(['log', 'twilio']) }),
  email: z.object({
    provider: z.enum(['log', 'smtp']),
    status: z.enum(['ok', 'degraded']).describe('`degraded` while the last delivery attempt could not reach the SMTP server (refused, timed out, or a 4xx reply)'),
  }),
  jobs: z.array(z.object({ name: z.string(), last_run_at: timestamp().nullable(), last_status: z.string().nullable() })),
  redis: z
    .object({ status: z.enum(['ok', 'degraded']), latency_ms: z.number().nullable() })
    .optional()
    .describe('Only when REDIS_URL is set: degraded (latency_ms null) while Redis does not answer, when rate limits count per instance'),
  storage: z
    .object({ driver: z.enum(['local', 's3']), status: z.enum(['ok', 'degraded']), latency_ms: z.number().nullable() })
    .describe("The attachments' store (DATA_DIR/files, or STORAGE_URL's): degraded (latency_ms null) while it does not answer, when uploads and file URLs answer 503"),
});

export function registerDiagnosticsRoutes(r: Routers): void {
  r.web.route(
    {
      method: 'get', path: '/diagnostics/health', summary: 'Service health: database, push outbox, SMS and e-mail, file store, maintenance jobs (super_admin, it_contact)',
      description:
        'The outbox figures are the school\'s own. `sms` and `email` name their providers (`log` records and sends nothing). `status` is `degraded` when the ' +
        'database, the file store or (with REDIS_URL) Redis does not answer, the last e-mail could not reach the SMTP server, or a maintenance job\'s last run failed.',
      response: healthView,
    },
    async ({ ctx, principal }) => ({ data: await health(ctx, principal) }),
  );
  r.web.route(
    {
      method: 'post', path: '/diagnostics/test-push', summary: 'Send a test push at once, past any filtering (super_admin, it_contact)',
      description: 'To a device token, and / or every signed-in device of a parent or staff member of the school. Each send is kept as a notification record (event test_push).',
      body: testPushInput,
      response: z.object({
        sent: z.number(), failed: z.number(),
        results: z.array(z.object({ target: z.string(), ok: z.boolean(), error: z.string().optional() })),
      }),
      errors: [404],
      example: { parent_id: 7, title: 'Test', body: 'Hello from the school' },
    },
    async ({ ctx, principal, body }) => ({ message: 'Test push sent', data: await sendTestPush(ctx, principal, body) }),
  );
}
