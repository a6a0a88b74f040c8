import { Command } from 'commander';
import { version } from '../version.js';
import { addCommand } from './runtime.js';
import { registerAdminCommands } from './commands/admin/index.js';
import { registerAuditCommands } from './commands/audit/index.js';
import { registerDataCommands } from './commands/data/index.js';
import { registerDbCommands } from './commands/db/index.js';
import { registerFormCommands } from './commands/form/index.js';
import { registerGroupCommands } from './commands/group/index.js';
import { registerImportCommands } from './commands/import/index.js';
import { remindCommand } from './commands/remind/remind.js';
import { registerNotifyCommands } from './commands/notify/index.js';
import { registerPinCommands } from './commands/pin/index.js';
import { registerPushCommands } from './commands/push/index.js';
import { registerSessionCommands } from './commands/sessions/index.js';
import { registerTenantCommands } from './commands/tenant/index.js';
import { registerWebhookCommands } from './commands/webhook/index.js';

/** The operator's program: every group and command of CONTRACT.md section 17. */
export function buildProgram(): Command {
  const program = new Command('school-platform')
    .description('Operate the school platform: schools, admin users, PINs, sessions, pushes and the database.')
    .version(version, '-V, --version')
    // Settings set here are inherited by every group and command created below.
    .exitOverride()
    .showHelpAfterError('(add --help for usage)');
  registerTenantCommands(program);
  registerAdminCommands(program);
  registerPinCommands(program);
  registerSessionCommands(program);
  registerPushCommands(program);
  registerNotifyCommands(program);
  registerDbCommands(program);
  registerImportCommands(program);
  registerGroupCommands(program);
  addCommand(program, remindCommand);
  registerAuditCommands(program);
  registerDataCommands(program);
  registerWebhookCommands(program);
  registerFormCommands(program);
  return program;
}
