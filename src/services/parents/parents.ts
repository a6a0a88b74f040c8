import type { Transaction, UniqueConstraintError } from 'sequelize';
import type { AppContext } from '../../context.js';
import { fieldError, notFound } from '../../errors.js';
import { Parent } from '../../models/index.js';
import { hashSecretValue, PIN_PATTERN } from '../auth/passwords.js';
import { endUserSessions } from '../auth/sessions.js';
import { violates } from '../transactions.js';

export type ParentFields = Partial<Pick<Parent, 'father_name' | 'mother_name' | 'email' | 'pin_setup_token_hash' | 'pin_setup_expires_at'>>;

/**
 * The parent of a phone in a school, created (without a PIN) when there is none. Runs in the caller's
 * transaction; two requests creating the same phone at once make the second fail on the
 * (school_id, phone_no) key, which transactionWithRetry (with parentPhoneRace) turns into a retry that finds the first.
 */
export async function findOrCreateParentByPhone(
  schoolId: string,
  phone: string,
  fields: ParentFields,
  transaction: Transaction,
): Promise<{ parent: Parent; created: boolean }> {
  const existing = await Parent.findOne({ where: { school_id: schoolId, phone_no: phone }, transaction });
  if (existing) return { parent: existing, created: false };
  const parent = await Parent.create(
    {
      school_id: schoolId, phone_no: phone, father_name: fields.father_name ?? null, mother_name: fields.mother_name ?? null, email: fields.email ?? null,
      pin_setup_token_hash: fields.pin_setup_token_hash ?? null, pin_setup_expires_at: fields.pin_setup_expires_at ?? null,
    },
    { transaction },
  );
  return { parent, created: true };
}

/** The parent of a phone in a school (the command line's `pin reset --type parent`), 404 when none. */
export async function findParentByPhone(schoolId: string, phone: string): Promise<Parent> {
  const parent = await Parent.findOne({ where: { school_id: schoolId, phone_no: phone } });
  if (!parent) throw notFound('Parent');
  return parent;
}

/**
 * Sets a parent's PIN (bcrypt) and ends every session of that parent; a pending set-up link stops
 * working, since the PIN it would set is now chosen.
 */
export async function setParentPin(ctx: AppContext, schoolId: string, parentId: number, pin: string): Promise<void> {
  if (!PIN_PATTERN.test(pin)) throw fieldError('pin', 'must be 4 to 8 digits');
  const pinHash = await hashSecretValue(pin);
  const [updated] = await Parent.update(
    { pin_hash: pinHash, pin_setup_token_hash: null, pin_setup_expires_at: null },
    { where: { id: parentId, school_id: schoolId } },
  );
  if (updated === 0) throw notFound('Parent');
  await endUserSessions(ctx, schoolId, 'parent', parentId);
}

/** The parents' phone key: a concurrent request created the same parent first. */
export const parentPhoneRace = (err: UniqueConstraintError) => violates(err, 'parents_school_phone_uq', 'parents.phone_no');
