import { z } from 'zod';
import { schoolChangesInput, schoolSettings, updateSchoolSettings } from '../../services/schools/settings.js';
import type { Routers } from '../routers.js';

const schoolView = z.object({
  id: z.string(), name: z.string(), status: z.enum(['active', 'suspended']), timezone: z.string(),
  storage_limit_mb: z.number().describe('MiB the school\'s attachments may hold, files and thumbnails together (413 past it)'),
  storage_used_mb: z.number().describe('MiB its stored files and thumbnails hold, attached or waiting, to two decimals rounded up'),
  country: z.string().describe("ISO 3166-1 alpha-2 code its national phone numbers are read with (SMS_DEFAULT_COUNTRY until set)"),
  sms_monthly_limit: z.number().int().describe('SMS it may send each calendar month of its time zone (default 1000)'),
  sms_used_this_month: z.number().int().describe('SMS written this month towards the limit (PIN set-up links, test messages and skipped records not counted)'),
});
const example = {
  id: 'greenwood', name: 'Greenwood High', status: 'active', timezone: 'Asia/Kolkata', storage_limit_mb: 5120, storage_used_mb: 812.47,
  country: 'IN', sms_monthly_limit: 1000, sms_used_this_month: 212,
};

export function registerSchoolRoutes(r: Routers): void {
  r.web.route(
    {
      method: 'get', path: '/school', summary: "The school's settings (any admin)",
      description:
        "The school's id, name, status, IANA time zone (`UTC` until set; parents' quiet hours are read in that zone) and the storage its attachments " +
        'may hold and hold (MiB), its country (how its national phone numbers are read) and its SMS monthly limit and use.',
      response: schoolView,
      responseExample: { data: example },
    },
    async ({ ctx, principal }) => ({ data: await schoolSettings(ctx, principal) }),
  );
  r.web.route(
    {
      method: 'put', path: '/school', summary: 'Rename the school, set its time zone, country, storage or SMS limit (super_admin)',
      description:
        'Every field optional. `timezone` is an IANA name the platform\'s time-zone data knows (`Asia/Kolkata`, `Europe/London`); ' +
        'an unknown one is a 400 naming it. Quiet hours already running keep the end they were given. `storage_limit_mb` is an integer of at least 1 ' +
        '(default 5120); set below the usage, it deletes nothing and refuses new uploads. `country` is an ISO 3166-1 alpha-2 code (any case; ' +
        'not a country: 400 naming it). `sms_monthly_limit` is an integer of at least 0 (0: no SMS but PIN set-up links and test messages).',
      body: schoolChangesInput,
      response: schoolView,
      example: { timezone: 'Asia/Kolkata' },
      responseExample: { message: 'School updated', data: example },
    },
    async ({ ctx, principal, body }) => ({ message: 'School updated', data: await updateSchoolSettings(ctx, principal, body) }),
  );
}
