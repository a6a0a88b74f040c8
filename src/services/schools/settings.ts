import { z } from 'zod';
import type { Principal } from '../../context.js';
import { notFound } from '../../errors.js';
import { School } from '../../models/index.js';
import { canonicalZone } from '../../push/quiet-hours.js';
import { requireRole } from '../access/guards.js';
import { parseInput } from '../validation.js';

/** An IANA time zone as the platform's own time-zone data (Intl) knows it, kept in its canonical spelling. */
export const timezoneField = () =>
  z
    .string()
    .trim()
    .min(1)
    .max(64)
    .transform((value, issue) => {
      const zone = canonicalZone(value);
      if (!zone) {
        issue.addIssue({ code: 'custom', message: `"${value}" is not a known time zone (an IANA name such as Asia/Kolkata)` });
        return z.NEVER;
      }
      return zone;
    })
    .meta({ examples: ['Asia/Kolkata'] });

export const schoolChangesInput = z.object({
  name: z.string().trim().min(1).max(200).optional(),
  timezone: timezoneField().optional().describe("The school's IANA time zone: parents' quiet hours are its local hours"),
});
export type SchoolChanges = z.input<typeof schoolChangesInput>;

export interface SchoolSettingsView {
  id: string;
  name: string;
  status: 'active' | 'suspended';
  timezone: string;
}

const view = (s: Pick<School, 'id' | 'name' | 'status' | 'timezone'>): SchoolSettingsView => ({ id: s.id, name: s.name, status: s.status, timezone: s.timezone });

/** The caller's school as its admins see it (any admin role). */
export async function schoolSettings(principal: Principal): Promise<SchoolSettingsView> {
  requireRole(principal, 'super_admin', 'admin', 'it_contact');
  const school = await School.findByPk(principal.schoolId, { attributes: ['id', 'name', 'status', 'timezone'], raw: true });
  if (!school) throw notFound('School');
  return view(school);
}

/** Renames the school or sets its time zone (super_admin; the operator from the command line). */
export async function updateSchoolSettings(principal: Principal, input: SchoolChanges): Promise<SchoolSettingsView> {
  requireRole(principal, 'super_admin');
  const changes = Object.fromEntries(Object.entries(parseInput(schoolChangesInput, input)).filter(([, v]) => v !== undefined));
  const school = await School.findByPk(principal.schoolId);
  if (!school) throw notFound('School');
  await school.update(changes);
  return view(school);
}
