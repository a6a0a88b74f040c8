import type { Command } from 'commander';
import type { CommandModule } from '../../runtime.js';
import type { WebhookRemoveFlags } from './remove.action.js';

export const webhookRemove: CommandModule<WebhookRemoveFlags> = {
  declaration: (group: Command) =>
    group
      .command('remove')
      .description('Remove a webhook: it gets no further events; its delivery log stays')
      .option('--school <school_id>', 'the school')
      .option('--id <id>', 'the webhook id (webhook list shows it)'),
  load: () => import('./remove.action.js'),
};
