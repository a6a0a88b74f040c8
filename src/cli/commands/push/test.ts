import type { Command } from 'commander';
import type { CommandModule } from '../../runtime.js';
import type { PushTestFlags } from './test.action.js';

export const pushTest: CommandModule<PushTestFlags> = {
  declaration: (group: Command) =>
    group
      .command('test')
      .description('Send a test push at once, past any filtering, and print each target\'s result')
      .option('--school <school_id>', 'the school of the parent or staff member')
      .option('--token <fcm_token>', 'a device token')
      .option('--parent-id <id>', 'every signed-in device of this parent')
      .option('--staff-id <id>', 'every signed-in device of this staff member')
      .option('--title <title>', 'the notification title')
      .option('--body <body>', 'the notification body'),
  load: () => import('./test.action.js'),
};
