import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import supertest from 'supertest';
import type { TestApp } from './app.js';

/** Text planted in a photo's metadata blocks: none of it may survive the rebuild. */
export const SECRETS = { comment: 'SECRET-JPEG-COMMENT', xmp: 'SECRET-XMP-PACKET', iptc: 'SECRET-IPTC-CAPTION', camera: 'SECRET-CAMERA-MAKER', pngText: 'SECRET-PNG-TEXT' };

/** One JPEG segment: marker, big-endian length (itself included), payload. */
function segment(marker: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(0xff00 | marker, 0);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
}

/** A Photoshop APP13 block holding one IPTC caption (2:120). */
function iptcSegment(text: string): Buffer {
  const caption = Buffer.concat([Buffer.from([0x1c, 0x02, 0x78, 0x00, text.length]), Buffer.from(text)]);
  const resource = Buffer.concat([Buffer.from('8BIM'), Buffer.from([0x04, 0x04, 0, 0]), Buffer.alloc(4), caption, Buffer.alloc(caption.length % 2)]);
  resource.writeUInt32BE(caption.length, 12);
  return segment(0xed, Buffer.concat([Buffer.from('Photoshop 3.0\0'), resource]));
}

/**
 * A camera photo as a phone sends it: `width` x `height` stored pixels (left half red, right half
 * blue) with an EXIF orientation, the camera's name and a GPS position, a Display P3 ICC profile, an
 * XMP packet, an IPTC caption and a JPEG comment.
 */
