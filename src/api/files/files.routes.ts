import type { Express, Request, Response } from 'express';
import type { AppContext } from '../../context.js';
import { notFound } from '../../errors.js';
import { contentDisposition, fileToServe, rangeNotSatisfiable } from '../../services/attachments/serving.js';
import type { ByteRange } from '../../services/attachments/storage.js';
import type { FileVariant } from '../../services/attachments/urls.js';
import type { ServiceRoute } from '../openapi.js';

/** A range whose last byte comes before its first (`bytes=5-2`) is invalid, not beyond the end: the header is ignored (RFC 9110 14.2). */
const backwards = (header: string) =>
  header.replace(/^\s*bytes\s*=/i, '').split(',').some((spec) => {
    const m = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(spec);
    return m !== null && Number(m[2]) < Number(m[1]);
  });

/** The one range a request asks for; null for the whole file (no Range, a malformed one, several, or an If-Range of another version). */
function requestedRange(req: Request, size: number, etag: string): ByteRange | null {
  if (!req.headers.range) return null;
  const ifRange = req.headers['if-range'];
  if (ifRange !== undefined && ifRange !== etag) return null;
  if (backwards(req.headers.range)) return null;
  const ranges = req.range(size, { combine: true });
  if (ranges === -1) throw rangeNotSatisfiable(size);
  if (ranges === -2 || ranges === undefined || ranges.type !== 'bytes' || ranges.length !== 1) return null;
  return { start: ranges[0]!.start, end: ranges[0]!.end };
}

const matches = (header: string | undefined, etag: string) =>
  header !== undefined &&
  header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });

/**
 * `GET` and `HEAD /files/:id` and `/files/:id/thumbnail` (CONTRACT.md section 25): the signed URL is
 * the permission, so no token, session or rate limit; the bytes always come through here, whatever
 * the store, with the headers that let a browser cache, resume and show them safely.
 */
