import type { AppContext } from '../../context.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import { thumbnailKey } from './removal.js';
import { verifyFileUrl, type FileVariant } from './urls.js';

/** What a signed URL answers with: the stored file's facts, its bytes read separately (whole or a range). */
export interface ServedFile {
  key: string;
  contentType: string;
  size: number;
  /** Strong: the stored bytes' SHA-256, the same for every URL of the file. */
  etag: string;
  name: string;
  disposition: 'inline' | 'attachment';
  /** How long the URL still works: the most a cache may keep the answer. */
  maxAgeSeconds: number;
}

interface FileRow {
  name: string;
  content_type: string;
  size: number;
  sha256: string;
  thumbnail_size: number | null;
  thumbnail_sha256: string | null;
  storage_key: string;
}

/**
 * A file URL's answer: the signature and `exp` are checked first, for any id (403: missing, changed,
 * another id's or variant's, expired), and cost one HMAC; then the attachment, by primary key (404:
 * unknown, deleted, or a thumbnail a PDF does not have). The URL is the permission: no token, no
 * school, so the lookup is by id alone.
 */
/** A file URL whose signature does not hold, or that is no URL we gave out. */
export const invalidFileLink = () => forbidden('This file link is not valid or has expired; ask for the item again');

export async function fileToServe(ctx: AppContext, idText: string, variant: FileVariant, query: { exp?: unknown; sig?: unknown }): Promise<ServedFile> {
  const left = verifyFileUrl(ctx.config, idText, variant, query.exp, query.sig);
  if (left === null) throw invalidFileLink();
  const [row] = await ctx.db.select<FileRow>(
    'SELECT name, content_type, size, sha256, thumbnail_size, thumbnail_sha256, storage_key FROM attachments WHERE id = :id AND deleted_at IS NULL',
    { id: Number(idText) },
  );
  if (!row || (variant === 'thumbnail' && row.thumbnail_size === null)) throw notFound('File');
  const thumbnail = variant === 'thumbnail';
  return {
    key: thumbnail ? thumbnailKey(row.storage_key) : row.storage_key,
    contentType: row.content_type,
    size: Number(thumbnail ? row.thumbnail_size : row.size),
    etag: `"${thumbnail ? row.thumbnail_sha256 : row.sha256}"`,
    name: row.name,
    disposition: row.content_type === 'application/pdf' ? 'attachment' : 'inline',
    maxAgeSeconds: left,
  };
}

export const rangeNotSatisfiable = (size: number) =>
  new AppError('RANGE_NOT_SATISFIABLE', `The range asked for lies beyond the file's ${size} bytes`, undefined, { 'Content-Range': `bytes */${size}` });

const dispositions = new Map<string, string>();

/**
 * `Content-Disposition` with the name as RFC 8187 spells it (`filename*=UTF-8''...`, every byte
 * outside its attr-char percent-encoded), after an ASCII `filename=` for clients that read no other.
 * Made once a name and kept (a bounded map): a feed's thumbnails ask for the same names again and again.
 */
export function contentDisposition(disposition: 'inline' | 'attachment', name: string): string {
  const key = `${disposition}:${name}`;
  let header = dispositions.get(key);
  if (header === undefined) {
    const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
    const encoded = Array.from(Buffer.from(name, 'utf8'))
      .map((b) => (/[A-Za-z0-9!#$&+\-.^_`|~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`))
      .join('');
    header = `${disposition}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
    if (dispositions.size >= 5000) dispositions.clear();
    dispositions.set(key, header);
  }
  return header;
}
