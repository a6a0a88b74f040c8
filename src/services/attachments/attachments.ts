import { QueryTypes, type Transaction } from 'sequelize';
import type { AppContext } from '../../context.js';
import { parseJson } from '../../db.js';
import { signedFileUrl } from './urls.js';

/** An attachment as every view of its item shows it; the URLs are signed afresh for each response. */
export interface AttachmentView {
  id: number;
  name: string;
  content_type: string;
  size: number;
  width: number | null;
  height: number | null;
  url: string;
  thumbnail_url: string | null;
}

/** What a webhook's `data` carries of an attachment: no URL, since URLs expire. */
export type AttachmentMeta = Omit<AttachmentView, 'url' | 'thumbnail_url'>;

export interface AttachmentRow {
  id: number;
  name: string;
  content_type: string;
  size: number;
  width: number | null;
  height: number | null;
  thumbnail_size: number | null;
}

export const ATTACHMENT_COLUMNS = 'id, name, content_type, size, width, height, thumbnail_size';

export function attachmentView(ctx: Pick<AppContext, 'config'>, row: AttachmentRow, now = Date.now()): AttachmentView {
  const id = Number(row.id);
  return {
    id,
    name: row.name,
    content_type: row.content_type,
    size: Number(row.size),
    width: row.width === null ? null : Number(row.width),
    height: row.height === null ? null : Number(row.height),
    url: signedFileUrl(ctx.config, id, 'file', now),
    thumbnail_url: row.thumbnail_size === null ? null : signedFileUrl(ctx.config, id, 'thumbnail', now),
  };
}

/** An item row's `attachment_ids` column (JSON text on a raw row, the array on a model's). */
export function attachmentIdsOf(value: unknown): number[] {
  const list = typeof value === 'string' ? parseJson<unknown[]>(value) : value;
  return Array.isArray(list) ? list.map(Number).filter((n) => Number.isInteger(n) && n > 0) : [];
}

/**
 * The attachments of a page of items, each list in its item's `attachment_ids` order: one query by
 * primary key for the whole page, none when no item has any. Deleted ones are left out. In a
 * transaction, the read sees the transaction's own changes.
 */
export async function attachmentsOf(
  ctx: AppContext,
  schoolId: string,
  lists: unknown[],
  transaction?: Transaction,
): Promise<AttachmentView[][]> {
  const idLists = lists.map(attachmentIdsOf);
  // Most pages have no attachment at all: found without flattening the lists (a feed request's hot path).
  if (idLists.every((list) => list.length === 0)) return idLists.map(() => []);
  const ids = [...new Set(idLists.flat())];
  const sql = `SELECT ${ATTACHMENT_COLUMNS} FROM attachments WHERE school_id = :school AND id IN (:ids) AND deleted_at IS NULL`;
  const rows = transaction
    ? await ctx.db.sequelize.query<AttachmentRow>(sql, { replacements: { school: schoolId, ids }, type: QueryTypes.SELECT, transaction })
    : await ctx.db.select<AttachmentRow>(sql, { school: schoolId, ids });
  const now = Date.now();
  const byId = new Map(rows.map((r) => [Number(r.id), attachmentView(ctx, r, now)]));
  return idLists.map((list) => list.map((id) => byId.get(id)).filter((v): v is AttachmentView => v !== undefined));
}

/** Views with their attachments added, read in one query for the page. */
export async function withAttachments<T extends object>(
  ctx: AppContext,
  schoolId: string,
  items: Array<{ view: T; attachment_ids: unknown }>,
  transaction?: Transaction,
): Promise<Array<T & { attachments: AttachmentView[] }>> {
  const files = await attachmentsOf(ctx, schoolId, items.map((i) => i.attachment_ids), transaction);
  return items.map((i, n) => ({ ...i.view, attachments: files[n]! }));
}
