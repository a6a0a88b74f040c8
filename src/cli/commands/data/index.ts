import type { Command } from 'commander';
import { addCommand } from '../../runtime.js';
import { dataErase } from './erase.js';
import { dataExport } from './export.js';

export function registerDataCommands(program: Command): void {
  const group = program.command('data').description("A family's data: an access export, and erasure of an archived student");
  addCommand(group, dataExport);
  addCommand(group, dataErase);
}
