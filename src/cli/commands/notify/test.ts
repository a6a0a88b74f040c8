import type { Command } from 'commander';
import type { CommandModule } from '../../runtime.js';
import type { NotifyTestFlags } from './test.action.js';

export const notifyTest: CommandModule<NotifyTestFlags> = {
  declaration: (group: Command) =>
    group
      .command('test')
      .description('Send one test SMS or e-mail at once through the configured provider, past every preference and limit')
      .option('--school <school_id>', 'the school whose name the message carries (and whose country reads a national phone number)')
      .option('--channel <channel>', 'sms or email')
      .option('--to <phone_or_email>', 'a phone number (as the school stores them) or an e-mail address'),
  load: () => import('./test.action.js'),
};
