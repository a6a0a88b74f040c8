import { z } from 'zod';
import { parentProfile, profileInput, updateParentProfile } from '../../services/parents/profile.js';
import type { Routers } from '../routers.js';

const profileView = z.object({
  id: z.number(), father_name: z.string().nullable(), mother_name: z.string().nullable(), phone_no: z.string(), email: z.string().nullable(),
  email_verified: z.boolean().describe('False while an address the parent set here awaits the click on its verification link: it is sent nothing else until then'),
});
const example = { id: 12, father_name: 'Ravi Rao', mother_name: 'Meena Rao', phone_no: '9876543210', email: 'ravi@example.com', email_verified: true };

export function registerProfileRoutes(r: Routers): void {
  r.parent.route(
    {
      method: 'get', path: '/profile', summary: "The parent's own profile",
      description: 'Names, phone and e-mail address; an address given on the admission form, by a roster import or by the school office counts as verified.',
      response: profileView, responseExample: { data: example },
    },
    async ({ principal }) => ({ data: await parentProfile(principal) }),
  );
  r.parent.route(
    {
      method: 'put', path: '/profile', summary: "Set or remove the parent's e-mail address",
      description:
        '`email` is trimmed and lower-cased; not an address: 400 naming `email`. A new address replaces the one on file, unverified (`email_verified: false`), ' +
        'and a verification e-mail goes to it with a link (`/e/<token>`, 7 days) that verifies it; until then it is sent nothing else. The address already ' +
        'on file changes nothing; `null` removes it. Audited as `parent.update`.',
      body: profileInput, response: profileView,
      example: { email: 'ravi@example.com' }, responseExample: { message: 'Profile saved', data: { ...example, email_verified: false } },
    },
    async ({ ctx, principal, body }) => ({ message: 'Profile saved', data: await updateParentProfile(ctx, principal, body) }),
  );
}
