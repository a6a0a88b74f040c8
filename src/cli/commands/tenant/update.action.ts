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
}

export const action: Action<TenantUpdateFlags> = async (cli, flags) => {
  const schoolId = await cli.need(flags.id, { flag: '--id', message: 'School id to update', schema: schoolIdField() });
  const name = cli.optional(flags.name, { flag: '--name', schema: schoolChangesInput.shape.name.unwrap() });
  const timezone = cli.optional(flags.timezone, { flag: '--timezone', schema: schoolChangesInput.shape.timezone.unwrap() });
  const storageLimit = cli.optional(flags.storageLimitMb, { flag: '--storage-limit-mb', schema: z.coerce.number().pipe(schoolChangesInput.shape.storage_limit_mb.unwrap()) });
  if (name === undefined && timezone === undefined && storageLimit === undefined) throw new UsageError('Nothing to change: give --name, --timezone and/or --storage-limit-mb');
  const ctx = await cli.context();
  const school = await updateSchoolSettings(ctx, operatorPrincipal(schoolId), { name, timezone, storage_limit_mb: storageLimit });
  return {
    data: school,
    lines: [`${school.id}: ${school.name}, time zone ${school.timezone}, storage ${school.storage_used_mb} of ${school.storage_limit_mb} MiB used`],
  };
};
