import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config.js';

export type FileVariant = 'file' | 'thumbnail';

const keys = new Map<string, Buffer>();

/**
 * The key file URLs are signed with: HMAC-SHA256 of `file-urls` keyed with JWT_SECRET, so every
 * instance sharing the secret accepts every other's URLs, and a new secret ends them all.
 */
function signingKey(jwtSecret: string): Buffer {
  let key = keys.get(jwtSecret);
  if (!key) {
    key = createHmac('sha256', Buffer.from(jwtSecret, 'utf8')).update('file-urls').digest();
    keys.set(jwtSecret, key);
  }
  return key;
}

const signature = (jwtSecret: string, id: string, variant: FileVariant, exp: string) =>
  createHmac('sha256', signingKey(jwtSecret)).update(`${id}:${variant}:${exp}`).digest();

type UrlConfig = Pick<Config, 'jwtSecret' | 'publicAppUrl' | 'fileUrlTtlSeconds'>;

/** A URL of one file (or its thumbnail), signed afresh: it works FILE_URL_TTL_SECONDS from now. */
export function signedFileUrl(config: UrlConfig, id: number, variant: FileVariant, now = Date.now()): string {
  const exp = String(Math.floor(now / 1000) + config.fileUrlTtlSeconds);
  const sig = signature(config.jwtSecret, String(id), variant, exp).toString('hex');
  return `${config.publicAppUrl}/files/${id}${variant === 'thumbnail' ? '/thumbnail' : ''}?exp=${exp}&sig=${sig}`;
}

/**
 * Whether a request's `exp` and `sig` were signed for this id and variant and have not expired;
 * checked before anything is read, for any id. Returns the seconds the URL still works, or null.
 */
export function verifyFileUrl(config: Pick<Config, 'jwtSecret'>, id: string, variant: FileVariant, exp: unknown, sig: unknown, now = Date.now()): number | null {
  if (typeof exp !== 'string' || !/^\d{1,12}$/.test(exp) || typeof sig !== 'string' || !/^[0-9a-f]{64}$/.test(sig)) return null;
  if (!timingSafeEqual(signature(config.jwtSecret, id, variant, exp), Buffer.from(sig, 'hex'))) return null;
  const left = Number(exp) - Math.floor(now / 1000);
  return left >= 0 ? left : null;
}
