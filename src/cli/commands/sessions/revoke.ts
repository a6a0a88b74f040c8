import { Option, type Command } from 'commander';
import { userTypes } from '../../../models/session.js';
import type { CommandModule } from '../../runtime.js';
import type { SessionsRevokeFlags } from './revoke.action.js';

export const sessionsRevoke: CommandModule<SessionsRevokeFlags> = {
  declaration: (group: Command) =>
    group
      .command('revoke')
      .description('End sessions at once: every session of one account (--type and --user-id), or of the whole school (--all)')
      .option('--school <school_id>', 'the school')
      .addOption(new Option('--type <type>', 'the kind of account').choices(userTypes).conflicts('all'))
      .addOption(new Option('--user-id <id>', 'the account id').conflicts('all'))
      .option('--all', 'every session of the school'),
  load: () => import('./revoke.action.js'),
};
