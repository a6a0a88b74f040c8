import type { AppContext } from '../../context.js';
import { DateTime } from 'luxon';
import { iso, writeIn } from '../../db.js';
import { recordRead } from '../audiences/reach.js';
import { parentSees } from '../engagement/visibility.js';
import { recordAudit } from '../audit/audit.js';
import { findLink } from './links.js';
import { setChannel } from './opt-out.js';

/** What a page opened from a link shows: a post, a confirmation, or why there is nothing (404: unknown or expired; 410: gone). */
export type LinkPage =
  | { status: 200; page: 'post'; school: string; title: string; text: string; date: string | null; label: string }
  | { status: 200; page: 'unsubscribe' | 'unsubscribed' | 'verified'; school: string; email?: string }
  | { status: 404 | 410; page: 'missing' | 'gone'; school?: string }
  /** A request the page could not take (a body it cannot read, too many requests): the reason in words. */
  | { status: number; page: 'refused'; message: string };

const missing: LinkPage = { status: 404, page: 'missing' };
const asParent = (parentId: number) => ({ actorType: 'parent' as const, actorId: String(parentId), actorName: null });

async function schoolOf(ctx: AppContext, schoolId: string): Promise<{ name: string; timezone: string }> {
  const [row] = await ctx.db.select<{ name: string; timezone: string }>('SELECT name, timezone FROM schools WHERE id = :id', { id: schoolId });
  return row ?? { name: schoolId, timezone: 'UTC' };
}

const dayIn = (value: unknown, zone: string) => {
  const at = iso(value);
  return at ? DateTime.fromISO(at, { zone }).toFormat('yyyy-MM-dd') : null;
};

/**
 * A post's web page (`/v/<token>`): the activity or notice as its parent may see it now, or the
 * staff reply to their request. Opening an activity's or a notice's page is that parent's read of it
 * (the first read kept). An item deleted since, or no longer the family's to see, is gone (410) and
 * no read is recorded. A look without opening (`HEAD`, as link checkers send) records nothing.
 */
export async function postPage(ctx: AppContext, token: string, opened = true): Promise<LinkPage> {
  const link = await findLink(token, 'view');
  if (!link) return missing;
  const school = await schoolOf(ctx, link.school_id);
  const gone: LinkPage = { status: 410, page: 'gone', school: school.name };
  const parentId = Number(link.parent_id);
  const id = Number(link.entity_id);
  if (link.entity_type === 'write_to') {
    const [reply] = await ctx.db.select<{ subject: string; message: string; created_at: unknown }>(
      `SELECT w.subject, r.message, r.created_at FROM write_to_replies r JOIN write_to_requests w ON w.id = r.write_to_id AND w.school_id = r.school_id
        WHERE r.id = :reply AND r.write_to_id = :id AND r.school_id = :school AND w.parent_id = :parent`,
      { reply: Number(link.reply_id), id, school: link.school_id, parent: parentId },
    );
    if (!reply) return gone;
    return { status: 200, page: 'post', school: school.name, title: reply.subject, text: reply.message, date: dayIn(reply.created_at, school.timezone), label: 'Reply from the school' };
  }
  const type = link.entity_type === 'activity' ? 'activity' : link.entity_type === 'noticeboard' ? 'noticeboard' : null;
  if (!type || !(await parentSees(ctx, link.school_id, parentId, type, id))) return gone;
  const sql = type === 'activity'
    ? 'SELECT title, description AS text, published_at FROM activities WHERE id = :id AND school_id = :school'
    : 'SELECT notice_title AS title, notice_desc AS text, published_at FROM notices WHERE id = :id AND school_id = :school';
  const [item] = await ctx.db.select<{ title: string; text: string | null; published_at: unknown }>(sql, { id, school: link.school_id });
  if (!item) return gone;
  if (opened) await recordRead(ctx, link.school_id, parentId, type, id, asParent(parentId));
  return {
    status: 200, page: 'post', school: school.name, title: item.title, text: item.text ?? '', date: dayIn(item.published_at, school.timezone),
    label: type === 'activity' ? 'Activity' : 'Notice',
  };
}

/**
 * An e-mail's unsubscribe link. Opening it (GET) changes nothing, since mail scanners open links: it
 * asks to confirm. Confirming, or the one-click POST of RFC 8058, turns e-mail off for its parent
 * (again: the same answer).
 */
export async function unsubscribePage(ctx: AppContext, token: string, confirm: boolean): Promise<LinkPage> {
  const link = await findLink(token, 'unsubscribe');
  if (!link) return missing;
  const school = await schoolOf(ctx, link.school_id);
  if (!confirm) return { status: 200, page: 'unsubscribe', school: school.name };
  await setChannel(ctx, [{ schoolId: link.school_id, parentId: Number(link.parent_id) }], 'email', false, 'parent');
  return { status: 200, page: 'unsubscribed', school: school.name };
}

/**
 * An address's verification link (`/e/<token>`): marks the parent's address verified, while it is
 * still the one on file; opened again, the same page. One since replaced is as unknown as a wrong token.
 * A look without opening (`HEAD`) answers the same and verifies nothing.
 */
export async function verifyEmailPage(ctx: AppContext, token: string, opened = true): Promise<LinkPage> {
  const link = await findLink(token, 'verify');
  if (!link?.email) return missing;
  const parentId = Number(link.parent_id);
  const [parent] = await ctx.db.select<{ email: string | null }>('SELECT email FROM parents WHERE id = :id AND school_id = :school', { id: parentId, school: link.school_id });
  if (!parent || parent.email !== link.email) return missing;
  if (opened) await ctx.db.sequelize.transaction(async (transaction) => {
    const verified = await writeIn(ctx.db, transaction,
      'UPDATE parents SET unverified_email = NULL, updated_at = :now WHERE id = :id AND school_id = :school AND email = :email AND unverified_email = :email',
      { id: parentId, school: link.school_id, email: link.email, now: new Date() },
    );
    if (verified > 0) {
      await recordAudit([{ schoolId: link.school_id, action: 'parent.update', entityType: 'parent', entityId: parentId, changes: { email_verified: [false, true] }, actor: asParent(parentId) }], transaction);
    }
  });
  return { status: 200, page: 'verified', school: (await schoolOf(ctx, link.school_id)).name, email: link.email };
}
