import type { Command } from 'commander';
import { addCommand } from '../../runtime.js';
import { auditExport } from './export.js';

export function registerAuditCommands(program: Command): void {
  const group = program.command('audit').description("A school's audit trail: every change, sign-in and lock-out");
  addCommand(group, auditExport);
}
