import { z } from 'zod';
import { operatorPrincipal } from '../../../services/access/guards.js';
import { formResults, formResultsCsv } from '../../../services/forms/results.js';
import { id, schoolIdField } from '../../../services/schemas.js';
import { writeOut, type Action } from '../../runtime.js';
import { assertSchool } from '../../lookups.js';

export interface FormResultsFlags {
  school?: string;
  form?: string;
  format?: string;
  out?: string;
}

/** The results go to the file, or to stdout as the result itself. */
export const formResultsAction: Action<FormResultsFlags> = async (cli, flags) => {
  const schoolId = await cli.need(flags.school, { flag: '--school', message: 'School id', schema: schoolIdField() });
  const formId = await cli.need(flags.form, { flag: '--form', message: 'Form id', schema: id() });
  const format = cli.check(flags.format ?? 'json', { flag: '--format', schema: z.enum(['json', 'csv']) });
  const ctx = await cli.context();
  await assertSchool(schoolId);
  const principal = operatorPrincipal(schoolId);
  const results = format === 'json' ? await formResults(ctx, principal, formId) : null;
  const text = results ? JSON.stringify(results, null, 2) + '\n' : (await formResultsCsv(ctx, principal, formId)).csv;
  if (!flags.out) {
    process.stdout.write(text);
    return { data: results, lines: [], streamed: true };
  }
  await writeOut(flags.out, text);
  return { data: { file: flags.out, format }, lines: [`The results of form ${formId} of ${schoolId} written to ${flags.out} (${format})`] };
};
