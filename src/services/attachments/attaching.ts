import { QueryTypes, type Transaction } from 'sequelize';
import { z } from 'zod';
import type { AppContext, Principal } from '../../context.js';
import { writeIn } from '../../db.js';
import { AppError } from '../../errors.js';
import type { AttachmentEntityType } from '../../models/attachment.js';
import { id } from '../schemas.js';
import { attachmentIdsOfItems, deleteAttachments } from './removal.js';

export const MAX_ATTACHMENTS = 10;

/** `attachment_ids` as every route and form that takes files accepts it; the rules on the ids are checked by planAttachments. */
export const attachmentIdsInput = z
  .array(id())
  .describe(
    `Uploads (POST .../attachments) to attach, in the order they are shown: at most ${MAX_ATTACHMENTS}, none twice, each of the caller's school and attached to ` +
      'nothing else; through the parent app the parent\'s own, through the teachers and web apps a staff member\'s or an admin\'s. On an update it ' +
      'replaces the item\'s attachments (`[]` takes them all off, and one taken off is deleted); absent, they stay as they are.',
  );

export interface AttachmentItem {
  type: AttachmentEntityType;
  id: number;
}

export interface AttachmentPlan {
  /** The ids the item will carry, in order. */
  ids: number[];
  /** Of those, the ones attached to nothing yet, with the bytes a parent's upload frees from their limit. */
  fresh: Array<{ id: number; parentBytes: number }>;
}

interface Candidate {
  id: number;
  uploader_type: string;
  uploader_id: number;
  entity_type: string | null;
  entity_id: number | null;
  size: number;
  thumbnail_size: number | null;
}

/** One detail per refused id, worded the same whatever the reason, so another school's ids are never confirmed. */
function refused(ids: Array<{ index: number; id: number }>): AppError {
  return new AppError(
    'BAD_REQUEST',
    `These uploads cannot be attached here: ${ids.map((r) => r.id).join(', ')}`,
    ids.map((r) => ({ field: `attachment_ids.${r.index}`, message: `upload ${r.id} cannot be attached here` })),
  );
}

/** Through the parent app, a parent's own uploads; through the other doors, the uploads of the school's staff and admins. */
const uploaderClause = (principal: Principal) =>
  principal.type === 'parent' ? { sql: "uploader_type = 'parent' AND uploader_id = :me", me: principal.userId } : { sql: "uploader_type IN ('staff', 'admin')", me: 0 };

/**
 * Checks the ids an item is given, in the item's transaction and before anything of it is written:
 * at most ten, none twice, each an undeleted upload of the caller's school, made through the
 * caller's side (above), and attached to nothing else (on an update, to this item or nothing).
 * Anything else is one 400 naming every refused id.
 */
export async function planAttachments(
  ctx: AppContext,
  principal: Principal,
  requested: number[],
  current: AttachmentItem | null,
  transaction: Transaction,
): Promise<AttachmentPlan> {
  const bad: Array<{ index: number; id: number }> = [];
  const wanted: Array<{ index: number; id: number }> = [];
  const seen = new Set<number>();
  requested.forEach((value, index) => {
    if (seen.has(value) || wanted.length >= MAX_ATTACHMENTS) bad.push({ index, id: value });
    else wanted.push({ index, id: value });
    seen.add(value);
  });
  const who = uploaderClause(principal);
  const rows = wanted.length === 0 ? [] : await ctx.db.sequelize.query<Candidate>(
    `SELECT id, uploader_type, uploader_id, entity_type, entity_id, size, thumbnail_size FROM attachments
      WHERE school_id = :school AND id IN (:ids) AND deleted_at IS NULL AND ${who.sql}`,
    { replacements: { school: principal.schoolId, ids: wanted.map((w) => w.id), me: who.me }, type: QueryTypes.SELECT, transaction },
  );
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  const fresh: AttachmentPlan['fresh'] = [];
  for (const w of wanted) {
    const row = byId.get(w.id);
    const onThisItem = row && current && row.entity_type === current.type && Number(row.entity_id) === current.id;
    if (!row || (row.entity_id !== null && !onThisItem)) bad.push(w);
    else if (row.entity_id === null) fresh.push({ id: w.id, parentBytes: row.uploader_type === 'parent' ? Number(row.size) + Number(row.thumbnail_size ?? 0) : 0 });
  }
  if (bad.length) throw refused(bad.sort((x, y) => x.index - y.index));
  return { ids: wanted.map((w) => w.id), fresh };
}

/**
 * Gives the item the planned attachments, in its transaction once the item is written: the new ones
 * are claimed by one conditional update (an upload another request attached meanwhile is refused,
 * and the transaction with it), a parent's freed from their limit for unattached uploads, and on an
 * update those taken off are deleted.
 */
export async function applyAttachments(ctx: AppContext, principal: Principal, plan: AttachmentPlan, item: AttachmentItem, transaction: Transaction): Promise<void> {
  const replaced = await attachmentIdsOfItems(ctx, principal.schoolId, item.type, [item.id], transaction);
  const takenOff = replaced.filter((r) => !plan.ids.includes(r));
  if (takenOff.length) await deleteAttachments(ctx, { schoolId: principal.schoolId, ids: takenOff }, transaction);
  if (plan.fresh.length === 0) return;
  const who = uploaderClause(principal);
  const ids = plan.fresh.map((f) => f.id);
  const claimed = await writeIn(ctx.db, transaction,
    `UPDATE attachments SET entity_type = :type, entity_id = :entity, updated_at = :now
      WHERE school_id = :school AND id IN (:ids) AND deleted_at IS NULL AND entity_id IS NULL AND ${who.sql}`,
    { type: item.type, entity: item.id, now: new Date(), school: principal.schoolId, ids, me: who.me });
  if (claimed !== ids.length) {
    const mine = new Set(await attachmentIdsOfItems(ctx, principal.schoolId, item.type, [item.id], transaction));
    throw refused(plan.ids.map((value, index) => ({ index, id: value })).filter((r) => ids.includes(r.id) && !mine.has(r.id)));
  }
  const freed = plan.fresh.reduce((sum, f) => sum + f.parentBytes, 0);
  if (freed > 0) {
    await writeIn(ctx.db, transaction, 'UPDATE parents SET unattached_upload_bytes = unattached_upload_bytes - :bytes WHERE id = :parent AND school_id = :school', {
      bytes: freed, parent: principal.userId, school: principal.schoolId,
    });
  }
}
