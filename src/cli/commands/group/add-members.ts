import type { Command } from 'commander';
import type { CommandModule } from '../../runtime.js';
import type { GroupAddMembersFlags } from './add-members.action.js';

export const groupAddMembers: CommandModule<GroupAddMembersFlags> = {
  declaration: (group: Command) =>
    group
      .command('add-members')
      .description('Add students to a group by roll number, creating the group when it is new')
      .option('--school <school_id>', 'the school')
      .option('--group <name>', 'the group name (matched regardless of case)')
      .option('--roll-nos <list>', 'roll numbers, comma-separated: R1,R2'),
  load: () => import('./add-members.action.js'),
};
