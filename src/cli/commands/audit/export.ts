import type { Command } from 'commander';
import type { CommandModule } from '../../runtime.js';
import type { AuditExportFlags } from './export.action.js';

/** `audit export`: the events of a range, streamed as JSON lines or CSV. */
export const auditExport: CommandModule<AuditExportFlags> = {
  declaration: (group: Command) =>
    group
      .command('export')
      .description("Stream a school's audit events, oldest first, as JSON lines or CSV (to stdout, or --out)")
      .option('--school <school_id>', 'the school')
      .option('--from <time>', 'events at or after this ISO 8601 time')
      .option('--to <time>', 'events at or before this ISO 8601 time')
      .option('--format <format>', 'jsonl or csv', 'jsonl')
      .option('--out <file>', 'write to this file instead of stdout'),
  load: async () => ({ action: (await import('./export.action.js')).auditExportAction }),
};
