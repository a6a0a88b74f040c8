import type { Command } from 'commander';
import { addCommand } from '../../runtime.js';
import { importCommand } from './import.js';

export function registerImportCommands(program: Command): void {
  const group = program.command('import').description("Roster imports: the school's students or staff CSV, or a OneRoster set");
  addCommand(group, importCommand('students'));
  addCommand(group, importCommand('staff'));
  addCommand(group, importCommand('oneroster'));
}
