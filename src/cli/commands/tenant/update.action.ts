import { z } from 'zod';
import { schoolIdField } from '../../../services/schemas.js';
import { operatorPrincipal } from '../../../services/access/guards.js';
import { schoolChangesInput, updateSchoolSettings } from '../../../services/schools/settings.js';
import { UsageError, type Action } from '../../runtime.js';

export interface TenantUpdateFlags {
  id?: string;
  name?: string;
  timezone?: string;
  storageLimitMb?: string;
  country?: string;
  smsMonthlyLimit?: string;
}

export const action: Action<TenantUpdateFlags> = async (cli, flags) => {
  const schoolId = await cli.need(flags.id, { flag: '--id', message: 'School id to update', schema: schoolIdField() });
  const name = cli.optional(flags.name, { flag: '--name', schema: schoolChangesInput.shape.name.unwrap() });
  const timezone = cli.optional(flags.timezone, { flag: '--timezone', schema: schoolChangesInput.shape.timezone.unwrap() });
  const storageLimit = cli.optional(flags.storageLimitMb, { flag: '--storage-limit-mb', schema: z.coerce.number().pipe(schoolChangesInput.shape.storage_limit_mb.unwrap()) });
  const country = cli.optional(flags.country, { flag: '--country', schema: schoolChangesInput.shape.country.unwrap() });
  // An empty value is not 0 (as Number('') would have it): that would stop every SMS of the school by mistake.
  const smsLimit = cli.optional(flags.smsMonthlyLimit, {
    flag: '--sms-monthly-limit', schema: z.string().trim().min(1, 'must be a whole number').transform(Number).pipe(schoolChangesInput.shape.sms_monthly_limit.unwrap()),
  });
  if ([name, timezone, storageLimit, country, smsLimit].every((v) => v === undefined)) {
    throw new UsageError('Nothing to change: give --name, --timezone, --storage-limit-mb, --country and/or --sms-monthly-limit');
  }
  const ctx = await cli.context();
  const school = await updateSchoolSettings(ctx, operatorPrincipal(schoolId), {
    name, timezone, storage_limit_mb: storageLimit, country, sms_monthly_limit: smsLimit,
  });
  return {
    data: school,
    lines: [
      `${school.id}: ${school.name}, time zone ${school.timezone}, storage ${school.storage_used_mb} of ${school.storage_limit_mb} MiB used, ` +
        `country ${school.country}, SMS ${school.sms_used_this_month} of ${school.sms_monthly_limit} this month`,
    ],
  };
};
