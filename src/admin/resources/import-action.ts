import { AppError as ConsoleAppError, type Action, type ActionResponse } from 'adminjs';
import { createReadStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import type { AppContext } from '../../context.js';
import { runImport, type ImportKind } from '../../services/imports/imports.js';
import type { ImportReport } from '../../services/imports/report.js';
import { roleAccess, allows } from '../access.js';
import { creatorPrincipal, run } from '../actions.js';
import type { ConsoleAdmin } from '../auth.js';

/** The upload the console's Import action takes, as formidable hands it over. */
interface Upload {
  path?: string;
  filepath?: string;
  size?: number;
}

/**
 * The Import action of a list (Students, Staff): the page (the ImportRoster component) uploads a file,
 * shows the dry run's report, then applies it. It runs the same import as the API and the command
 * line, for the admin's school (the operator names one).
 */
export function importAction(ctx: AppContext, kinds: ImportKind[]): Partial<Action<ActionResponse>> {
  return {
    actionType: 'resource',
    icon: 'Upload',
    component: 'ImportRoster',
    isAccessible: ({ currentAdmin }) => allows(roleAccess.school, currentAdmin as ConsoleAdmin, 'write'),
    handler: run(async (request, _context, admin) => {
      if (request.method !== 'post') return { kinds };
      const payload = (request.payload ?? {}) as Record<string, unknown>;
      const upload = payload.file as Upload | undefined;
      const file = upload?.path ?? upload?.filepath;
      try {
        if (!file || !upload?.size) throw new ConsoleAppError('Choose a file to import');
        const kind = String(payload.kind ?? kinds[0]) as ImportKind;
        if (!kinds.includes(kind)) throw new ConsoleAppError(`This list imports ${kinds.join(' or ')}`);
        const source = kind === 'oneroster' ? { zip: await readFile(file) } : { csv: createReadStream(file) };
        const options = { kind, dry_run: payload.dry_run === 'true', partial: payload.partial === 'true' };
        const report = await runImport(ctx, await creatorPrincipal(admin, payload), options, source);
        const words = reportInWords(report);
        return { report, words, notice: { message: `${words.heading}: ${words.counts}`, type: report.applied || (report.dry_run && !report.errors.length) ? 'success' : 'error' } };
      } finally {
        if (file) await rm(file, { force: true });
      }
    }),
  };
}

/**
 * A report in the words of what happened: a dry run "3 to create, 1 to update", an import "3
 * created, 1 updated"; the new guardians and groups by count and the groups by name.
 */
export function reportInWords(report: ImportReport): { heading: string; counts: string; groups: string | null } {
  const future = report.dry_run;
  const counted = [
    `${report.created} ${future ? 'to create' : 'created'}`,
    `${report.updated} ${future ? 'to update' : 'updated'}`,
    `${report.unchanged} unchanged`,
    ...(report.guardians_created ? [`${report.guardians_created} new guardian${report.guardians_created === 1 ? '' : 's'}`] : []),
    ...(report.groups_created ? [`${report.groups_created} new group${report.groups_created === 1 ? '' : 's'}`] : []),
    ...(report.errors.length ? [`${report.errors.length} row${report.errors.length === 1 ? '' : 's'} with errors`] : []),
  ].join(', ');
  // In a dry run, the groups applying would create; applied, the ones it created.
  const groups = report.new_groups;
  const heading = future ? `Checked ${report.rows} row${report.rows === 1 ? '' : 's'}; nothing is written until you import` : report.applied ? 'Imported' : 'Nothing was imported';
  return {
    heading,
    counts: counted,
    groups: groups.length ? `${future ? 'Groups to create' : 'Groups created'}: ${groups.join(', ')}` : null,
  };
}
