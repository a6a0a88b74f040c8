import { MAX_UPLOAD_BYTES, storeUpload, uploaderOf, withUploadDir } from '../../services/attachments/uploads.js';
import { attachmentView } from '../../services/schemas.js';
import type { Routers } from '../routers.js';
import { receiveFile } from './multipart.js';

const description = (who: string) =>
  `${who}. \`multipart/form-data\` with one part named \`file\` (other parts are ignored), at most 20 MiB (413 above, whatever the content). ` +
  'The type is read from the first bytes, never from the name or the declared type: JPEG, PNG, GIF, WebP and PDF are taken, anything else is 415. ' +
  'An image is rebuilt: turned upright by its EXIF orientation, converted to sRGB, scaled to a long edge of at most 2048 px and stored without any ' +
  'metadata (no EXIF, GPS, XMP, IPTC, ICC profile or comments), with a 400 px thumbnail; an animation keeps its frames. An image declaring more than ' +
  '50 megapixels, or that does not decode as its type, is 400. A PDF is stored byte for byte. The stored bytes (thumbnail included) count towards ' +
  'the school\'s `storage_limit_mb` (413 past it). The upload is attached to an item by naming its id in that item\'s `attachment_ids`; one never ' +
  'attached is deleted after 24 hours. A file store that does not answer within 10 s: 503 with Retry-After.';

/** Uploads (CONTRACT.md section 25): the same service behind each app's door. */
export function registerAttachmentRoutes(r: Routers): void {
  const doors = [
    [r.parent, 'Any parent; a parent\'s uploads not yet attached may hold 100 MiB at a time (413 past it)'],
    [r.teachers, 'Any staff member'],
    [r.web, 'super_admin and admin (it_contact: 403)'],
  ] as const;
  for (const [router, who] of doors) {
    router.route(
      {
        method: 'post', path: '/attachments', status: 201,
        summary: 'Upload a photo or a PDF to attach to a post, a diary entry or a request',
        description: description(who),
        multipart: { field: 'file', description: 'One file in the part named `file` (its `filename`, or `filename*`, names the attachment)' },
        response: attachmentView, errors: [403, 413, 415, 503],
        responseExample: {
          message: 'File uploaded',
          data: {
            id: 41, name: 'sports-day.jpg', content_type: 'image/jpeg', size: 482113, width: 2048, height: 1536,
            url: 'https://school.example.org/files/41?exp=1795000000&sig=4f1c…', thumbnail_url: 'https://school.example.org/files/41/thumbnail?exp=1795000000&sig=9a0e…',
          },
        },
      },
      async ({ ctx, principal, req, res }) => {
        uploaderOf(principal);
        const attachment = await withUploadDir(ctx, async (dir) => storeUpload(ctx, principal, await receiveFile(req, res, dir, MAX_UPLOAD_BYTES)));
        return { message: 'File uploaded', data: attachment };
      },
    );
  }
}
