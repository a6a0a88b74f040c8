import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { QueryTypes, type Transaction } from 'sequelize';
import type { AppContext, Principal } from '../../context.js';
import { writeIn } from '../../db.js';
import { AppError } from '../../errors.js';
import type { AttachmentUploaderType } from '../../models/attachment.js';
import { requireSchoolAdmin } from '../access/guards.js';
import { recordAudit } from '../audit/audit.js';
import { attachmentView, type AttachmentView } from './attachments.js';
import { headOf, isImage, sniff, type StoredType } from './content-types.js';
import { rebuildImage } from './images.js';
import { removeStored, thumbnailKey } from './removal.js';

export const MiB = 1024 * 1024;
/** An uploaded file's limit, whatever its content (413 above). */
export const MAX_UPLOAD_BYTES = 20 * MiB;
/** What one parent's uploads not yet attached may hold at a time. */
export const PARENT_UNATTACHED_LIMIT_BYTES = 100 * MiB;

/** A file as a door received it: written whole to a temporary file, never held in memory. */
export interface ReceivedFile {
  path: string;
  /** The name the client gave (the multipart part's filename), as sent. */
  filename: string;
}

export const fileError = (message: string, detail: string) => new AppError('BAD_REQUEST', message, [{ field: 'file', message: detail }]);
export const fileTooLarge = () => new AppError('PAYLOAD_TOO_LARGE', `The file is larger than ${MAX_UPLOAD_BYTES / MiB} MiB`, [{ field: 'file', message: `is larger than ${MAX_UPLOAD_BYTES / MiB} MiB` }]);
const unsupported = () =>
  new AppError('UNSUPPORTED_MEDIA_TYPE', 'The file is not a JPEG, PNG, GIF or WebP image or a PDF', [
    { field: 'file', message: 'must be a JPEG, PNG, GIF or WebP image or a PDF (judged by its content)' },
  ]);

/** Who may upload through which door: any parent, any staff member, a school's super_admin or admin (403 otherwise). */
export function uploaderOf(principal: Principal): { type: AttachmentUploaderType; id: number } {
  if (principal.type === 'admin') {
    requireSchoolAdmin(principal);
    return { type: 'admin', id: principal.userId };
  }
  return { type: principal.type, id: principal.userId };
}

/**
 * The name an attachment keeps: without any path (up to the last `/` or `\`), without control
 * characters, at most 255 characters; `file` when nothing is left.
 */
