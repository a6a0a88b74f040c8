import { Option, type Command } from 'commander';
import { adminRoles } from '../../../models/admin-user.js';
import type { CommandModule } from '../../runtime.js';
import type { AdminCreateFlags } from './create.action.js';

export const adminCreate: CommandModule<AdminCreateFlags> = {
  declaration: (group: Command) =>
    group
      .command('create')
      .description('Create an admin user of a school, or a platform_admin (no school) for the admin console')
      .option('--email <email>', 'the e-mail, unique across every school (the sign-in name)')
      .option('--name <name>', 'the person\'s name')
      .option('--password <password>', 'the password, 8 to 128 characters')
      .addOption(new Option('--role <role>', 'the role').choices(adminRoles))
      .option('--school <school_id>', 'the school (not for platform_admin)'),
  load: () => import('./create.action.js'),
};
