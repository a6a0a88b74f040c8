import { createHash, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { UserType } from '../../models/session.js';

export interface TokenClaims {
  sub: string;
  school_id: string;
  type: UserType;
  session_token: string;
  iat: number;
  exp: number;
}

/**
 * Signs access tokens with HS256. The secret is imported once as a KeyObject: given as a string,
 * jsonwebtoken re-imports it (trying it as a public key first) on every verification.
 */
export class TokenSigner {
  readonly key: KeyObject;
  constructor(secret: string) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  sign(claims: Omit<TokenClaims, 'iat' | 'exp'>, expiresAt: Date): string {
    const { sub, ...rest } = claims;
    return jwt.sign({ ...rest, exp: Math.floor(expiresAt.getTime() / 1000) }, this.key, { algorithm: 'HS256', subject: sub });
  }
}

/** A random secret handed to one holder (session, admission, PIN set-up); only its hash is stored. */
export const newSecret = (): string => randomBytes(32).toString('base64url');
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export function isTokenClaims(payload: unknown): payload is TokenClaims {
  const p = payload as Partial<TokenClaims> | null;
  return (
    !!p &&
    typeof p.sub === 'string' &&
    /^\d{1,15}$/.test(p.sub) &&
    typeof p.school_id === 'string' &&
    typeof p.session_token === 'string' &&
    (p.type === 'parent' || p.type === 'staff' || p.type === 'admin')
  );
}