export function attachmentName(filename: string): string {
  const base = filename.slice(Math.max(filename.lastIndexOf('/'), filename.lastIndexOf('\\')) + 1);
  // eslint-disable-next-line no-control-regex
  const clean = Array.from(base.replace(/[\u0000-\u001f\u007f-\u009f]/g, '')).slice(0, 255).join('');
  return clean.trim() === '' ? 'file' : clean;
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/** Where uploads are written and rebuilt before they reach the store: DATA_DIR/tmp, on the local store's disk. */
export const uploadTempRoot = (ctx: Pick<AppContext, 'config'>) => path.join(ctx.config.dataDir, 'tmp');

/** A temporary folder for one upload's files, removed with everything in it when the upload ends. */
export async function withUploadDir<T>(ctx: Pick<AppContext, 'config'>, work: (dir: string) => Promise<T>): Promise<T> {
  const root = uploadTempRoot(ctx);
  await mkdir(root, { recursive: true });
  const dir = await mkdtemp(path.join(root, 'upload-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const storageLimitReached = (limitMb: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `The file would take the school past its storage limit of ${limitMb} MiB`, [
    { field: 'file', message: `would take the school past its storage limit of ${limitMb} MiB` },
  ]);
const parentLimitReached = () =>
  new AppError('PAYLOAD_TOO_LARGE', `Your uploads not yet attached would pass ${PARENT_UNATTACHED_LIMIT_BYTES / MiB} MiB; attach or wait for them to expire first`, [
    { field: 'file', message: `would take your uploads not yet attached past ${PARENT_UNATTACHED_LIMIT_BYTES / MiB} MiB` },
  ]);

async function usage(ctx: AppContext, school: string, uploader: { type: AttachmentUploaderType; id: number }, transaction?: Transaction) {
  const [row] = await ctx.db.sequelize.query<{ storage_limit_mb: number; storage_used_bytes: number; unattached: number | null }>(
    `SELECT s.storage_limit_mb, s.storage_used_bytes, p.unattached_upload_bytes AS unattached
       FROM schools s LEFT JOIN parents p ON p.school_id = s.id AND p.id = :parent AND :type = 'parent'
      WHERE s.id = :school`,
    { replacements: { school, parent: uploader.id, type: uploader.type }, type: QueryTypes.SELECT, transaction },
  );
  return { limitMb: Number(row?.storage_limit_mb ?? 0), used: Number(row?.storage_used_bytes ?? 0), unattached: Number(row?.unattached ?? 0) };
}

/**
 * Refuses at once an upload the limits would refuse after it reached the store, so that the common
 * case costs no round trip to the store. Only a check: the conditional updates decide.
 */
async function checkRoom(ctx: AppContext, school: string, uploader: { type: AttachmentUploaderType; id: number }, bytes: number): Promise<void> {
  const now = await usage(ctx, school, uploader);
  if (now.used + bytes > now.limitMb * MiB) throw storageLimitReached(now.limitMb);
  if (uploader.type === 'parent' && now.unattached + bytes > PARENT_UNATTACHED_LIMIT_BYTES) throw parentLimitReached();
}

interface Prepared {
  type: StoredType;
  file: string;
  size: number;
  sha256: string;
  width: number | null;
  height: number | null;
  thumbnail: { file: string; size: number; sha256: string } | null;
}

/** The file as it will be stored: an image rebuilt (with its thumbnail), a PDF as it came. */
async function prepare(received: ReceivedFile, dir: string): Promise<Prepared> {
  const { size } = await stat(received.path);
  if (size === 0) throw fileError('The file is empty', 'is empty');
  if (size > MAX_UPLOAD_BYTES) throw fileTooLarge();
  const type = sniff(await headOf(received.path));
  if (!type) throw unsupported();
  if (!isImage(type)) return { type, file: received.path, size, sha256: await sha256Of(received.path), width: null, height: null, thumbnail: null };
  const out = path.join(dir, 'stored');
  const thumb = path.join(dir, 'thumbnail');
  const image = await rebuildImage(received.path, type, out, thumb);
  const [stored, thumbnail] = await Promise.all([stat(out), stat(thumb)]);
  return {
    type, file: out, size: stored.size, sha256: await sha256Of(out), width: image.width, height: image.height,
    thumbnail: { file: thumb, size: thumbnail.size, sha256: await sha256Of(thumb) },
  };
}

/**
 * Stores an upload (every door's): its type judged by its first bytes (415 for anything but JPEG,
 * PNG, GIF, WebP and PDF), an image rebuilt without metadata with a thumbnail, a PDF byte for byte.
 * Its row is written first as a tombstone, so that the maintenance job removes the files of an
 * upload that never finishes (a crash between the store and the commit); then the files go to the
 * store, and one transaction takes the bytes from the school's limit and, for a parent, from their
 * limit for uploads not yet attached (each a conditional update: 413 past it), brings the row to
 * life and records `attachment.create`. Whatever fails leaves no file, row or usage behind.
 */
export async function storeUpload(ctx: AppContext, principal: Principal, received: ReceivedFile): Promise<AttachmentView> {
  const uploader = uploaderOf(principal);
  const name = attachmentName(received.filename);
  return withUploadDir(ctx, async (dir) => {
    const file = await prepare(received, dir);
    const total = file.size + (file.thumbnail?.size ?? 0);
    const school = principal.schoolId;
    const key = `${school}/${randomBytes(16).toString('hex')}`;
    const now = new Date();
    const row = {
      school_id: school, uploader_type: uploader.type, uploader_id: uploader.id, name, content_type: file.type, size: file.size,
      width: file.width, height: file.height, sha256: file.sha256, thumbnail_size: file.thumbnail?.size ?? null,
      thumbnail_sha256: file.thumbnail?.sha256 ?? null, storage_key: key,
    };
    await checkRoom(ctx, school, uploader, total);
    const id = await ctx.db.sequelize.transaction((transaction) =>
      writeIn(ctx.db, transaction,
        `INSERT INTO attachments (school_id, uploader_type, uploader_id, name, content_type, size, width, height, sha256, thumbnail_size, thumbnail_sha256,
           storage_key, deleted_at, created_at, updated_at)
         VALUES (:school_id, :uploader_type, :uploader_id, :name, :content_type, :size, :width, :height, :sha256, :thumbnail_size, :thumbnail_sha256,
           :storage_key, :now, :now, :now)`,
        { ...row, now }),
    );
    try {
      await ctx.files.put(key, file.file, file.type);
      if (file.thumbnail) await ctx.files.put(thumbnailKey(key), file.thumbnail.file, file.type);
      await ctx.db.sequelize.transaction(async (transaction) => {
        const limit = await writeIn(ctx.db, transaction,
          'UPDATE schools SET storage_used_bytes = storage_used_bytes + :bytes WHERE id = :school AND storage_used_bytes + :bytes <= storage_limit_mb * 1048576',
          { bytes: total, school });
        if (limit === 0) throw storageLimitReached((await usage(ctx, school, uploader, transaction)).limitMb);
        if (uploader.type === 'parent') {
          const within = await writeIn(ctx.db, transaction,
            'UPDATE parents SET unattached_upload_bytes = unattached_upload_bytes + :bytes WHERE id = :parent AND school_id = :school AND unattached_upload_bytes + :bytes <= :cap',
            { bytes: total, parent: uploader.id, school, cap: PARENT_UNATTACHED_LIMIT_BYTES });
          if (within === 0) throw parentLimitReached();
        }
        const live = await writeIn(ctx.db, transaction, 'UPDATE attachments SET deleted_at = NULL, updated_at = :now WHERE id = :id AND deleted_at IS NOT NULL', { id, now: new Date() });
        if (live === 0) throw new AppError('SERVICE_UNAVAILABLE', 'The upload took too long; send it again', undefined, { 'Retry-After': '1' });
        await recordAudit([{
          schoolId: school, action: 'attachment.create', entityType: 'attachment', entityId: id,
          changes: { name: [null, name], content_type: [null, file.type], size: [null, file.size], width: [null, file.width], height: [null, file.height] },
        }], transaction);
      });
    } catch (err) {
      // A store that did not answer is left to the maintenance job rather than waited for again.
      const removal = removeStored(ctx, [id]);
      if (!(err instanceof AppError && err.code === 'SERVICE_UNAVAILABLE')) await removal;
      throw err;
    }
    return attachmentView(ctx, { id, ...row });
  });
}
