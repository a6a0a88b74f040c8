import { id, schoolIdField } from '../../../services/schemas.js';
import { operatorPrincipal } from '../../../services/access/guards.js';
import { reminderMessage, remindUnread } from '../../../services/audiences/reach.js';
import { UsageError, type Action } from '../../runtime.js';
import type { RemindFlags } from './remind.js';

export const action: Action<RemindFlags> = async (cli, flags) => {
  const schoolId = await cli.need(flags.school, { flag: '--school', message: 'School id', schema: schoolIdField() });
  if ((flags.activity === undefined) === (flags.notice === undefined)) throw new UsageError('Give exactly one of --activity or --notice');
  const entity = flags.activity !== undefined ? 'activity' : 'noticeboard';
  const itemId = cli.check(flags.activity ?? flags.notice!, { flag: flags.activity !== undefined ? '--activity' : '--notice', schema: id() });
  const result = await remindUnread(await cli.context(), operatorPrincipal(schoolId), entity, itemId);
  return { data: result, lines: [`${result.queued} queued`, reminderMessage(result)] };
};
