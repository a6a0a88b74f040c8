import type { Command } from 'commander';
import { addCommand } from '../../runtime.js';
import { pushTest } from './test.js';

export function registerPushCommands(program: Command): void {
  const group = program.command('push').description('Push notifications');
  addCommand(group, pushTest);
}
