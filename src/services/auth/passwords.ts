import bcrypt from 'bcrypt';
import { randomInt } from 'node:crypto';

/** Cost 10, as the specification fixes. bcrypt's async calls run on libuv's pool, off the event loop. */
export const BCRYPT_COST = 10;

export const hashSecretValue = (plain: string): Promise<string> => bcrypt.hash(plain, BCRYPT_COST);

// Compared against when no account matches, so an unknown phone or e-mail costs the same time as a wrong PIN.
const dummyHash = bcrypt.hashSync('no-such-account-' + Math.random(), BCRYPT_COST);

export async function verifySecretValue(plain: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    await bcrypt.compare(plain, dummyHash);
    return false;
  }
  return bcrypt.compare(plain, hash);
}

export const PIN_PATTERN = /^\d{4,8}$/;

/** A PIN generated for someone to hand over once (the command line's and the console's resets): 6 digits, uniformly random. */
export const generatePin = () => String(randomInt(0, 1_000_000)).padStart(6, '0');
