import type { Command } from 'commander';
import type { CommandModule } from '../../runtime.js';

export interface WebhookListFlags {
  school?: string;
}

export const webhookList: CommandModule<WebhookListFlags> = {
  declaration: (group: Command) =>
    group.command('list').description("List a school's webhooks, on or switched off (never their secrets)").option('--school <school_id>', 'the school'),
  load: () => import('./list.action.js'),
};
