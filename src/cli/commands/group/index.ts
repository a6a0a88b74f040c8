import type { Command } from 'commander';
import { addCommand } from '../../runtime.js';
import { groupAddMembers } from './add-members.js';

export function registerGroupCommands(program: Command): void {
  const group = program.command('group').description("Groups of a school's students (a section, a team, a bus route)");
  addCommand(group, groupAddMembers);
}
