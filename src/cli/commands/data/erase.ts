import type { Command } from 'commander';
import type { CommandModule } from '../../runtime.js';
import type { DataEraseFlags } from './erase.action.js';

/** `data erase`: an archived student's personal data (and their parent's, when no other child links them). */
export const dataErase: CommandModule<DataEraseFlags> = {
  declaration: (group: Command) =>
    group
      .command('erase')
      .description("Erase an archived student's personal data, and their parent's when no other child links them; ids and counts stay")
      .option('--school <school_id>', 'the school')
      .option('--student-id <id>', 'the student (must be archived)')
      .option('--confirm <roll_no>', "the student's roll number, typed to confirm"),
  load: async () => ({ action: (await import('./erase.action.js')).dataEraseAction }),
};
