import type { Command } from 'commander';
import type { CommandModule } from '../../runtime.js';
import type { TenantUpdateFlags } from './update.action.js';

export const tenantUpdate: CommandModule<TenantUpdateFlags> = {
  declaration: (group: Command) =>
    group
      .command('update')
      .description("Rename a school or set its time zone (parents' quiet hours are its local hours)")
      .option('--id <school_id>', 'the school id')
      .option('--name <name>', 'the new school name')
      .option('--timezone <zone>', 'an IANA time zone, such as Asia/Kolkata or Europe/London'),
  load: () => import('./update.action.js'),
};
