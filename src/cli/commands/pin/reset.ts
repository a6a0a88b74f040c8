import { Option, type Command } from 'commander';
import { pinAccountTypes } from '../../../models/session.js';
import type { CommandModule } from '../../runtime.js';
import type { PinResetFlags } from './reset.action.js';

export const pinReset: CommandModule<PinResetFlags> = {
  declaration: (group: Command) =>
    group
      .command('reset')
      .description('Set the PIN of a parent or staff member, found by phone; every session of that account ends')
      .option('--school <school_id>', 'the school of the account')
      .addOption(new Option('--type <type>', 'the kind of account').choices(pinAccountTypes))
      .option('--phone <phone>', 'the account\'s phone number')
      .option('--pin <pin>', 'the new PIN, 4 to 8 digits (6 random digits, printed once, when not given)'),
  load: () => import('./reset.action.js'),
};
