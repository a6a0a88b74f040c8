import { open } from 'node:fs/promises';

export const imageTypes = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
export type ImageType = (typeof imageTypes)[number];
export type StoredType = ImageType | 'application/pdf';

const starts = (head: Buffer, bytes: number[] | string, at = 0) => {
  const expected = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes);
  return head.length >= at + expected.length && head.subarray(at, at + expected.length).equals(expected);
};

/**
 * The type a file's first bytes declare, before any decoder sees it (never its name or the type
 * the client sent); null for anything else: SVG, HTML, XML, scripts, executables, TIFF, HEIC, ...
 */
export function sniff(head: Buffer): StoredType | null {
  if (starts(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts(head, 'GIF87a') || starts(head, 'GIF89a')) return 'image/gif';
  if (starts(head, 'RIFF') && starts(head, 'WEBP', 8)) return 'image/webp';
  if (starts(head, '%PDF-')) return 'application/pdf';
  return null;
}

/** The first bytes of a file on disk, as many as sniff() reads. */
export async function headOf(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(12);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

export const isImage = (type: StoredType): type is ImageType => type !== 'application/pdf';
