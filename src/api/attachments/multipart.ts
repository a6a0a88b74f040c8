import { createWriteStream, type WriteStream } from 'node:fs';
import path from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import busboy from 'busboy';
import type { Request, Response } from 'express';
import { fileError, fileTooLarge, type ReceivedFile } from '../../services/attachments/uploads.js';

/**
 * Browsers send a quote, CR and LF in a part's plain `filename` as %22, %0D and %0A (HTML's form
 * encoding), everything else as it is in UTF-8: the name is read back as the person chose it.
 */
const formFilename = (name: string) => name.replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');

/** Header bytes a client library writes as they are in a filename (other than tab, CR and LF), which busboy refuses. */
const HEADER_CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;
const HEADERS_END = Buffer.from('\r\n\r\n');
const MAX_HEADERS = 16 * 1024;

/**
 * Drops control characters from each part's headers, leaving the parts' content untouched: HTTP
 * clients send a filename's control characters raw, and the name keeps none of them anyway.
 */
class PartHeaderCleaner extends Transform {
  /** Whether the part named `file` gave its name as `filename*` (RFC 8187), which the parser has already decoded in full. */
  extendedFileName = false;
  private readonly delimiter: Buffer;
  // The body's first delimiter comes without the CRLF before it: read as if one preceded it.
  private pending = Buffer.from('\r\n');
  private skip = 2;
  private inHeaders = false;

  constructor(boundary: string) {
    super();
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let data = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    for (;;) {
      if (this.inHeaders) {
        const end = data.indexOf(HEADERS_END);
        if (end < 0 && data.length < MAX_HEADERS) break;
        const cut = end < 0 ? data.length : end + HEADERS_END.length;
        const headers = data.subarray(0, cut).toString('latin1').replace(HEADER_CONTROLS, '');
        const disposition = /^content-disposition:([^\r\n]*)/im.exec(headers)?.[1] ?? '';
        if (/;\s*name\s*=\s*(?:"file"|file)\s*(?:;|$)/i.test(disposition) && /;\s*filename\*\s*=/i.test(disposition)) this.extendedFileName = true;
        this.forward(Buffer.from(headers, 'latin1'));
        data = data.subarray(cut);
        this.inHeaders = false;
      } else {
        const at = data.indexOf(this.delimiter);
        if (at < 0) {
          const keep = Math.min(data.length, this.delimiter.length - 1);
          this.forward(data.subarray(0, data.length - keep));
          data = data.subarray(data.length - keep);
          break;
        }
        this.forward(data.subarray(0, at + this.delimiter.length));
        data = data.subarray(at + this.delimiter.length);
        this.inHeaders = true;
      }
    }
    this.pending = Buffer.from(data);
    done();
  }

  override _flush(done: TransformCallback): void {
    this.forward(this.pending);
    done();
  }

  /** Passes bytes on, less the leading CRLF that was never sent. */
  private forward(bytes: Buffer): void {
    const drop = Math.min(this.skip, bytes.length);
    this.skip -= drop;
    if (bytes.length > drop) this.push(bytes.subarray(drop));
  }
}

const boundaryOf = (contentType: string | undefined) => /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '')?.slice(1).find(Boolean);

const notMultipart = () => fileError('Send the file as multipart/form-data in a part named file', 'is required: send multipart/form-data with one part named file');

/**
 * Streams the one part named `file` of a multipart/form-data request to a file in `dir`, counting
 * its bytes as they come: the body is never held in memory, and a file over `maxBytes` is cut there
 * (413). The request is read to its end before the answer (other parts are read and dropped), so
 * that a client still sending gets the answer rather than a reset connection; one that keeps
 * sending far past any file we take is answered at once and its connection closed. No part named
 * `file`, two of them, or a body that is not multipart: 400 naming `file`.
 */
export function receiveFile(req: Request, res: Response, dir: string, maxBytes: number): Promise<ReceivedFile> {
  const giveUpAt = 2 * maxBytes + 1024 * 1024;
  const hangUp = () => res.setHeader('Connection', 'close');
  if (Number(req.headers['content-length'] ?? 0) > giveUpAt) {
    hangUp();
    return Promise.reject(fileTooLarge());
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { fileSize: maxBytes + 1, files: 20, fields: 100, parts: 200, fieldSize: 64 * 1024 } });
  } catch {
    return Promise.reject(notMultipart());
  }
  const boundary = boundaryOf(req.headers['content-type']);
  const cleaner = boundary ? new PartHeaderCleaner(boundary) : null;
  const stopParsing = () => {
    if (!cleaner) return void req.unpipe(parser);
    req.unpipe(cleaner);
    cleaner.unpipe(parser);
  };
  return new Promise<ReceivedFile>((resolve, reject) => {
    let failure: Error | null = null;
    let received: ReceivedFile | null = null;
    let written: Promise<void> = Promise.resolve();
    let output: WriteStream | null = null;
    let parts = 0;
    let bytes = 0;
    let settled = false;
    const fail = (err: Error) => {
      failure ??= err;
    };
    const finish = async () => {
      await written;
      if (settled) return;
      settled = true;
      if (failure) reject(failure);
      else if (!received) reject(notMultipart());
      else resolve(received);
    };
    /** Stops parsing and reads the rest of the body without keeping it (the answer follows its end). */
    const drain = () => {
      stopParsing();
      if (req.readableEnded) return void finish();
      req.once('end', () => void finish());
      req.resume();
    };
    parser.on('file', (name, stream, info) => {
      if (name !== 'file') return void stream.resume();
      if (++parts > 1) {
        fail(fileError('Send one file per request, in one part named file', 'must be sent once: the body has two parts named file'));
        return void stream.resume();
      }
      const target = path.join(dir, 'received');
      received = { path: target, filename: cleaner?.extendedFileName ? (info.filename ?? '') : formFilename(info.filename ?? '') };
      // Busboy cuts the part at its limit (one byte past ours) and drops the rest; what was written goes with the folder.
      stream.on('limit', () => fail(fileTooLarge()));
      const out = createWriteStream(target);
      output = out;
      written = new Promise<void>((done, broken) => {
        out.on('close', done);
        out.on('error', broken);
        stream.on('error', broken);
      }).catch((err: Error) => fail(err));
      stream.pipe(out);
    });
    parser.on('error', () => {
      fail(fileError('The multipart body could not be read', 'could not be read from the multipart body'));
      drain();
    });
    parser.on('close', () => void finish());
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes <= giveUpAt || settled) return;
      hangUp();
      fail(fileTooLarge());
      stopParsing();
      req.pause();
      output?.destroy();
      void finish();
    });
    req.on('close', () => {
      if (req.complete) return;
      fail(fileError('The upload was interrupted', 'was not received whole'));
      output?.destroy();
      void finish();
    });
    if (cleaner) req.pipe(cleaner).pipe(parser);
    else req.pipe(parser);
  });
}
