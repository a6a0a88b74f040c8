import { isSupportedCountry } from 'libphonenumber-js/max';
import { z } from 'zod';
import type { AppContext, Principal } from '../../context.js';
import { notFound } from '../../errors.js';
import { School } from '../../models/index.js';
import { canonicalZone } from '../../push/quiet-hours.js';
import { requireRole } from '../access/guards.js';
import { smsUsedThisMonth } from '../delivery/sms-budget.js';
import { keepAllDayEvents } from '../calendar/event-fields.js';
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
  storage_limit_mb: z
    .number()
    .int()
    .min(1)
    .max(100_000_000)
    .optional()
    .describe('MiB its attachments may hold (files and thumbnails); lowering it below the usage deletes nothing and refuses new uploads'),
  country: z
    .string()
    .trim()
    .transform((value, issue) => {
      const code = value.toUpperCase();
      if (!/^[A-Z]{2}$/.test(code) || !isSupportedCountry(code)) {
        issue.addIssue({ code: 'custom', message: `"${value}" is not an ISO 3166-1 alpha-2 country code (such as IN or US)` });
        return z.NEVER;
      }
      return code;
    })
    .optional()
    .describe("ISO 3166-1 alpha-2: how the school's national phone numbers are read for SMS")
    .meta({ examples: ['IN'] }),
  sms_monthly_limit: z.number().int().min(0).max(2_147_483_647).optional().describe('SMS the school may send each calendar month (its time zone); past it an SMS is recorded skipped'),
});
export type SchoolChanges = z.input<typeof schoolChangesInput>;

export interface SchoolSettingsView {
  id: string;
  name: string;
  status: 'active' | 'suspended';
  timezone: string;
  storage_limit_mb: number;
  storage_used_mb: number;
  /** Until the school sets its own: SMS_DEFAULT_COUNTRY. */
  country: string;
  sms_monthly_limit: number;
  sms_used_this_month: number;
}

type Settings = Pick<School, 'id' | 'name' | 'status' | 'timezone' | 'storage_limit_mb' | 'storage_used_bytes' | 'country' | 'sms_monthly_limit'>;
const SETTINGS: Array<keyof Settings> = ['id', 'name', 'status', 'timezone', 'storage_limit_mb', 'storage_used_bytes', 'country', 'sms_monthly_limit'];

/** A school's stored bytes as MiB to two decimals, rounded up, so that a school holding anything never reads 0. */
export const storageUsedMb = (bytes: unknown) => Math.ceil((Number(bytes) * 100) / 1_048_576) / 100;

const view = async (ctx: AppContext, s: Settings): Promise<SchoolSettingsView> => ({
  id: s.id, name: s.name, status: s.status, timezone: s.timezone, storage_limit_mb: Number(s.storage_limit_mb), storage_used_mb: storageUsedMb(s.storage_used_bytes),
  country: s.country ?? ctx.config.smsDefaultCountry, sms_monthly_limit: Number(s.sms_monthly_limit),
  sms_used_this_month: await smsUsedThisMonth(ctx, { id: s.id, timezone: s.timezone }),
});

/** The caller's school as its admins see it (any admin role). */
export async function schoolSettings(ctx: AppContext, principal: Principal): Promise<SchoolSettingsView> {
  requireRole(principal, 'super_admin', 'admin', 'it_contact');
  const school = await School.findByPk(principal.schoolId, { attributes: SETTINGS, raw: true });
  if (!school) throw notFound('School');
  return view(ctx, school);
}

/** Renames the school, sets its time zone, country, storage or SMS limit (super_admin; the operator from the command line). */
export async function updateSchoolSettings(ctx: AppContext, principal: Principal, input: SchoolChanges): Promise<SchoolSettingsView> {
  requireRole(principal, 'super_admin');
  const changes = Object.fromEntries(Object.entries(parseInput(schoolChangesInput, input)).filter(([, v]) => v !== undefined));
  const school = await School.findByPk(principal.schoolId);
  if (!school) throw notFound('School');
  const from = school.timezone;
  await ctx.db.sequelize.transaction(async (transaction) => {
    // Sequelize writes only the fields that changed: the usage read with it is never written back.
    await school.update(changes, { transaction });
    if (school.timezone !== from) await keepAllDayEvents(ctx, school.id, from, school.timezone, transaction);
  });
  return view(ctx, school);
}
