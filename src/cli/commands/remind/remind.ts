import type { Command } from 'commander';
import type { CommandModule } from '../../runtime.js';
import type { RemindFlags } from './remind.action.js';

export const remindCommand: CommandModule<RemindFlags> = {
  declaration: (program: Command) =>
    program
      .command('remind')
      .description("Push a reminder to the families that have not read a published activity or notice (at most one an hour per item)")
      .option('--school <school_id>', 'the school')
      .option('--activity <id>', 'the activity')
      .option('--notice <id>', 'the notice'),
  load: () => import('./remind.action.js'),
};