export function mountFiles(app: Express, ctx: AppContext): void {
  const serve = (variant: FileVariant) => async (req: Request, res: Response) => {
    const file = await fileToServe(ctx, String(req.params.id), variant, req.query as Record<string, unknown>);
    const fresh = matches(req.headers['if-none-match'], file.etag);
    // A refusal (416, or 404 for a file gone from the store) is decided before any of the file's headers are set.
    const range = fresh ? null : requestedRange(req, file.size, file.etag);
    // A HEAD answers as its GET would, so the store is asked for the file's first byte.
    const head = req.method === 'HEAD';
    const bytes = fresh ? null : await ctx.files.get(file.key, head ? { start: 0, end: 0 } : (range ?? undefined), file.size);
    // The row outlived its file (removed from the store by hand): as good as deleted.
    if (!fresh && !bytes) throw notFound('File');
    // Set one by one: Express's res.set() looks each content type up again to add a charset.
    res.setHeader('Content-Type', file.contentType);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Disposition', contentDisposition(file.disposition, file.name));
    res.setHeader('Cache-Control', `private, max-age=${file.maxAgeSeconds}`);
    res.setHeader('ETag', file.etag);
    res.setHeader('Accept-Ranges', 'bytes');
    // The signature is the permission: a web app on another origin may show the image.
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    if (fresh) {
      res.statusCode = 304;
      res.end();
      return;
    }
    res.statusCode = range ? 206 : 200;
    res.setHeader('Content-Length', String(range ? range.end - range.start + 1 : file.size));
    if (range) res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`);
    if (!bytes || head) {
      bytes?.destroy();
      res.end();
      return;
    }
    // A plain pipe (no promise, no end-of-stream bookkeeping): a read that fails cuts the answer,
    // and a client that leaves early frees the descriptor.
    bytes.once('error', (err) => {
      req.log.warn({ err }, 'sending a file failed');
      res.destroy();
    });
    res.once('close', () => bytes.destroy());
    bytes.pipe(res);
  };
  app.get('/files/:id', serve('file'));
  app.get('/files/:id/thumbnail', serve('thumbnail'));
}

const fileHeaders = {
  'Content-Type': { description: 'The stored type', schema: { type: 'string' } },
  'Content-Length': { schema: { type: 'integer' } },
  'Content-Disposition': {
    description: "`inline` (images and thumbnails) or `attachment` (PDFs), with `filename*=UTF-8''<name>` (RFC 8187) after an ASCII `filename=`",
    schema: { type: 'string' },
  },
  'Cache-Control': { description: '`private, max-age=<seconds until exp>`', schema: { type: 'string' } },
  ETag: { description: 'Strong; the same for every URL of the file', schema: { type: 'string' } },
  'Accept-Ranges': { schema: { type: 'string', const: 'bytes' } },
  'X-Content-Type-Options': { schema: { type: 'string', const: 'nosniff' } },
};
const binary = (types: string[]) => Object.fromEntries(types.map((t) => [t, { schema: { type: 'string', format: 'binary' } }]));
const allTypes = ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'application/pdf'];
const imageTypes = allTypes.slice(0, 4);

function fileRoute(method: 'get' | 'head', thumbnail: boolean): ServiceRoute {
  const types = thumbnail ? imageTypes : allTypes;
  const head = method === 'head';
  return {
    method,
    path: `/files/:id${thumbnail ? '/thumbnail' : ''}`,
    summary: `${head ? 'The headers of' : 'Download'} ${thumbnail ? 'the 400 px thumbnail of an image attachment' : 'an attachment'}, by a signed URL`,
    description:
      `The \`${thumbnail ? 'thumbnail_url' : 'url'}\` of an attachment, as a view of its item gave it: signed for that response and working for ` +
      '`FILE_URL_TTL_SECONDS` (3600 unless set). The signature is the permission: a missing or changed `exp` or `sig`, another URL\'s, or an `exp` in the ' +
      'past is 403 for any id; then an attachment unknown or deleted is 404. `If-None-Match` with the ETag: 304. One `Range: bytes=a-b` (`a-` and ' +
      '`-n` too): 206; beyond the end: 416 with `Content-Range: bytes */<size>`. A file store that does not answer within 10 s: 503.',
    parameters: [
      { name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 }, example: 41 },
      { name: 'exp', in: 'query', required: true, description: 'Unix seconds after which the URL stops working', schema: { type: 'string', pattern: '^\\d+$' }, example: '1795000000' },
      { name: 'sig', in: 'query', required: true, description: 'Lowercase hex HMAC-SHA256 (CONTRACT.md section 25)', schema: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
      { name: 'Range', in: 'header', required: false, schema: { type: 'string' }, example: 'bytes=0-1023' },
      { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
    ],
    responses: {
      200: { description: 'The stored bytes', headers: fileHeaders, ...(head ? {} : { content: binary(types) }) },
      206: {
        description: 'The bytes of the one range asked for',
        headers: { ...fileHeaders, 'Content-Range': { description: '`bytes a-b/<size>`', schema: { type: 'string' } } },
        ...(head ? {} : { content: binary(types) }),
      },
      304: { description: 'The ETag sent in If-None-Match: the copy the client holds is current', headers: { ETag: fileHeaders.ETag } },
      403: { description: 'A missing, changed or expired signature', error: true },
      404: { description: 'No such attachment, or it was deleted', error: true },
      416: {
        description: 'The range lies beyond the end of the file',
        error: true,
        headers: { 'Content-Range': { description: '`bytes */<size>`', schema: { type: 'string' } } },
      },
      503: { description: 'The file store did not answer in time', error: true, headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } } },
    },
  };
}

/** The routes above, for the OpenAPI document. */
export const fileRoutes: ServiceRoute[] = [fileRoute('get', false), fileRoute('head', false), fileRoute('get', true), fileRoute('head', true)];
