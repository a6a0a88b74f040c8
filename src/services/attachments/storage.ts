import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { Config, StorageConfig } from '../../config.js';
import { AppError } from '../../errors.js';

/** A byte range of a stored file, both ends included. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where attachments' bytes live: the one small interface both drivers implement. Every call answers
 * within the configured time or fails with a 503 (`storeUnavailable`), so a silent store costs the
 * request that needed it, never a hung one.
 */
export interface FileStore {
  readonly driver: 'local' | 's3';
  /** Copies a finished file (a temporary file of the upload) into the store under `key`. */
  put(key: string, file: string, contentType: string): Promise<void>;
  /**
   * The stored bytes (of the range, when given); null when nothing is stored under `key`. `size`,
   * the stored size when the caller knows it, lets a driver ask for exactly that many bytes.
   */
  get(key: string, range?: ByteRange, size?: number): Promise<Readable | null>;
  /** Removes the keys; a key already gone is not an error. */
  remove(keys: string[]): Promise<void>;
  /** One round trip to the store (ms); fails as the other calls do. */
  ping(): Promise<number>;
  close(): void;
}

export const storeUnavailable = () =>
  new AppError('SERVICE_UNAVAILABLE', 'The file store is not answering; try again shortly', undefined, { 'Retry-After': '10' });

