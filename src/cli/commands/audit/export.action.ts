import { finished } from 'node:stream/promises';
import { z } from 'zod';
import { schoolIdField } from '../../../services/schemas.js';
import { auditFilters, exportAuditEvents, exportFormats } from '../../../services/audit/audit-log.js';
import { openOut, type Action } from '../../runtime.js';
import { assertSchool } from '../../lookups.js';

export interface AuditExportFlags {
  school?: string;
  from?: string;
  to?: string;
  format?: string;
  out?: string;
}

/** Streams the events to the file or to stdout; the count goes to stderr when stdout is the export. */
export const auditExportAction: Action<AuditExportFlags> = async (cli, flags) => {
  const schoolId = await cli.need(flags.school, { flag: '--school', message: 'School id', schema: schoolIdField() });
  const from = cli.optional(flags.from, { flag: '--from', schema: auditFilters.from.unwrap() });
  const to = cli.optional(flags.to, { flag: '--to', schema: auditFilters.to.unwrap() });
  const format = cli.check(flags.format ?? 'jsonl', { flag: '--format', schema: z.enum(exportFormats) });
  await cli.context();
  await assertSchool(schoolId);
  if (!flags.out) {
    const events = await exportAuditEvents(schoolId, { from, to }, format, process.stdout);
    process.stderr.write(`${events} event(s) exported\n`);
    return { data: { events }, lines: [], streamed: true };
  }
  const file = (await openOut(flags.out)).createWriteStream();
  const events = await exportAuditEvents(schoolId, { from, to }, format, file);
  file.end();
  await finished(file);
  return { data: { events, file: flags.out }, lines: [`${events} event(s) of ${schoolId} written to ${flags.out} (${format})`] };
};
