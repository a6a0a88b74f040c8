import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { schoolIdField } from '../../../services/schemas.js';
import { operatorPrincipal } from '../../../services/access/guards.js';
import { runImport, type ImportKind, type ImportSource } from '../../../services/imports/imports.js';
import { table, UsageError, type Action } from '../../runtime.js';
import { assertSchool } from '../../lookups.js';

export interface ImportFlags {
  school?: string;
  file?: string;
  dryRun?: boolean;
  partial?: boolean;
}

async function sourceOf(kind: ImportKind, file: string): Promise<ImportSource> {
  const info = await stat(file).catch(() => null);
  if (!info) throw new UsageError(`Invalid --file: no file or folder at ${file}`);
  if (kind !== 'oneroster') {
    if (!info.isFile()) throw new UsageError(`Invalid --file: ${file} is not a file`);
    return { csv: createReadStream(file) };
  }
  return info.isDirectory() ? { folder: file } : { zip: await readFile(file) };
}

/** A progress bar on a terminal (stderr), so that --json output and pipes stay clean. */
async function progressBar(): Promise<{ update(done: number, total: number): void; stop(): void }> {
  if (!process.stderr.isTTY) return { update: () => undefined, stop: () => undefined };
  const { default: progress } = await import('cli-progress');
  const bar = new progress.SingleBar({ stream: process.stderr, format: 'importing [{bar}] {value}/{total} rows', hideCursor: true }, progress.Presets.shades_classic);
  let started = false;
  return {
    update(done, total) {
      if (!started) bar.start(total, 0);
      started = true;
      bar.update(done);
    },
    stop: () => started && bar.stop(),
  };
}

/** Runs the import as the operator and prints the report: a summary and each error; exit 1 when the file was refused. */
export const importAction = (kind: ImportKind): Action<ImportFlags> => async (cli, flags) => {
  const schoolId = await cli.need(flags.school, { flag: '--school', message: 'School id to import into', schema: schoolIdField() });
  const file = await cli.need(flags.file, { flag: '--file', message: kind === 'oneroster' ? 'The .zip or folder of the OneRoster set' : 'The CSV file', schema: z.string().min(1) });
  const source = await sourceOf(kind, file);
  const ctx = await cli.context();
  await assertSchool(schoolId);
  const bar = await progressBar();
  const report = await runImport(ctx, operatorPrincipal(schoolId), { kind, dry_run: Boolean(flags.dryRun), partial: Boolean(flags.partial) }, source, (done, total) => bar.update(done, total)).finally(() => bar.stop());
  const summary = table([{
    rows: report.rows, created: report.created, updated: report.updated, unchanged: report.unchanged, guardians_created: report.guardians_created,
    groups_created: report.groups_created, errors: report.errors.length,
  }], ['rows', 'created', 'updated', 'unchanged', 'guardians_created', 'groups_created', 'errors']);
  const groups = report.new_groups.length ? [`Groups ${report.dry_run ? 'to create' : 'created'}: ${report.new_groups.join(', ')}`] : [];
  const verdict = report.dry_run ? 'Dry run: nothing was written.' : report.applied ? 'Imported.' : 'Nothing was imported.';
  const errors = report.errors.length ? ['', ...table(report.errors.map((e) => ({ file: e.file ?? '', line: e.line, field: e.field, message: e.message })), ['file', 'line', 'field', 'message'])] : [];
  const refused = report.errors.length > 0 && !report.partial ? `${report.errors.length} invalid row(s)${report.dry_run ? '' : '; nothing was imported'}` : undefined;
  return { data: report, lines: [`${verdict} ${kind} into ${schoolId}:`, ...summary, ...groups, ...errors], ...(refused ? { refused } : {}) };
};
