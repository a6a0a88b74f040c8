import { UniqueConstraintError, type Transaction } from 'sequelize';
import { z } from 'zod';
import type { AppContext, Principal } from '../../context.js';
import { badRequest, conflict, fieldError, notFound } from '../../errors.js';
import { Parent, Student } from '../../models/index.js';
import type { StudentStatus } from '../../models/student.js';
import { assertInSchool } from '../access/found.js';
import { requireSchoolAdmin } from '../access/guards.js';
import { clearFailures } from '../auth/lockout.js';
import { generatePin, hashSecretValue, PIN_PATTERN } from '../auth/passwords.js';
import { endUserSessions } from '../auth/sessions.js';
import { email, name, phone, pin as pinField } from '../schemas.js';
import { violates } from '../transactions.js';
import { parseInput } from '../validation.js';

/** A guardian's fields as the admission form, the office's New student and the parent's edit take them. */
export const parentFields = {
  father_name: name().nullable().optional(),
  mother_name: name().nullable().optional(),
  phone_no: phone().describe('Links the child to the parent of this phone in the school, created when there is none'),
  email: email().nullable().optional(),
};

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
 * Sets a parent's PIN (bcrypt), ends every session of that parent and lifts a login lock-out on
 * their phone (signing in names the school or not: both are lifted); a pending set-up link stops
 * working, since the PIN it would set is now chosen.
 */
export async function setParentPin(ctx: AppContext, schoolId: string, parentId: number, pin: string): Promise<void> {
  if (!PIN_PATTERN.test(pin)) throw fieldError('pin', 'must be 4 to 8 digits');
  const parent = await Parent.findOne({ where: { id: parentId, school_id: schoolId }, attributes: ['phone_no'], raw: true });
  if (!parent) throw notFound('Parent');
  const pinHash = await hashSecretValue(pin);
  const [updated] = await Parent.update(
    { pin_hash: pinHash, pin_setup_token_hash: null, pin_setup_expires_at: null },
    { where: { id: parentId, school_id: schoolId } },
  );
  if (updated === 0) throw notFound('Parent');
  await endUserSessions(ctx, schoolId, 'parent', parentId);
  for (const school of [schoolId, '']) await clearFailures(ctx, { schoolId: school, account: `parent:${parent.phone_no}` });
}

/** The parents' phone key: a concurrent request created the same parent first. */
export const parentPhoneRace = (err: UniqueConstraintError) => violates(err, 'parents_school_phone_uq', 'parents.phone_no');

export const parentChangesInput = z.object({
  father_name: parentFields.father_name,
  mother_name: parentFields.mother_name,
  email: parentFields.email,
  phone_no: phone().optional().describe("Unique among the school's parents (409); the children's phone_no follow it"),
});
export type ParentChanges = z.input<typeof parentChangesInput>;

export interface ParentView {
  id: number;
  father_name: string | null;
  mother_name: string | null;
  phone_no: string;
  email: string | null;
  has_pin: boolean;
  children: Array<{ id: number; student_full_name: string; roll_no: string; grade: string; status: StudentStatus }>;
}

/** A parent of the caller's school (super_admin, admin), else 404: an update of anyone else is refused before its body is judged. */
export async function assertParentFound(principal: Principal, id: number): Promise<void> {
  requireSchoolAdmin(principal);
  await assertInSchool(principal, Parent, 'Parent', id);
}

/** A parent of the school with every child linked to them (archived ones too, with their status), for the office. */
export async function getParent(_ctx: AppContext, principal: Principal, id: number): Promise<ParentView> {
  requireSchoolAdmin(principal);
  const [parent, children] = await Promise.all([
    Parent.findOne({ where: { id, school_id: principal.schoolId }, attributes: ['id', 'father_name', 'mother_name', 'phone_no', 'email', 'pin_hash'], raw: true }),
    Student.findAll({
      where: { school_id: principal.schoolId, parent_id: id }, attributes: ['id', 'student_full_name', 'roll_no', 'grade', 'status'], order: [['id', 'ASC']], raw: true,
    }),
  ]);
  if (!parent) throw notFound('Parent');
  return {
    id: Number(parent.id), father_name: parent.father_name ?? null, mother_name: parent.mother_name ?? null, phone_no: parent.phone_no,
    email: parent.email ?? null, has_pin: parent.pin_hash !== null,
    children: children.map((c) => ({ id: Number(c.id), student_full_name: c.student_full_name, roll_no: c.roll_no, grade: c.grade, status: c.status })),
  };
}

const phoneTaken = () => conflict('Another parent of this school has this phone number', [{ field: 'phone_no', message: 'already belongs to another parent' }]);

/**
 * The office's edit of a parent: only the fields sent change. A new phone is the parent's (the
 * unique key makes one another parent of the school has a 409 naming `phone_no`, even under
 * concurrent requests) and their children's, in one transaction; their PIN and sessions stay.
 */
export async function updateParent(ctx: AppContext, principal: Principal, id: number, raw: ParentChanges): Promise<ParentView> {
  await assertParentFound(principal, id);
  const changes = parseInput(parentChangesInput, raw);
  if (!Object.values(changes).some((v) => v !== undefined)) throw badRequest('Send at least one field to change');
  const patch: Partial<Pick<Parent, 'father_name' | 'mother_name' | 'email' | 'unverified_email' | 'phone_no'>> = {};
  if (changes.father_name !== undefined) patch.father_name = changes.father_name;
  if (changes.mother_name !== undefined) patch.mother_name = changes.mother_name;
  // An address the office sets counts as verified, even one the parent gave in the app and has not confirmed.
  if (changes.email !== undefined) Object.assign(patch, { email: changes.email, unverified_email: null });
  if (changes.phone_no !== undefined) patch.phone_no = changes.phone_no;
  try {
    await ctx.db.sequelize.transaction(async (transaction) => {
      const parent = await Parent.findOne({ where: { id, school_id: principal.schoolId }, transaction });
      if (!parent) throw notFound('Parent');
      await parent.update(patch, { transaction });
      if (patch.phone_no !== undefined) {
        await Student.update({ phone_no: patch.phone_no }, { where: { school_id: principal.schoolId, parent_id: id }, transaction });
      }
    });
  } catch (err) {
    if (err instanceof UniqueConstraintError && parentPhoneRace(err)) throw phoneTaken();
    throw err;
  }
  return getParent(ctx, principal, id);
}

/**
 * The office's Reset PIN of a parent: the PIN given, or 6 generated digits answered once (for the
 * office to hand over). Ends every session of the parent and lifts a lock-out on their phone.
 */
export async function resetParentPinById(ctx: AppContext, principal: Principal, id: number, pin?: string): Promise<{ parent_id: number; pin?: string }> {
  requireSchoolAdmin(principal);
  const chosen = pin === undefined ? undefined : parseInput(z.object({ pin: pinField() }), { pin }).pin;
  const newPin = chosen ?? generatePin();
  await setParentPin(ctx, principal.schoolId, id, newPin);
  return chosen === undefined ? { parent_id: id, pin: newPin } : { parent_id: id };
}
