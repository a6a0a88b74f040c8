import type { Command } from 'commander';
import type { CommandModule } from '../../runtime.js';

export const tenantSuspend: CommandModule<{ id?: string }> = {
  declaration: (group: Command) =>
    group
      .command('suspend')
      .description('Suspend a school: every session of it ends and its users are refused until it is resumed')
      .option('--id <school_id>', 'the school id'),
  load: () => import('./suspend.action.js'),
};
