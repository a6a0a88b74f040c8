import type { Command } from 'commander';
import type { CommandModule } from '../../runtime.js';
import type { WebhookAddFlags } from './add.action.js';

export const webhookAdd: CommandModule<WebhookAddFlags> = {
  declaration: (group: Command) =>
    group
      .command('add')
      .description('Add a webhook and print its signing secret, this once')
      .option('--school <school_id>', 'the school')
      .option('--url <url>', 'where events are POSTed (https under NODE_ENV=production)')
      .option('--events <list>', 'events, comma-separated, or * for every event'),
  load: () => import('./add.action.js'),
};
