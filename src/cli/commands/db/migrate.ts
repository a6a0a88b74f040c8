import type { Command } from 'commander';
import type { CommandModule } from '../../runtime.js';

export const dbMigrate: CommandModule<object> = {
  declaration: (group: Command) => group.command('migrate').description('Apply the migrations not yet applied, and list them; without DATABASE_URL, create the database in DATA_DIR when there is none'),
  load: () => import('./migrate.action.js'),
};
