import { QueryTypes, type Transaction } from 'sequelize';
import type { AppContext } from '../../context.js';
import { sqlTime, writeIn } from '../../db.js';
import type { AttachmentEntityType } from '../../models/attachment.js';
import { recordAudit } from '../audit/audit.js';
import { chunks } from '../batches.js';

/** Uploads never attached are deleted once this old (job `attachment_expiry`). */
export const UNATTACHED_LIFETIME_MS = 24 * 3600_000;
/**
 * A tombstone older than this whose files are still in the store is retried by the job: by then
 * the removal made when it was deleted has failed, or the upload that wrote it never finished.
 */
export const REMOVAL_RETRY_AFTER_MS = 10 * 60_000;

export const thumbnailKey = (key: string) => `${key}.thumb`;

interface Doomed {
  id: number;
  school_id: string;
  uploader_type: string;
  uploader_id: number;
  entity_id: number | null;
  size: number;
  thumbnail_size: number | null;
}

const stored = (r: Pick<Doomed, 'size' | 'thumbnail_size'>) => Number(r.size) + Number(r.thumbnail_size ?? 0);

/**
 * Deletes attachments in the caller's transaction: each becomes a tombstone (its URLs answer 404 once
 * the transaction commits), its bytes leave the school's usage (and, unattached, its parent's), and
 * `attachment.delete` is recorded. Each row changes by its own conditional update, so a concurrent
 * deletion (or attaching) of the same attachment is counted once. The files leave the store after the commit; a
 * removal that fails is retried by the maintenance job. Returns how many were deleted.
 */
export async function deleteAttachments(
  ctx: AppContext,
  where: { schoolId: string; ids: number[] },
  transaction: Transaction,
  options: { recordChanges?: boolean } = {},
): Promise<number> {
  if (where.ids.length === 0) return 0;
  const rows = await ctx.db.sequelize.query<Doomed & { name: string; content_type: string; entity_type: string | null }>(
    `SELECT id, school_id, uploader_type, uploader_id, entity_type, entity_id, name, content_type, size, thumbnail_size
       FROM attachments WHERE school_id = :school AND id IN (:ids) AND deleted_at IS NULL`,
    { replacements: { school: where.schoolId, ids: where.ids }, type: QueryTypes.SELECT, transaction },
  );
  const now = new Date();
  const deleted: typeof rows = [];
  for (const row of rows) {
    // Only as it was read: one attached (or deleted) meanwhile is left to whoever got there first.
    const changed = await writeIn(ctx.db, transaction,
      'UPDATE attachments SET deleted_at = :now, updated_at = :now WHERE id = :id AND deleted_at IS NULL AND (entity_id = :entity OR (:unattached = 1 AND entity_id IS NULL))',
      { id: row.id, now, entity: row.entity_id ?? -1, unattached: row.entity_id === null ? 1 : 0 });
    if (changed === 0) continue;
    deleted.push(row);
    await writeIn(ctx.db, transaction, 'UPDATE schools SET storage_used_bytes = storage_used_bytes - :bytes WHERE id = :school', { bytes: stored(row), school: row.school_id });
    if (row.entity_id === null && row.uploader_type === 'parent') {
      await writeIn(ctx.db, transaction, 'UPDATE parents SET unattached_upload_bytes = unattached_upload_bytes - :bytes WHERE id = :parent AND school_id = :school', {
        bytes: stored(row), parent: row.uploader_id, school: row.school_id,
      });
    }
  }
  await recordAudit(
    deleted.map((r) => ({
      schoolId: r.school_id, action: 'attachment.delete', entityType: 'attachment' as const, entityId: Number(r.id),
      changes: options.recordChanges === false ? null : { name: [r.name, null], entity_type: [r.entity_type, null], entity_id: [r.entity_id === null ? null : Number(r.entity_id), null] },
    })),
    transaction,
  );
  if (deleted.length) transaction.afterCommit(() => void removeStored(ctx, deleted.map((r) => Number(r.id))));
  return deleted.length;
}

