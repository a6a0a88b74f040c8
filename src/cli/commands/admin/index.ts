import type { Command } from 'commander';
import { addCommand } from '../../runtime.js';
import { adminCreate } from './create.js';

export function registerAdminCommands(program: Command): void {
  const group = program.command('admin').description('Admin users of the admin console and the web app');
  addCommand(group, adminCreate);
}
