import type { Command } from 'commander';
import { addCommand } from '../../runtime.js';
import { pinReset } from './reset.js';

export function registerPinCommands(program: Command): void {
  const group = program.command('pin').description('Parent and staff PINs');
  addCommand(group, pinReset);
}
