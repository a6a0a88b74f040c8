import type { Command } from 'commander';
import type { CommandModule } from '../../runtime.js';
import type { TenantUpdateFlags } from './update.action.js';

export const tenantUpdate: CommandModule<TenantUpdateFlags> = {
  declaration: (group: Command) =>
    group
      .command('update')
      .description("Rename a school, set its time zone (parents' quiet hours are its local hours), its storage limit for attachments, its country or its SMS limit")
      .option('--id <school_id>', 'the school id')
      .option('--name <name>', 'the new school name')
      .option('--timezone <zone>', 'an IANA time zone, such as Asia/Kolkata or Europe/London')
      .option('--storage-limit-mb <n>', 'MiB the school\'s attachments may hold (files and thumbnails); below the usage, nothing is deleted and new uploads are refused')
      .option('--country <code>', 'an ISO 3166-1 alpha-2 code, such as IN or US: how the school\'s national phone numbers are read for SMS')
      .option('--sms-monthly-limit <n>', 'SMS the school may send each calendar month (its time zone); past it an SMS is recorded skipped'),
  load: () => import('./update.action.js'),
};
