import { Op, UniqueConstraintError, col, fn, where as sqlWhere, type Transaction } from 'sequelize';
import { z } from 'zod';
import { name as nameField } from '../schemas.js';
import type { AppContext, Principal } from '../../context.js';
import { iso } from '../../db.js';
import { badRequest, conflict, fieldError, notFound } from '../../errors.js';
import { Designation, Staff } from '../../models/index.js';
import { assertInSchool } from '../access/found.js';
import { requireRole } from '../access/guards.js';
import { features, levels, type Rbac } from '../access/rbac.js';
import { parseInput } from '../validation.js';

/** `{feature: level}`: an unknown feature or level is a 400 naming the field. */
export const rbacInput = z
  .partialRecord(z.enum(features), z.enum(levels))
  .describe(`Feature -> level. Features: ${features.join(', ')}. Levels, each including the ones before: ${levels.join(' < ')}.`);

export const newDesignationInput = z.object({ name: nameField(), rbac: rbacInput.default({}) });
export const designationChangesInput = z.object({ name: nameField().optional(), rbac: rbacInput.optional() });
export type NewDesignation = z.input<typeof newDesignationInput>;
export type DesignationChanges = z.input<typeof designationChangesInput>;

/** The designation a staff member holds, by its name within the school; null when they hold none. */
export async function heldDesignation(schoolId: string, name: string | null, transaction?: Transaction): Promise<Designation | null> {
  if (!name) return null;
  return Designation.findOne({ where: { school_id: schoolId, name }, transaction });
}

export interface DesignationView {
  id: number;
  name: string;
  rbac: Rbac;
  created_at: string;
  updated_at: string;
}

const view = (d: Designation): DesignationView => ({ id: d.id, name: d.name, rbac: d.rbac ?? {}, created_at: iso(d.created_at)!, updated_at: iso(d.updated_at)! });

/**
 * The school's designation whose name matches regardless of case. MySQL compares names without case
 * and SQLite with it, so names are kept unique without case and staff store the designation's exact
 * spelling: the session check's join then finds it on both databases.
 */
export async function designationNamed(schoolId: string, name: string, transaction?: Transaction): Promise<Designation | null> {
  return Designation.findOne({
    where: { school_id: schoolId, [Op.and]: [sqlWhere(fn('LOWER', col('name')), name.trim().toLowerCase())] },
    transaction,
  });
}

/** Why a staff member's designation was refused, naming the value, the same through every door. */
export const notADesignation = (value: string) => `"${value}" is not one of the school's designations`;

/**
 * The designation a staff member is given: null (none: their own rbac only), or one of the school's
 * designations named in any case, answered in its own spelling; anything else is 400 naming `field`.
 * In a transaction the designation's row is read with a shared lock, so a rename or a delete of it
 * waits for the staff member's write and then sees it (the rename carries them along, the delete is
 * refused): nobody is left holding a name that no designation has.
 */
export async function designationFor(schoolId: string, value: string | null | undefined, transaction?: Transaction, field = 'designation'): Promise<string | null> {
  const name = value?.trim();
  if (!name) return null;
  const row = await Designation.findOne({
    where: { school_id: schoolId, [Op.and]: [sqlWhere(fn('LOWER', col('name')), name.toLowerCase())] },
    attributes: ['name'],
    transaction,
    ...(transaction ? { lock: transaction.LOCK.SHARE } : {}),
  });
  if (!row) throw fieldError(field, notADesignation(name));
  return row.name;
}

/**
 * Staff whose designation reads `name` in any case: they hold that designation. Matched without case
 * so both databases agree (MySQL's collation ignores case, SQLite's does not).
 */
const holdersOf = (schoolId: string, name: string) => ({
  school_id: schoolId,
  [Op.and]: [sqlWhere(fn('LOWER', col('designation')), name.toLowerCase())],
});

async function assertNameFree(schoolId: string, name: string, exceptId: number | undefined, transaction: Transaction) {
  const other = await designationNamed(schoolId, name, transaction);
  if (other && other.id !== exceptId) throw duplicateName();
}

