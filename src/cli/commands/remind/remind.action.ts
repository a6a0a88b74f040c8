import { z } from 'zod';
import { id, schoolIdField } from '../../../services/schemas.js';
import { operatorPrincipal } from '../../../services/access/guards.js';
import { reminderMessage, remindUnread } from '../../../services/audiences/reach.js';
import { UsageError, type Action } from '../../runtime.js';
import { assertSchool } from '../../lookups.js';

export interface RemindFlags {
  school?: string;
  activity?: string;
  notice?: string;
}

const kinds = ['activity', 'notice'] as const;

export const action: Action<RemindFlags> = async (cli, flags) => {
  const schoolId = await cli.need(flags.school, { flag: '--school', message: 'School id', schema: schoolIdField() });
  if (flags.activity !== undefined && flags.notice !== undefined) throw new UsageError('Give only one of --activity or --notice');
  // Neither given: on a terminal, which kind of item and then its id are asked for.
  const kind = flags.activity !== undefined ? 'activity' : flags.notice !== undefined ? 'notice'
    : await cli.need(undefined, { flag: '--activity or --notice', message: 'Remind the unread families of', schema: z.enum(kinds), choices: kinds });
  const flag = kind === 'activity' ? '--activity' : '--notice';
  const itemId = await cli.need(kind === 'activity' ? flags.activity : flags.notice, { flag, message: kind === 'activity' ? 'Activity id' : 'Notice id', schema: id() });
  const ctx = await cli.context();
  await assertSchool(schoolId);
  const result = await remindUnread(ctx, operatorPrincipal(schoolId), kind === 'activity' ? 'activity' : 'noticeboard', itemId);
  return { data: result, lines: [`${result.queued} queued`, reminderMessage(result)] };
};
