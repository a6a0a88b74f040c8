import { z } from 'zod';
import { listSessions, revokeOtherSessions, revokeOwnSession } from '../../services/auth/sessions.js';
import { appRouters, type Routers } from '../routers.js';
import { idParam, timestamp } from '../../services/schemas.js';

const sessionView = z.object({
  id: z.number(), current: z.boolean(), device_id: z.string().nullable(), device_name: z.string().nullable(),
  user_agent: z.string().nullable(), ip: z.string().nullable(), created_at: timestamp(), last_seen_at: timestamp(), expires_at: timestamp(),
});

export function registerSessionRoutes(r: Routers): void {
  for (const router of appRouters(r)) {
    router.route(
      {
        method: 'get', path: '/sessions', summary: "List the caller's active sessions, newest first",
        description: 'One entry per signed-in device; `current` marks the session making this call. Ended and expired sessions are left out.',
        response: z.array(sessionView),
      },
      async ({ ctx, principal }) => ({ data: await listSessions(ctx, principal) }),
    );
    router.route(
      {
        method: 'delete', path: '/sessions/:id', params: idParam, errors: [404],
        summary: "End one of the caller's sessions", description: 'Its token is refused from the next call on; anyone else\'s session answers 404.',
        responseExample: { message: 'Session terminated' },
      },
      async ({ ctx, principal, params }) => {
        await revokeOwnSession(ctx, principal, params.id);
        return { message: 'Session terminated' };
      },
    );
    if (router.app === 'web-app') continue;
    router.route(
      {
        method: 'delete', path: '/sessions', summary: 'End every session of the caller except the current one',
        description: 'Signs out every other device at once (a lost phone, say); the token making this call keeps working.',
        response: z.object({ terminated: z.number() }),
        responseExample: { message: '2 other session(s) terminated', data: { terminated: 2 } },
      },
      async ({ ctx, principal }) => {
        const terminated = await revokeOtherSessions(ctx, principal);
        return { message: `${terminated} other session(s) terminated`, data: { terminated } };
      },
    );
  }
}
