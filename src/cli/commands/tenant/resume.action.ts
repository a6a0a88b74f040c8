import { schoolIdField } from '../../../services/schemas.js';
import { setSchoolStatus } from '../../../services/schools/schools.js';
import type { Action } from '../../runtime.js';

export const action: Action<{ id?: string }> = async (cli, flags) => {
  const schoolId = await cli.need(flags.id, { flag: '--id', message: 'School id to resume', schema: schoolIdField() });
  const result = await setSchoolStatus(await cli.context(), schoolId, 'active');
  return { data: result, lines: [`Resumed ${result.school_id}: its users can sign in again.`] };
};
