import { AppError as ConsoleAppError, type Action, type ActionResponse } from 'adminjs';
import { createReadStream } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import type { AppContext } from '../../context.js';
import { runImport, type ImportKind } from '../../services/imports/imports.js';
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
        const message = report.dry_run
          ? `Checked: ${report.errors.length ? `${report.errors.length} invalid row(s)` : 'no errors'}; nothing was written yet`
          : report.applied
            ? `Imported: ${report.created} created, ${report.updated} updated, ${report.unchanged} unchanged`
            : `Nothing was imported: ${report.errors.length} invalid row(s)`;
        return { report, notice: { message, type: report.applied || (report.dry_run && !report.errors.length) ? 'success' : 'error' } };
      } finally {
        if (file) await rm(file, { force: true });
      }
    }),
  };
}