/** Runs `work` with an abort signal that fires after `ms`, answering a 503 then. */
async function bounded<T>(ms: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(storeUnavailable());
    }, ms);
  });
  try {
    return await Promise.race([work(controller.signal), timedOut]);
  } catch (err) {
    if (err instanceof AppError) throw err;
    // A store that refuses the connection, answers 5xx or refuses us (credentials, a policy) is as
    // unavailable as a silent one: the request was not the client's mistake.
    throw Object.assign(storeUnavailable(), { cause: err });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * An error the store answered (the SDK's S3ServiceException, told by its fields: the SDK is loaded
 * only when S3 is configured).
 */
function isServiceAnswer(err: unknown): err is { name: string; $fault: string; $metadata: { httpStatusCode?: number } } {
  return typeof err === 'object' && err !== null && '$fault' in err && typeof (err as { $metadata?: unknown }).$metadata === 'object';
}

/** `DATA_DIR/files`: one instance's own folder, a key a relative path in it. */
class LocalStore implements FileStore {
  readonly driver = 'local' as const;

  constructor(
    private readonly dir: string,
    private readonly timeoutMs: number,
  ) {}

  private file(key: string): string {
    return path.join(this.dir, ...key.split('/'));
  }

  put(key: string, file: string): Promise<void> {
    return bounded(this.timeoutMs, async () => {
      const target = this.file(key);
      await mkdir(path.dirname(target), { recursive: true });
      // Copied beside its place and renamed there, so a crash never leaves half a file under the key.
      const partial = `${target}.${randomBytes(6).toString('hex')}.partial`;
      try {
        await copyFile(file, partial);
        await rename(partial, target);
      } catch (err) {
        await rm(partial, { force: true });
        throw err;
      }
    });
  }

  /**
   * Read straight from the disk with one plain timer on the open, not the abort signal and promise
   * race of the store's other calls: /files reads a file per request. A disk that does not open the
   * file in time (a hung network mount) still costs only this request, a 503.
   * Asked for exactly its bytes (the range, or the whole file when its size is known), the stream
   * reads them in one 256 KiB chunk or a few, never once more to find the end, and never copies a
   * chunk read short.
   */
  get(key: string, range?: ByteRange, size?: number): Promise<Readable | null> {
    const bytes = range ?? (size ? { start: 0, end: size - 1 } : undefined);
    return new Promise((resolve, reject) => {
      const stream = createReadStream(this.file(key), { highWaterMark: 256 * 1024, ...bytes });
      const timer = setTimeout(() => {
        stream.off('error', failed);
        stream.destroy();
        reject(storeUnavailable());
      }, this.timeoutMs);
      const failed = (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        if (err.code === 'ENOENT') resolve(null);
        else reject(Object.assign(storeUnavailable(), { cause: err }));
      };
      stream.once('error', failed);
      stream.once('ready', () => {
        clearTimeout(timer);
        stream.off('error', failed);
        resolve(stream);
      });
    });
  }

  remove(keys: string[]): Promise<void> {
    return bounded(this.timeoutMs, async () => {
      await Promise.all(keys.map((k) => rm(this.file(k), { force: true })));
    });
  }

  ping(): Promise<number> {
    return bounded(this.timeoutMs, async () => {
      const started = performance.now();
      await mkdir(this.dir, { recursive: true });
      await stat(this.dir);
      return performance.now() - started;
    });
  }

  close(): void {}
}

/** Any S3-compatible store (AWS S3, MinIO, Cloudflare R2, ...); objects stay private, served through /files. */
class S3Store implements FileStore {
  readonly driver = 's3' as const;
  private client?: S3Client;

  constructor(
    private readonly config: Extract<StorageConfig, { driver: 's3' }>,
    private readonly timeoutMs: number,
  ) {}

  /**
   * Made on first use, so a command that never touches a file never loads the SDK's credentials; the
   * SDK itself (about 22 MB resident) is loaded then too, so a server on local storage never holds it.
   */
  private async s3(): Promise<{ client: S3Client; sdk: typeof import('@aws-sdk/client-s3') }> {
    const sdk = await import('@aws-sdk/client-s3');
    this.client ??= new sdk.S3Client({
      region: this.config.region,
      ...(this.config.endpoint ? { endpoint: this.config.endpoint } : {}),
      forcePathStyle: this.config.forcePathStyle,
      ...(this.config.credentials ? { credentials: this.config.credentials } : {}),
      // The checksums S3 itself now defaults to are not spoken by every compatible store.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      // Retries stay within the one bound every call gets.
      maxAttempts: 2,
      requestHandler: { connectionTimeout: this.timeoutMs, requestTimeout: this.timeoutMs },
    });
    return { client: this.client, sdk };
  }

  private key(key: string): string {
    return this.config.prefix ? `${this.config.prefix}/${key}` : key;
  }

  put(key: string, file: string, contentType: string): Promise<void> {
    return bounded(this.timeoutMs, async (abortSignal) => {
      const { size } = await stat(file);
      const { client, sdk } = await this.s3();
      await client.send(
        new sdk.PutObjectCommand({ Bucket: this.config.bucket, Key: this.key(key), Body: createReadStream(file), ContentLength: size, ContentType: contentType }),
        { abortSignal },
      );
    });
  }

  get(key: string, range?: ByteRange): Promise<Readable | null> {
    return bounded(this.timeoutMs, async (abortSignal) => {
      const { client, sdk } = await this.s3();
      try {
        const object = await client.send(
          new sdk.GetObjectCommand({ Bucket: this.config.bucket, Key: this.key(key), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
          { abortSignal },
        );
        return object.Body as Readable;
      } catch (err) {
        // S3 answers a missing key with 403 AccessDenied when the credentials may not list the bucket.
        if (isServiceAnswer(err) && (err.$metadata.httpStatusCode === 404 || err.name === 'NoSuchKey' || err.name === 'AccessDenied')) return null;
        throw err;
      }
    });
  }

  remove(keys: string[]): Promise<void> {
    return bounded(this.timeoutMs, async (abortSignal) => {
      const { client, sdk } = await this.s3();
      await Promise.all(keys.map((k) => client.send(new sdk.DeleteObjectCommand({ Bucket: this.config.bucket, Key: this.key(k) }), { abortSignal })));
    });
  }

  ping(): Promise<number> {
    return bounded(this.timeoutMs, async (abortSignal) => {
      const started = performance.now();
      const { client, sdk } = await this.s3();
      await client.send(new sdk.HeadBucketCommand({ Bucket: this.config.bucket }), { abortSignal });
      return performance.now() - started;
    });
  }

  close(): void {
    this.client?.destroy();
  }
}

export function createFileStore(config: Pick<Config, 'storage' | 'storageTimeoutMs'>): FileStore {
  return config.storage.driver === 's3' ? new S3Store(config.storage, config.storageTimeoutMs) : new LocalStore(config.storage.dir, config.storageTimeoutMs);
}
