import type { Command } from 'commander';
import type { CommandModule } from '../../runtime.js';
import type { FormResultsFlags } from './results.action.js';

/** `form results`: what GET /web-app/forms/:id/results (and results.csv) answers, to stdout or a file. */
export const formResults: CommandModule<FormResultsFlags> = {
  declaration: (group: Command) =>
    group
      .command('results')
      .description("A form's results: its summary, responses and who is missing (json), or the responses as a spreadsheet (csv)")
      .option('--school <school_id>', 'the school')
      .option('--form <id>', 'the form')
      .option('--format <format>', 'json or csv', 'json')
      .option('--out <file>', 'write to this file instead of stdout'),
  load: async () => ({ action: (await import('./results.action.js')).formResultsAction }),
};
