import { AppError as ConsoleAppError, type Action, type ActionResponse, type PropertyOptions } from 'adminjs';
import { rm } from 'node:fs/promises';
import type { AppContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { attachmentsOf } from '../../services/attachments/attachments.js';
import { storeUpload } from '../../services/attachments/uploads.js';
import { allows, type RoleAccess } from '../access.js';
import { creatorPrincipal, run } from '../actions.js';
import type { ConsoleAdmin } from '../auth.js';
import type { Fields } from '../form-input.js';
import type { Enricher } from '../scoped-resource.js';

/**
 * An item's files in the console (Activities, Notices, Diary entries): on its page each file is a
 * thumbnail or its name, linked to a URL signed for that page; its forms upload files through the
 * `upload` action and send their ids, in order, to the item's service as `attachment_ids`.
 */
export const attachmentProperties: Record<string, PropertyOptions> = {
  attachment_ids: { type: 'string', components: { edit: 'AttachmentsEdit' }, isVisible: { list: false, filter: false, show: false, edit: true } },
  attachments: { type: 'mixed', components: { show: 'AttachmentList' }, isVisible: { list: false, filter: false, show: true, edit: false } },
};

export const attachmentFormFields: Fields = { attachment_ids: 'ids' };

/** On an item's page and its edit form, its attachments as the API shows them, with URLs signed now. */
export function attachmentEnricher(ctx: AppContext): Enricher {
  return async (rows, _admin, detail) => {
    if (!detail) return;
    // One read a school for the rows shown, not one a row.
    const bySchool = new Map<string, typeof rows>();
    for (const row of rows) bySchool.set(String(row.school_id), [...(bySchool.get(String(row.school_id)) ?? []), row]);
    for (const [school, list] of bySchool) {
      const files = await attachmentsOf(ctx, school, list.map((row) => row.attachment_ids));
      list.forEach((row, i) => {
        row.attachments = files[i];
      });
    }
  };
}

/**
 * A service's create or update whose refusals of `attachment_ids.<n>` are shown on the form's Files
 * field: "Files cannot include upload 12."
 */
export function withAttachmentRefusals<A extends unknown[], T>(save: (...args: A) => Promise<T>) {
  return async (...args: A): Promise<T> => {
    try {
      return await save(...args);
    } catch (err) {
      if (err instanceof AppError && Array.isArray(err.details)) {
        for (const d of err.details as Array<{ field?: string }>) if (d.field?.startsWith('attachment_ids.')) d.field = 'attachment_ids';
      }
      throw err;
    }
  };
}

/** A file as formidable hands it to the console's actions. */
interface Received {
  filepath?: string;
  path?: string;
  originalFilename?: string | null;
  name?: string | null;
}

/**
 * The forms' upload: one file, stored through the same service as the apps' uploads (types, rebuild,
 * limits, quota, audit), for the admin's school (the operator names one). The answer is the
 * attachment as the API shows it, or a notice saying why it was refused.
 */
export function uploadAction(ctx: AppContext, access: RoleAccess): Partial<Action<ActionResponse>> {
  return {
    actionType: 'resource',
    isVisible: false,
    isAccessible: ({ currentAdmin }) => allows(access, currentAdmin as ConsoleAdmin, 'write'),
    handler: run(async (request, _context, admin) => {
      if (request.method !== 'post') throw new ConsoleAppError('Send a file to upload');
      const payload = (request.payload ?? {}) as Record<string, unknown>;
      const given = payload.file as Received | Received[] | undefined;
      const file = Array.isArray(given) ? given[0] : given;
      const path = file?.filepath ?? file?.path;
      try {
        if (!path) return { notice: { type: 'error', message: 'Choose a file to upload' } };
        const attachment = await storeUpload(ctx, await creatorPrincipal(admin, payload), { path, filename: file?.originalFilename ?? file?.name ?? '' });
        return { attachment, notice: { type: 'success', message: `${attachment.name} uploaded` } };
      } catch (err) {
        // The form shows why next to the files, and the others chosen with it go on.
        if (!(err instanceof AppError)) throw err;
        return { notice: { type: 'error', message: err.message } };
      } finally {
        if (path) await rm(path, { force: true });
      }
    }),
  };
}
