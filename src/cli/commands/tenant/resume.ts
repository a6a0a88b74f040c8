import type { Command } from 'commander';
import type { CommandModule } from '../../runtime.js';

export const tenantResume: CommandModule<{ id?: string }> = {
  declaration: (group: Command) => group.command('resume').description('Resume a suspended school').option('--id <school_id>', 'the school id'),
  load: () => import('./resume.action.js'),
};