export async function cameraJpeg(width: number, height: number, orientation = 1, options: { noise?: boolean } = {}): Promise<Buffer> {
  const half = Math.floor(width / 2);
  const base = options.noise
    ? sharp({ create: { width, height, channels: 3, background: { r: 0, g: 0, b: 0 }, noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    : sharp({ create: { width, height, channels: 3, background: { r: 0, g: 0, b: 255 } } })
        .composite([{ input: { create: { width: half, height, channels: 3, background: { r: 255, g: 0, b: 0 } } }, left: 0, top: 0 }]);
  const jpeg = await sharp(await base.png().toBuffer())
    .withMetadata({ orientation })
    .withExifMerge({ IFD0: { Make: SECRETS.camera, Model: 'Phone 12' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '18/1 31/1 12/1', GPSLongitudeRef: 'E', GPSLongitude: '73/1 51/1 36/1' } })
    .withIccProfile('p3')
    .withXmp(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description>${SECRETS.xmp}</rdf:Description></rdf:RDF></x:xmpmeta>`)
    .jpeg({ quality: 90 })
    .toBuffer();
  // The comment and the IPTC block go right after the start-of-image marker.
  return Buffer.concat([jpeg.subarray(0, 2), segment(0xfe, Buffer.from(SECRETS.comment)), iptcSegment(SECRETS.iptc), jpeg.subarray(2)]);
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const b of data) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG with a tEXt chunk (its comment) after its header. */
export async function pngWithText(width: number, height: number): Promise<Buffer> {
  const png = await sharp({ create: { width, height, channels: 4, background: { r: 10, g: 200, b: 30, alpha: 1 } } }).png().toBuffer();
  const afterHeader = 8 + 25;
  return Buffer.concat([png.subarray(0, afterHeader), pngChunk('tEXt', Buffer.from(`Comment\0${SECRETS.pngText}`, 'latin1')), png.subarray(afterHeader)]);
}

/**
 * A decompression bomb: a 1-bit grey PNG declaring `width` x `height` pixels, all zero, deflated to
 * a few kilobytes; decoded, it would take width x height x 3 bytes.
 */
export function pngBomb(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 1;
  header[9] = 0;
  const row = 1 + Math.ceil(width / 8);
  const pixels = deflateSync(Buffer.alloc(row * height), { level: 9 });
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', pixels), pngChunk('IEND', Buffer.alloc(0))]);
}

/** An animated GIF of `frames` frames of width x height, alternating red and green. */
export async function animatedGif(width: number, height: number, frames = 3): Promise<Buffer> {
  const colours = [{ r: 255, g: 0, b: 0 }, { r: 0, g: 255, b: 0 }];
  const stills = await Promise.all(
    Array.from({ length: frames }, (_, i) => sharp({ create: { width, height, channels: 3, background: colours[i % 2]! } }).png().toBuffer()),
  );
  return sharp(stills, { join: { animated: true } }).gif({ delay: stills.map(() => 100), loop: 0 }).toBuffer();
}

/**
 * An animated GIF on a `width` x `height` canvas whose `frames` frames are each one pixel: a few
 * hundred bytes that a decoder renders as `frames` full canvases.
 */
export function gifAnimationBomb(width: number, height: number, frames: number): Buffer {
  const screen = Buffer.alloc(7);
  screen.writeUInt16LE(width, 0);
  screen.writeUInt16LE(height, 2);
  screen[4] = 0x80; // a global table of two colours
  const palette = Buffer.from([255, 0, 0, 0, 255, 0]);
  const loop = Buffer.concat([Buffer.from([0x21, 0xff, 0x0b]), Buffer.from('NETSCAPE2.0'), Buffer.from([0x03, 0x01, 0x00, 0x00, 0x00])]);
  const frame = (i: number) => {
    const control = Buffer.from([0x21, 0xf9, 0x04, 0x04, 10, 0, 0, 0]);
    const descriptor = Buffer.alloc(10);
    descriptor[0] = 0x2c;
    // Every other frame at the far corner: a decoder that doubts a large screen size still spans the canvas.
    descriptor.writeUInt16LE((i % 2) * (width - 1), 1);
    descriptor.writeUInt16LE((i % 2) * (height - 1), 3);
    // LZW with 3-bit codes: clear (4), the pixel's colour, end (5).
    const colour = i % 2;
    const lzw = Buffer.from([0x02, 0x02, 4 | (colour << 3) | ((5 & 3) << 6), 5 >> 2, 0x00]);
    descriptor.writeUInt16LE(1, 5);
    descriptor.writeUInt16LE(1, 7);
    return Buffer.concat([control, descriptor, lzw]);
  };
  return Buffer.concat([Buffer.from('GIF89a'), screen, palette, loop, ...Array.from({ length: frames }, (_, i) => frame(i)), Buffer.from([0x3b])]);
}

const riffChunk = (type: string, payload: Buffer) => {
  const head = Buffer.alloc(8);
  head.write(type, 0, 'latin1');
  head.writeUInt32LE(payload.length, 4);
  return Buffer.concat([head, payload, Buffer.alloc(payload.length % 2)]);
};
const uint24 = (n: number) => Buffer.from([n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff]);

/** An animated WebP on a `width` x `height` canvas whose `frames` frames are each one lossless pixel. */
export async function webpAnimationBomb(width: number, height: number, frames: number): Promise<Buffer> {
  const pixel = await sharp({ create: { width: 1, height: 1, channels: 3, background: { r: 255, g: 0, b: 0 } } }).webp({ lossless: true }).toBuffer();
  // A simple lossless WebP: RIFF, size, WEBP, then its one VP8L chunk.
  const bitstream = pixel.subarray(12);
  const vp8x = Buffer.concat([Buffer.from([0x02, 0, 0, 0]), uint24(width - 1), uint24(height - 1)]);
  const anim = Buffer.from([0, 0, 0, 0, 0, 0]);
  const frame = (i: number) => riffChunk('ANMF', Buffer.concat([uint24(Math.floor(((i % 2) * (width - 1)) / 2)), uint24(Math.floor(((i % 2) * (height - 1)) / 2)), uint24(0), uint24(0), uint24(100), Buffer.from([0]), bitstream]));
  const body = Buffer.concat([Buffer.from('WEBP'), riffChunk('VP8X', vp8x), riffChunk('ANIM', anim), ...Array.from({ length: frames }, (_, i) => frame(i))]);
  return riffChunk('RIFF', body);
}

/** A small PDF, its bytes as they must come back. */
export const pdf = (text = 'Fee circular') =>
  Buffer.from(`%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n% ${text}\ntrailer << /Root 1 0 R >>\n%%EOF\n`);

export type AppPath = 'parent-app' | 'teachers-app' | 'web-app';

/** POST /<app>/attachments with one part named file. */
export function upload(t: TestApp | { api: ReturnType<typeof supertest> }, app: AppPath, token: string, content: Buffer, filename = 'photo.jpg', contentType = 'image/jpeg') {
  return t.api.post(`/${app}/attachments`).set('Authorization', `Bearer ${token}`).attach('file', content, { filename, contentType });
}

/** The bytes a URL of the service answers, with the answer's status and headers. */
export async function fetchFile(t: { api: ReturnType<typeof supertest> }, url: string, headers: Record<string, string> = {}) {
  const u = new URL(url);
  const req = t.api.get(u.pathname + u.search).buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
  for (const [k, v] of Object.entries(headers)) req.set(k, v);
  const res = await req;
  return { status: res.status, headers: res.headers as Record<string, string>, body: res.body as Buffer, json: res.headers['content-type']?.includes('json') ? JSON.parse((res.body as Buffer).toString()) : null };
}
