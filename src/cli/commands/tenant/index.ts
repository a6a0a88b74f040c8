import type { Command } from 'commander';
import { addCommand } from '../../runtime.js';
import { tenantCreate } from './create.js';
import { tenantList } from './list.js';
import { tenantResume } from './resume.js';
import { tenantSuspend } from './suspend.js';
import { tenantUpdate } from './update.js';

export function registerTenantCommands(program: Command): void {
  const group = program.command('tenant').description('Schools (tenants): create, list, update, suspend, resume');
  addCommand(group, tenantCreate);
  addCommand(group, tenantList);
  addCommand(group, tenantUpdate);
  addCommand(group, tenantSuspend);
  addCommand(group, tenantResume);
}
