import type { Command } from 'commander';
import type { CommandModule } from '../../runtime.js';
import type { WebhookListFlags } from './list.action.js';

export const webhookList: CommandModule<WebhookListFlags> = {
  declaration: (group: Command) =>
    group.command('list').description("List a school's webhooks, on or switched off (never their secrets)").option('--school <school_id>', 'the school'),
  load: () => import('./list.action.js'),
};
