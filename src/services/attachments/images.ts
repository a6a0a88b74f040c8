import { availableParallelism } from 'node:os';
import type { Metadata, Sharp, SharpOptions } from 'sharp';
import { AppError } from '../../errors.js';
import type { ImageType } from './content-types.js';

/** An image declaring more pixels than this (all frames of an animation together) is refused before it is decoded. */
export const MAX_IMAGE_PIXELS = 50_000_000;
export const MAX_EDGE = 2048;
export const THUMBNAIL_EDGE = 400;

let loaded: Promise<(input: string, options: SharpOptions) => Sharp> | undefined;

/**
 * sharp and libvips (about 28 MB resident) are loaded with the first upload of an image, so a
 * server that is never sent one never holds them.
 */
function sharpOf(): Promise<(input: string, options: SharpOptions) => Sharp> {
  loaded ??= import('sharp').then(({ default: sharp }) => {
    // Each image is decoded once: libvips's cache of operations would only hold memory.
    sharp.cache(false);
    // One libvips thread an image (sharp's own choice on glibc, unless MALLOC_ARENA_MAX is set, as
    // production should: README): one image at a time leaves the other core to the event loop,
    // and every extra thread would keep a malloc arena of its own.
    sharp.concurrency(1);
    return sharp;
  });
  return loaded;
}

const format: Record<ImageType, 'jpeg' | 'png' | 'gif' | 'webp'> = { 'image/jpeg': 'jpeg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp' };

export const unreadableImage = () => new AppError('BAD_REQUEST', 'The file is not a readable image of its type', [{ field: 'file', message: 'does not decode as the image type its content declares' }]);
const tooManyPixels = () =>
  new AppError('BAD_REQUEST', `The image is larger than ${MAX_IMAGE_PIXELS.toLocaleString('en')} pixels`, [{ field: 'file', message: `declares more than ${MAX_IMAGE_PIXELS.toLocaleString('en')} pixels` }]);

/**
 * Decoding runs on libuv's threads, off the event loop; this bounds how many images are decoded at
 * once, so that twenty uploads arriving together wait their turn instead of each holding a decoded
 * image in memory. One core is left to the event loop.
 */
const IN_FLIGHT = Math.max(1, Math.min(4, availableParallelism() - 1));
let running = 0;
const waiting: Array<() => void> = [];

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (running >= IN_FLIGHT) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** Fits (width, height) inside a square of `edge`, the long edge exactly `edge` and the other rounded; smaller images keep their size. */
export function fitInside(width: number, height: number, edge: number): { width: number; height: number } {
  const long = Math.max(width, height);
  if (long <= edge) return { width, height };
  const scale = edge / long;
  return width >= height ? { width: edge, height: Math.max(1, Math.round(height * scale)) } : { width: Math.max(1, Math.round(width * scale)), height: edge };
}

export interface RebuiltImage {
  width: number;
  height: number;
  thumbnail: { width: number; height: number };
}

/**
 * Rebuilds an uploaded image into `out` and its thumbnail into `thumbnailOut`, in its own type: the
 * header is read first and an image declaring too many pixels, or not of the type its first bytes
 * declared, is refused before any pixel is decoded; then the pixels are decoded (every frame of an
 * animation), turned upright by their EXIF orientation, converted to sRGB, scaled to a long edge of
 * at most 2048 px and encoded again without any metadata (sharp writes none unless asked). The
 * thumbnail is the first frame at a long edge of 400 px.
 */
export async function rebuildImage(input: string, type: ImageType, out: string, thumbnailOut: string): Promise<RebuiltImage> {
  const sharp = await sharpOf();
  let header: Metadata;
  try {
    header = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw unreadableImage();
  }
  if (header.format !== format[type]) throw unreadableImage();
  const frames = header.pages ?? 1;
  if (header.width * header.height * frames > MAX_IMAGE_PIXELS) throw tooManyPixels();
  const upright = header.autoOrient ?? { width: header.width, height: header.height };
  const size = fitInside(upright.width, upright.height, MAX_EDGE);
  const thumb = fitInside(size.width, size.height, THUMBNAIL_EDGE);
  return inTurn(async () => {
    try {
      await sharp(input, { animated: frames > 1, autoOrient: true, limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' })
        .resize({ width: size.width, height: size.height, fit: 'fill' })
        .toColourspace('srgb')
        .toFormat(format[type])
        .toFile(out);
      await sharp(out, { pages: 1, limitInputPixels: MAX_IMAGE_PIXELS })
        .resize({ width: thumb.width, height: thumb.height, fit: 'fill' })
        .toFormat(format[type])
        .toFile(thumbnailOut);
    } catch {
      throw unreadableImage();
    }
    return { ...size, thumbnail: thumb };
  });
}
