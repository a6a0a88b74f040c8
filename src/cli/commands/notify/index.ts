import type { Command } from 'commander';
import { addCommand } from '../../runtime.js';
import { notifyTest } from './test.js';

export function registerNotifyCommands(program: Command): void {
  const group = program.command('notify').description('SMS and e-mail to families');
  addCommand(group, notifyTest);
}
