import { z } from 'zod';
import type { AppContext, Principal } from '../../context.js';
import { writeIn } from '../../db.js';
import { forbidden, notFound } from '../../errors.js';
import { Parent } from '../../models/index.js';
import { enqueue } from '../../push/outbox.js';
import { email } from '../schemas.js';
import { parseInput } from '../validation.js';
import { recordAudit } from '../audit/audit.js';
import { VERIFICATION_EVENT } from '../delivery/compose.js';
import { endVerificationLinks } from '../delivery/links.js';

export const profileInput = z.object({
  email: email().nullable().describe('A new address replaces the one on file, unverified until its link is opened; null removes it'),
});
export type ProfileInput = z.input<typeof profileInput>;

export interface ProfileView {
  id: number;
  father_name: string | null;
  mother_name: string | null;
  phone_no: string;
  email: string | null;
  /** False while the parent's own new address awaits the click on its verification link. */
  email_verified: boolean;
}

type ParentRow = Pick<Parent, 'id' | 'father_name' | 'mother_name' | 'phone_no' | 'email' | 'unverified_email'>;

/** An address is verified unless it is the one the parent gave in the app and has not confirmed yet. */
export const emailVerified = (p: Pick<Parent, 'email' | 'unverified_email'>) => p.email !== null && p.email !== p.unverified_email;

const view = (p: ParentRow): ProfileView => ({
  id: Number(p.id), father_name: p.father_name ?? null, mother_name: p.mother_name ?? null, phone_no: p.phone_no, email: p.email ?? null, email_verified: emailVerified(p),
});

function requireParent(principal: Principal): void {
  if (principal.type !== 'parent') throw forbidden('A profile is a parent\'s own');
}

async function parentRow(principal: Principal): Promise<ParentRow> {
  const row = await Parent.findOne({
    where: { id: principal.userId, school_id: principal.schoolId }, attributes: ['id', 'father_name', 'mother_name', 'phone_no', 'email', 'unverified_email'], raw: true,
  });
  if (!row) throw notFound('Parent');
  return row;
}

export async function parentProfile(principal: Principal): Promise<ProfileView> {
  requireParent(principal);
  return view(await parentRow(principal));
}

/**
 * The parent's own e-mail address. A new one replaces the address on file, unverified: a
 * verification e-mail (past every preference and quiet hours) goes to it with a link that verifies
 * it, and until then it is sent nothing else. The address already on file changes nothing; null
 * removes it. The change and its e-mail commit together, audited `parent.update`.
 */
export async function updateParentProfile(ctx: AppContext, principal: Principal, input: ProfileInput): Promise<ProfileView> {
  requireParent(principal);
  const { email: next } = parseInput(profileInput, input);
  const before = await parentRow(principal);
  if (next === before.email) return view(before);
  await ctx.db.sequelize.transaction(async (transaction) => {
    const key = { id: principal.userId, school: principal.schoolId, now: new Date() };
    await writeIn(ctx.db, transaction, 'UPDATE parents SET email = :email, unverified_email = :email, updated_at = :now WHERE id = :id AND school_id = :school', { ...key, email: next });
    await endVerificationLinks(principal.schoolId, principal.userId, transaction);
    await recordAudit([{
      schoolId: principal.schoolId, action: 'parent.update', entityType: 'parent', entityId: principal.userId,
      changes: { email: [before.email ?? null, next], ...(emailVerified(before) ? { email_verified: [true, false] } : {}) },
    }], transaction);
    if (next) {
      await enqueue([{
        school_id: principal.schoolId, event: VERIFICATION_EVENT, channel: 'email', entity_type: 'parent', entity_id: principal.userId,
        target_type: 'parent', target_id: principal.userId, address: next, title: 'Confirm your e-mail address',
        body: 'A link to confirm this address for the school\'s news.',
      }], transaction);
    }
  });
  return view(await parentRow(principal));
}
