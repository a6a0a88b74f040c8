import type { Command } from 'commander';
import type { CommandModule } from '../../runtime.js';

export const dbMigrate: CommandModule<object> = {
  declaration: (group: Command) => group.command('migrate').description('Apply the migrations not yet applied, and list them'),
  load: () => import('./migrate.action.js'),
};
