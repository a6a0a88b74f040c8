import { schoolIdField } from '../../../services/schemas.js';
import { setSchoolStatus } from '../../../services/schools/schools.js';
import type { Action } from '../../runtime.js';

/** Suspending ends every session of the school at once; its users then get 403 until it is resumed. */
export const action: Action<{ id?: string }> = async (cli, flags) => {
  const schoolId = await cli.need(flags.id, { flag: '--id', message: 'School id to suspend', schema: schoolIdField() });
  await cli.confirm(`Suspend ${schoolId} and end every session of it?`);
  const result = await setSchoolStatus(await cli.context(), schoolId, 'suspended');
  return { data: result, lines: [`Suspended ${result.school_id}; ${result.sessions_ended} session(s) ended.`] };
};