/** The undeleted attachments of some items, by the items they are attached to. */
export async function attachmentIdsOfItems(ctx: AppContext, schoolId: string, entityType: AttachmentEntityType, entityIds: number[], transaction: Transaction): Promise<number[]> {
  if (entityIds.length === 0) return [];
  const rows = await ctx.db.sequelize.query<{ id: number }>(
    'SELECT id FROM attachments WHERE school_id = :school AND entity_type = :type AND entity_id IN (:ids) AND deleted_at IS NULL',
    { replacements: { school: schoolId, type: entityType, ids: entityIds }, type: QueryTypes.SELECT, transaction },
  );
  return rows.map((r) => Number(r.id));
}

/** An item deleted (soft delete included) takes its attachments with it, in its transaction. */
export async function deleteAttachmentsOfItems(ctx: AppContext, schoolId: string, entityType: AttachmentEntityType, entityIds: number[], transaction: Transaction): Promise<number> {
  return deleteAttachments(ctx, { schoolId, ids: await attachmentIdsOfItems(ctx, schoolId, entityType, entityIds, transaction) }, transaction);
}

/**
 * Removes the files of tombstoned attachments from the store, then their rows. A store that fails
 * leaves the tombstone for the maintenance job; the error is logged, never thrown (the change that
 * deleted them has already been answered).
 */
export async function removeStored(ctx: AppContext, ids: number[]): Promise<number> {
  let removed = 0;
  for (const batch of chunks(ids, 100)) {
    const rows = await ctx.db.select<{ id: number; storage_key: string; thumbnail_size: number | null }>(
      'SELECT id, storage_key, thumbnail_size FROM attachments WHERE id IN (:ids) AND deleted_at IS NOT NULL',
      { ids: batch },
    );
    for (const row of rows) {
      try {
        await ctx.files.remove(row.thumbnail_size === null ? [row.storage_key] : [row.storage_key, thumbnailKey(row.storage_key)]);
        await ctx.db.execute('DELETE FROM attachments WHERE id = :id AND deleted_at IS NOT NULL', { id: row.id });
        removed++;
      } catch (err) {
        ctx.log.warn({ err, attachment: Number(row.id) }, 'removing an attachment from the store failed; the maintenance job will retry');
      }
    }
  }
  return removed;
}

/**
 * The maintenance job `attachment_expiry`: uploads still unattached 24 hours after they were made
 * are deleted (recorded as the system's), then every tombstone whose removal has been waiting is
 * tried again. Returns how many uploads expired and how many files left the store.
 */
export async function expireAttachments(ctx: AppContext, now = new Date(), stopping: () => boolean = () => false): Promise<{ expired: number; removed: number }> {
  let expired = 0;
  const cutoff = sqlTime(ctx.db.dialect, new Date(now.getTime() - UNATTACHED_LIFETIME_MS));
  for (;;) {
    if (stopping()) break;
    const due = await ctx.db.select<{ id: number; school_id: string }>(
      'SELECT id, school_id FROM attachments WHERE entity_id IS NULL AND deleted_at IS NULL AND created_at <= :cutoff ORDER BY created_at, id LIMIT 200',
      { cutoff },
    );
    if (due.length === 0) break;
    const bySchool = new Map<string, number[]>();
    for (const r of due) bySchool.set(r.school_id, [...(bySchool.get(r.school_id) ?? []), Number(r.id)]);
    for (const [schoolId, ids] of bySchool) expired += await ctx.db.sequelize.transaction((transaction) => deleteAttachments(ctx, { schoolId, ids }, transaction));
    if (due.length < 200) break;
  }
  const waiting = await ctx.db.select<{ id: number }>('SELECT id FROM attachments WHERE deleted_at IS NOT NULL AND deleted_at <= :before ORDER BY deleted_at LIMIT 1000', {
    before: sqlTime(ctx.db.dialect, new Date(now.getTime() - REMOVAL_RETRY_AFTER_MS)),
  });
  const removed = stopping() ? 0 : await removeStored(ctx, waiting.map((r) => Number(r.id)));
  return { expired, removed };
}
