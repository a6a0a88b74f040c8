import type { Command } from 'commander';
import { addCommand } from '../../runtime.js';
import { sessionsPurge } from './purge.js';
import { sessionsRevoke } from './revoke.js';

export function registerSessionCommands(program: Command): void {
  const group = program.command('sessions').description('Sessions of parents, staff and admin users');
  addCommand(group, sessionsPurge);
  addCommand(group, sessionsRevoke);
}