const duplicateName = () => conflict('A designation with this name already exists', [{ field: 'name', message: 'already exists' }]);

/** In a transaction the row is locked first: a staff member given it meanwhile is counted or carried along (see designationFor). */
async function findInSchool(principal: Principal, id: number, transaction?: Transaction): Promise<Designation> {
  const row = await Designation.findOne({ where: { id, school_id: principal.schoolId }, transaction, ...(transaction ? { lock: transaction.LOCK.UPDATE } : {}) });
  if (!row) throw notFound('Designation');
  return row;
}

/** Any admin of the school may read the designations; only a super_admin changes them. */
export async function listDesignations(principal: Principal): Promise<DesignationView[]> {
  requireRole(principal, 'super_admin', 'admin', 'it_contact');
  const rows = await Designation.findAll({ where: { school_id: principal.schoolId }, order: [['name', 'ASC'], ['id', 'ASC']] });
  return rows.map(view);
}

export async function getDesignation(principal: Principal, id: number): Promise<DesignationView> {
  requireRole(principal, 'super_admin', 'admin', 'it_contact');
  return view(await findInSchool(principal, id));
}

export async function createDesignation(ctx: AppContext, principal: Principal, input: NewDesignation): Promise<DesignationView> {
  requireRole(principal, 'super_admin');
  const { name, rbac } = parseInput(newDesignationInput, input);
  try {
    return await ctx.db.sequelize.transaction(async (transaction) => {
      await assertNameFree(principal.schoolId, name, undefined, transaction);
      const row = await Designation.create({ school_id: principal.schoolId, name, rbac }, { transaction });
      return view(row);
    });
  } catch (err) {
    throw err instanceof UniqueConstraintError ? duplicateName() : err;
  }
}

/** A designation of the caller's school (super_admin), else 404: a change of anyone else's is refused before its body is judged. */
export async function assertDesignationFound(principal: Principal, id: number): Promise<void> {
  requireRole(principal, 'super_admin');
  await assertInSchool(principal, Designation, 'Designation', id);
}

/**
 * A rename carries the staff holding the designation along in the same transaction: staff refer to
 * it by name, and would otherwise silently lose its permissions.
 */
export async function updateDesignation(ctx: AppContext, principal: Principal, id: number, changes: DesignationChanges): Promise<DesignationView> {
  requireRole(principal, 'super_admin');
  const { name, rbac } = parseInput(designationChangesInput, changes);
  if (name === undefined && rbac === undefined) throw badRequest('Send at least one field to change');
  try {
    return await ctx.db.sequelize.transaction(async (transaction) => {
      const row = await findInSchool(principal, id, transaction);
      const oldName = row.name;
      if (name !== undefined && name !== oldName) {
        await assertNameFree(principal.schoolId, name, row.id, transaction);
        row.name = name;
      }
      if (rbac !== undefined) row.rbac = rbac;
      await row.save({ transaction });
      if (row.name !== oldName) {
        await Staff.update({ designation: row.name }, { where: holdersOf(principal.schoolId, oldName), transaction });
      }
      return view(row);
    });
  } catch (err) {
    throw err instanceof UniqueConstraintError ? duplicateName() : err;
  }
}

/** Refused (409) while staff hold the designation, so no one loses their permissions by surprise. */
export async function deleteDesignation(ctx: AppContext, principal: Principal, id: number): Promise<void> {
  requireRole(principal, 'super_admin');
  await ctx.db.sequelize.transaction(async (transaction) => {
    const row = await findInSchool(principal, id, transaction);
    const holders = await Staff.count({ where: holdersOf(principal.schoolId, row.name), transaction });
    if (holders > 0) {
      throw conflict(`${holders} staff member(s) hold this designation: give them another one first`, [{ field: 'id', message: 'is in use' }]);
    }
    await row.destroy({ transaction });
  });
}
