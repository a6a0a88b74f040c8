import { z } from 'zod';
import { schoolChangesInput, schoolSettings, updateSchoolSettings } from '../../services/schools/settings.js';
import type { Routers } from '../routers.js';

const schoolView = z.object({ id: z.string(), name: z.string(), status: z.enum(['active', 'suspended']), timezone: z.string() });

export function registerSchoolRoutes(r: Routers): void {
  r.web.route(
    {
      method: 'get', path: '/school', summary: "The school's settings (any admin)",
      description: "The school's id, name, status and IANA time zone (`UTC` until set). Parents' quiet hours are read in that zone.",
      response: schoolView,
      responseExample: { data: { id: 'greenwood', name: 'Greenwood High', status: 'active', timezone: 'Asia/Kolkata' } },
    },
    async ({ principal }) => ({ data: await schoolSettings(principal) }),
  );
  r.web.route(
    {
      method: 'put', path: '/school', summary: 'Rename the school or set its time zone (super_admin)',
      description:
        'Both fields optional. `timezone` is an IANA name the platform\'s time-zone data knows (`Asia/Kolkata`, `Europe/London`); ' +
        'an unknown one is a 400 naming it. Quiet hours already running keep the end they were given.',
      body: schoolChangesInput,
      response: schoolView,
      example: { timezone: 'Asia/Kolkata' },
      responseExample: { message: 'School updated', data: { id: 'greenwood', name: 'Greenwood High', status: 'active', timezone: 'Asia/Kolkata' } },
    },
    async ({ principal, body }) => ({ message: 'School updated', data: await updateSchoolSettings(principal, body) }),
  );
}
