import type { Command } from 'commander';
import type { CommandModule } from '../../runtime.js';
import type { TenantCreateFlags } from './create.action.js';

export const tenantCreate: CommandModule<TenantCreateFlags> = {
  declaration: (group: Command) =>
    group
      .command('create')
      .description('Create a school with its default grades and designations and its first super_admin')
      .option('--id <school_id>', 'the new school id: letters, digits, _ and -, 2 to 64 characters')
      .option('--name <name>', 'the school name')
      .option('--admin-email <email>', 'the first super_admin\'s e-mail (the sign-in name)')
      .option('--admin-name <name>', 'the first super_admin\'s name', 'Administrator')
      .option('--admin-password <password>', 'the first super_admin\'s password, 8 to 128 characters (generated and printed once when not given)'),
  load: () => import('./create.action.js'),
};
