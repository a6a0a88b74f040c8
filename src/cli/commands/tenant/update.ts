import type { Command } from 'commander';
import type { CommandModule } from '../../runtime.js';

export interface TenantUpdateFlags {
  id?: string;
  name?: string;
  timezone?: string;
  storageLimitMb?: string;
}

export const tenantUpdate: CommandModule<TenantUpdateFlags> = {
  declaration: (group: Command) =>
    group
      .command('update')
      .description("Rename a school, set its time zone (parents' quiet hours are its local hours) or its storage limit for attachments")
      .option('--id <school_id>', 'the school id')
      .option('--name <name>', 'the new school name')
      .option('--timezone <zone>', 'an IANA time zone, such as Asia/Kolkata or Europe/London')
      .option('--storage-limit-mb <n>', 'MiB the school\'s attachments may hold (files and thumbnails); below the usage, nothing is deleted and new uploads are refused'),
  load: () => import('./update.action.js'),
};
