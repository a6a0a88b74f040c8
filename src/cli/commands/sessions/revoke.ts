import { Option, type Command } from 'commander';
import type { UserType } from '../../../models/session.js';
import type { CommandModule } from '../../runtime.js';

export const sessionUserTypes = ['parent', 'staff', 'admin'] as const satisfies readonly UserType[];

export interface SessionsRevokeFlags {
  school?: string;
  type?: UserType;
  userId?: string;
  all?: boolean;
}

export const sessionsRevoke: CommandModule<SessionsRevokeFlags> = {
  declaration: (group: Command) =>
    group
      .command('revoke')
      .description('End sessions at once: every session of one account (--type and --user-id), or of the whole school (--all)')
      .option('--school <school_id>', 'the school')
      .addOption(new Option('--type <type>', 'the kind of account').choices(sessionUserTypes).conflicts('all'))
      .addOption(new Option('--user-id <id>', 'the account id').conflicts('all'))
      .option('--all', 'every session of the school'),
  load: () => import('./revoke.action.js'),
};
