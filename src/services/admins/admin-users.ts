import { z } from 'zod';
import type { Transaction } from 'sequelize';
import type { AppContext, Principal } from '../../context.js';
import { badRequest, conflict, fieldError, notFound } from '../../errors.js';
import { AdminUser, type AdminRole } from '../../models/index.js';
import { assertInSchool } from '../access/found.js';
import { requireRole } from '../access/guards.js';
import { hashSecretValue } from '../auth/passwords.js';
import { endUserSessions } from '../auth/sessions.js';
import { email, name, password } from '../schemas.js';
import { transactionWithRetry } from '../transactions.js';
import { parseInput } from '../validation.js';

/** The roles a school's admin user may have, in the order the console offers them; platform_admin is the command line's alone. */
export const schoolAdminRoles = ['admin', 'super_admin', 'it_contact'] as const;
export type SchoolAdminRole = (typeof schoolAdminRoles)[number];

const roleLabels: Record<SchoolAdminRole, string> = { admin: 'Admin', super_admin: 'Super admin', it_contact: 'IT contact' };
const notARole = `must be one of ${schoolAdminRoles.join(', ')}`;
const role = () => z.enum(schoolAdminRoles, { error: notARole });

/** The bodies of POST and PUT /web-app/admins, checked here so that every door refuses another role with a 400 naming `role`. */
export const newAdminInput = z.object({ name: name(), email: email(), password: password(), role: role() });
export const adminChangesInput = newAdminInput.partial();

/**
 * The roles the signed-in user may give an admin user, in the order the console's picker offers
 * them: all three to a super_admin and to the operator, none to anyone else (who manage no admin users).
 */
export function grantableRoles(principal: Principal): Array<{ role: SchoolAdminRole; label: string }> {
  if (principal.type !== 'admin' || (principal.role !== 'super_admin' && principal.role !== 'platform_admin')) return [];
  return schoolAdminRoles.map((r) => ({ role: r, label: roleLabels[r] }));
}

export interface AdminView {
  id: number;
  name: string;
  email: string;
  role: AdminRole;
  school_id: string | null;
  created_at: Date;
}

const view = (a: AdminUser): AdminView => ({ id: a.id, name: a.name, email: a.email, role: a.role, school_id: a.school_id, created_at: a.created_at });

async function assertEmailFree(email: string, exceptId?: number) {
  const other = await AdminUser.findOne({ where: { email }, attributes: ['id'] });
  if (other && other.id !== exceptId) throw conflict('An admin user with this email already exists', [{ field: 'email', message: 'already exists' }]);
}

async function findInSchool(principal: Principal, id: number): Promise<AdminUser> {
  const admin = await AdminUser.findOne({ where: { id, school_id: principal.schoolId } });
  if (!admin) throw notFound('Admin user');
  return admin;
}

/**
 * A school always keeps one super_admin: demoting or deleting the last one is refused. Counted with
 * the school's super_admins locked, in the transaction that demotes or deletes, so two super_admins
 * demoting each other at once leave one.
 */
async function assertKeepsSuperAdmin(admin: AdminUser, transaction: Transaction) {
  const supers = await AdminUser.findAll({ where: { school_id: admin.school_id, role: 'super_admin' }, attributes: ['id'], transaction, lock: transaction.LOCK.UPDATE });
  if (supers.some((a) => a.id === admin.id) && supers.length <= 1) throw conflict('A school must keep at least one super_admin');
}

export async function listAdmins(principal: Principal): Promise<AdminView[]> {
  requireRole(principal, 'super_admin');
  const rows = await AdminUser.findAll({ where: { school_id: principal.schoolId }, order: [['id', 'ASC']] });
  return rows.map(view);
}

export type NewAdmin = z.input<typeof newAdminInput>;

/**
 * Creates an admin user of a school, or a platform_admin (no school) for the operator. The API and
 * the console reach it through createAdmin; the command line calls it directly.
 */
export async function createAdminUser(input: { school_id: string | null; name: string; email: string; password: string; role: AdminRole }): Promise<AdminView> {
  if (input.school_id !== null && !(schoolAdminRoles as readonly string[]).includes(input.role)) throw fieldError('role', notARole);
  if (input.school_id === null && input.role !== 'platform_admin') throw badRequest('An admin user needs a school');
  if (input.password.length < 8 || input.password.length > 128) throw badRequest('password must be 8 to 128 characters', [{ field: 'password', message: 'must be 8 to 128 characters' }]);
  const email = input.email.trim().toLowerCase();
  await assertEmailFree(email);
  const admin = await AdminUser.create({
    school_id: input.school_id,
    name: input.name,
    email,
    password_hash: await hashSecretValue(input.password),
    role: input.role,
  });
  return view(admin);
}

export async function createAdmin(_ctx: AppContext, principal: Principal, raw: NewAdmin): Promise<AdminView> {
  requireRole(principal, 'super_admin');
  return createAdminUser({ ...parseInput(newAdminInput, raw), school_id: principal.schoolId });
}

export type AdminChanges = z.input<typeof adminChangesInput>;

/** An admin user of the caller's school (super_admin), else 404: a change of anyone else is refused before its body is judged. */
export async function assertAdminFound(principal: Principal, id: number): Promise<void> {
  requireRole(principal, 'super_admin');
  await assertInSchool(principal, AdminUser, 'Admin user', id);
}

/** A new password ends every session of that admin. */
export async function updateAdmin(ctx: AppContext, principal: Principal, id: number, raw: AdminChanges): Promise<AdminView> {
  requireRole(principal, 'super_admin');
  const changes = parseInput(adminChangesInput, raw);
  if (Object.values(changes).every((v) => v === undefined)) throw badRequest('Send at least one field to change');
  const admin = await findInSchool(principal, id);
  const patch: Partial<AdminUser> = {};
  if (changes.name !== undefined) patch.name = changes.name;
  if (changes.email !== undefined) {
    patch.email = changes.email.trim().toLowerCase();
    await assertEmailFree(patch.email, admin.id);
  }
  if (changes.role !== undefined && changes.role !== admin.role) patch.role = changes.role;
  if (changes.password !== undefined) patch.password_hash = await hashSecretValue(changes.password);
  await transactionWithRetry(ctx, async (transaction) => {
    if (patch.role !== undefined) await assertKeepsSuperAdmin(admin, transaction);
    await admin.update(patch, { transaction });
  });
  if (changes.password !== undefined) await endUserSessions(ctx, admin.school_id, 'admin', admin.id);
  return view(admin);
}

export async function deleteAdmin(ctx: AppContext, principal: Principal, id: number): Promise<void> {
  requireRole(principal, 'super_admin');
  const admin = await findInSchool(principal, id);
  await transactionWithRetry(ctx, async (transaction) => {
    await assertKeepsSuperAdmin(admin, transaction);
    await admin.destroy({ transaction });
  });
  await endUserSessions(ctx, admin.school_id, 'admin', admin.id);
}
