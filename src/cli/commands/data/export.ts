import type { Command } from 'commander';
import type { CommandModule } from '../../runtime.js';
import type { DataExportFlags } from './export.action.js';

/** `data export`: every record about a student and their parent, as one JSON document. */
export const dataExport: CommandModule<DataExportFlags> = {
  declaration: (group: Command) =>
    group
      .command('export')
      .description('Write one JSON document of every record about a student and their parent, without secrets (to stdout, or --out)')
      .option('--school <school_id>', 'the school')
      .option('--student-id <id>', 'the student')
      .option('--out <file>', 'write to this file instead of stdout'),
  load: async () => ({ action: (await import('./export.action.js')).dataExportAction }),
};
