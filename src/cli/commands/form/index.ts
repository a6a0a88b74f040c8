import type { Command } from 'commander';
import { addCommand } from '../../runtime.js';
import { formResults } from './results.js';

export function registerFormCommands(program: Command): void {
  const group = program.command('form').description('Forms on activities and notices: permission slips, sign-ups and RSVPs');
  addCommand(group, formResults);
}
