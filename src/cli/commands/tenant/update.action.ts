import { schoolIdField } from '../../../services/schemas.js';
import { operatorPrincipal } from '../../../services/access/guards.js';
import { schoolChangesInput, updateSchoolSettings } from '../../../services/schools/settings.js';
import { UsageError, type Action } from '../../runtime.js';

export interface TenantUpdateFlags {
  id?: string;
  name?: string;
  timezone?: string;
}

export const action: Action<TenantUpdateFlags> = async (cli, flags) => {
  const schoolId = await cli.need(flags.id, { flag: '--id', message: 'School id to update', schema: schoolIdField() });
  const name = cli.optional(flags.name, { flag: '--name', schema: schoolChangesInput.shape.name.unwrap() });
  const timezone = cli.optional(flags.timezone, { flag: '--timezone', schema: schoolChangesInput.shape.timezone.unwrap() });
  if (name === undefined && timezone === undefined) throw new UsageError('Nothing to change: give --name and/or --timezone');
  await cli.context();
  const school = await updateSchoolSettings(operatorPrincipal(schoolId), { name, timezone });
  return { data: school, lines: [`${school.id}: ${school.name}, time zone ${school.timezone}`] };
};
