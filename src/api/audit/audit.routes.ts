import { z } from 'zod';
import { auditEventView, auditLogQuery, listAuditEvents } from '../../services/audit/audit-log.js';
import type { Routers } from '../routers.js';

export function registerAuditRoutes(r: Routers): void {
  r.web.route(
    {
      method: 'get', path: '/audit-log', query: auditLogQuery, summary: "The school's audit trail (super_admin, it_contact)",
      description:
        'Every change through any door (api, console, cli, job), every sign-in and every lock-out, newest first. `changes` maps each changed field to ' +
        '`[before, after]`; PINs, passwords, hashes and tokens read `[redacted]`. Filters combine; `from` and `to` are ISO 8601 times. ' +
        'The trail is append-only: nothing edits or deletes an event (an erasure blanks what it said about the erased people).',
      response: z.object({ events: z.array(auditEventView), pagination: z.object({ total: z.number(), page: z.number(), limit: z.number(), pages: z.number() }) }),
      responseExample: {
        data: {
          events: [{
            id: 9120, school_id: 'greenwood', at: '2026-11-20T09:14:03.120Z', actor_type: 'admin', actor_id: '3', actor_name: 'Meera Nair', door: 'console',
            action: 'student.update', entity_type: 'student', entity_id: '412', changes: { grade: ['5', '6'] }, ip: '10.0.4.17', request_id: null,
          }],
          pagination: { total: 1, page: 1, limit: 50, pages: 1 },
        },
      },
    },
    async ({ principal, query }) => ({ data: await listAuditEvents(principal, query) }),
  );
}
