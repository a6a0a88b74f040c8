import type { Command } from 'commander';
import type { CommandModule } from '../../runtime.js';

export const tenantList: CommandModule<object> = {
  declaration: (group: Command) => group.command('list').description('List every school with its status'),
  load: () => import('./list.action.js'),
};
