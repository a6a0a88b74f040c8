import type { Command } from 'commander';
import { addCommand } from '../../runtime.js';
import { dbMigrate } from './migrate.js';
import { dbSeed } from './seed.js';

export function registerDbCommands(program: Command): void {
  const group = program.command('db').description('Database migrations and seeders');
  addCommand(group, dbMigrate);
  addCommand(group, dbSeed);
}
