import { z } from 'zod';
import { badRequest } from '../../errors.js';
import { IMPORT_MAX_BYTES, importKinds, importOptionsInput, rejectedImport, runImport } from '../../services/imports/imports.js';
import type { Routers } from '../routers.js';

const csvTypes = ['text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel'];
const zipTypes = ['application/zip', 'application/x-zip-compressed'];

const reportView = z.object({
  kind: z.enum(importKinds),
  dry_run: z.boolean(),
  partial: z.boolean(),
  rows: z.number(),
  created: z.number(),
  updated: z.number(),
  unchanged: z.number(),
  guardians_created: z.number(),
  groups_created: z.number().describe('The groups the file names that the school did not have: created, or in a dry run that applying would create'),
  new_groups: z.array(z.string()).describe('Their names, sorted'),
  applied: z.boolean(),
  errors: z.array(z.object({ file: z.string().optional(), line: z.number(), field: z.string(), message: z.string() })),
});

export function registerImportRoutes(r: Routers): void {
  r.web.route(
    {
      method: 'post', path: '/imports', status: 201,
      summary: 'Import students, staff or a OneRoster set (super_admin, admin)',
      description:
        'The body is the file itself: `text/csv` for `kind=students` or `kind=staff` (the school\'s own CSV, UTF-8, header row in any column order; ' +
        'templates in the README), `application/zip` for `kind=oneroster` (a OneRoster 1.1 or 1.2 bulk set). At most 20 MiB (413 above). ' +
        'Students are matched by roll number, staff and guardians by phone: the same file twice changes nothing. A new guardian gets a parent ' +
        'account without a PIN and a set-up link by SMS. By default all or nothing: any invalid row and nothing is written, answered 422 with every ' +
        'row error (`{line, field, message}`, the header being line 1) in `error.details` and the report in `data`. `partial=true` applies the valid ' +
        'rows and reports the others (201); `dry_run=true` checks and counts without writing (200).',
      query: importOptionsInput.extend({ school_id: z.string().optional() }),
      upload: { types: [...csvTypes, ...zipTypes], maxBytes: IMPORT_MAX_BYTES, description: 'The CSV file (students, staff) or the OneRoster .zip' },
      response: reportView,
      errors: [422],
      responseExample: {
        message: 'Import applied',
        data: { kind: 'students', dry_run: false, partial: false, rows: 2, created: 2, updated: 0, unchanged: 0, guardians_created: 2, groups_created: 1, new_groups: ['Bus 4'], applied: true, errors: [] },
      },
    },
    async ({ ctx, principal, query, req }) => {
      const body = req.body as unknown;
      if (!Buffer.isBuffer(body) || body.length === 0) {
        throw badRequest(`Send the file as the body, with Content-Type ${query.kind === 'oneroster' ? 'application/zip' : 'text/csv'}`, [{ field: 'body', message: 'is empty or not a file' }]);
      }
      const zip = zipTypes.includes(req.headers['content-type']?.split(';')[0]?.trim().toLowerCase() ?? '');
      if (zip !== (query.kind === 'oneroster')) {
        throw badRequest(query.kind === 'oneroster' ? 'A OneRoster set is sent as application/zip' : `A ${query.kind} import is sent as text/csv`, [{ field: 'content-type', message: 'does not match the kind' }]);
      }
      const report = await runImport(ctx, principal, query, zip ? { zip: body } : { csv: body });
      if (!report.applied && !report.dry_run) throw rejectedImport(report);
      return { status: report.dry_run ? 200 : 201, message: report.dry_run ? 'Dry run: nothing was written' : 'Import applied', data: report };
    },
  );
}
