import { randomBytes } from 'node:crypto';
import type { Transaction } from 'sequelize';
import { iso } from '../../db.js';
import { LinkToken } from '../../models/index.js';
import type { LinkKind } from '../../models/link-token.js';
import { hashSecret } from '../auth/tokens.js';
import { SCHOOL_ID_PATTERN } from '../schools/schools.js';

/** How long each kind of link works, from its message. */
export const LINK_DAYS: Record<LinkKind, number> = { view: 30, unsubscribe: 90, verify: 7 };
const SECRET_LENGTH = 22;

/** The page each kind of link opens. */
export const linkPath: Record<LinkKind, string> = { view: '/v/', unsubscribe: '/u/', verify: '/e/' };

export interface NewLink {
  kind: LinkKind;
  schoolId: string;
  parentId: number;
  entityType?: string | null;
  entityId?: number | null;
  replyId?: number | null;
  email?: string | null;
}

/**
 * A link's token: 128 random bits as 22 base64url characters, followed by the school's id (itself of
 * base64url characters), so that the lookup, like every lookup by a secret, knows the school. Only
 * its secret's hash is stored; the token is in the message alone.
 */
export function parseLinkToken(token: string): { schoolId: string; hash: string } | null {
  if (!/^[A-Za-z0-9_-]+$/.test(token) || token.length < SECRET_LENGTH + 2) return null;
  const schoolId = token.slice(SECRET_LENGTH);
  if (!SCHOOL_ID_PATTERN.test(schoolId)) return null;
  return { schoolId, hash: hashSecret(token.slice(0, SECRET_LENGTH)) };
}

/** Makes the links (one INSERT for them all, in the caller's transaction when given) and answers each one's URL, in order. */
export async function createLinks(publicAppUrl: string, links: NewLink[], now: Date, transaction?: Transaction): Promise<string[]> {
  if (links.length === 0) return [];
  const secrets = links.map(() => randomBytes(16).toString('base64url'));
  await LinkToken.bulkCreate(
    links.map((l, i) => ({
      school_id: l.schoolId, kind: l.kind, token_hash: hashSecret(secrets[i]!), parent_id: l.parentId, entity_type: l.entityType ?? null, entity_id: l.entityId ?? null,
      reply_id: l.replyId ?? null, email: l.email ?? null, expires_at: new Date(now.getTime() + LINK_DAYS[l.kind] * 86_400_000), created_at: now,
    })),
    { transaction, hooks: false },
  );
  return links.map((l, i) => `${publicAppUrl}${linkPath[l.kind]}${secrets[i]}${l.schoolId}`);
}

/**
 * Ends a parent's address verification links: their address changed, so each was for one since
 * replaced, even if the parent gives that address again later (a new link is sent then).
 */
export async function endVerificationLinks(schoolId: string, parentId: number, transaction: Transaction): Promise<void> {
  await LinkToken.destroy({ where: { school_id: schoolId, parent_id: parentId, kind: 'verify' }, transaction, hooks: false });
}

/** The link a token names, while it works (unknown, of another kind or expired: null). */
export async function findLink(token: string, kind: LinkKind, now = new Date()): Promise<LinkToken | null> {
  const parsed = parseLinkToken(token);
  if (!parsed) return null;
  const link = await LinkToken.findOne({ where: { school_id: parsed.schoolId, token_hash: parsed.hash, kind }, raw: true });
  if (!link || new Date(iso(link.expires_at)!).getTime() <= now.getTime()) return null;
  return link;
}
