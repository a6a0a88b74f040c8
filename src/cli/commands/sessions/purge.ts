import type { Command } from 'commander';
import type { CommandModule } from '../../runtime.js';

export const sessionsPurge: CommandModule<{ olderThanDays?: string }> = {
  declaration: (group: Command) =>
    group
      .command('purge')
      .description('Delete sessions that ended, expired or went unused more than N days ago (the pruning job, now)')
      .option('--older-than-days <days>', 'the cut-off in days (default SESSION_PRUNE_DAYS, 90)'),
  load: () => import('./purge.action.js'),
};
