import { QueryTypes, UniqueConstraintError, type Transaction } from 'sequelize';
import { z } from 'zod';
import { email, id as idField, name, pageQuery, phone, pin } from '../schemas.js';
import type { AppContext, Principal } from '../../context.js';
import { iso } from '../../db.js';
import { AppError, badRequest, conflict, notFound } from '../../errors.js';
import { Address, Staff, StaffStudent, Student } from '../../models/index.js';
import { assertInSchool } from '../access/found.js';
import { requireSchoolAdmin } from '../access/guards.js';
import { effectiveRbac, permissionSources, type Feature, type Level, type PermissionSource, type Rbac } from '../access/rbac.js';
import { assignedStudentIds } from '../access/scope.js';
import { clearFailures } from '../auth/lockout.js';
import { hashSecretValue } from '../auth/passwords.js';
import { endUserSessions } from '../auth/sessions.js';
import { offsetOf, paginationOf } from '../pagination.js';
import { parseInput } from '../validation.js';
import { emitWebhookEvent, eventData } from '../webhooks/events.js';
import { designationFor, heldDesignation, rbacInput } from './designations.js';
import { recordAudit } from '../audit/audit.js';

export const staffStatuses = ['active', 'archived'] as const;
export type StaffStatus = (typeof staffStatuses)[number];

/** Stored as a number: 1 active, 0 archived (access revoked). */
const stored = (status: StaffStatus) => (status === 'active' ? 1 : 0);
const statusOf = (value: unknown): StaffStatus => (Number(value) === 1 ? 'active' : 'archived');

/*
 * The inputs, checked here so the API, the console and the command line refuse the same things with
 * the same 400; the REST routes declare these same schemas.
 */
export const addressInput = z.object({
  address_type: z.string().trim().min(1).max(32).default('current'),
  address: z.string().trim().min(1).max(500),
  city: z.string().trim().max(120).nullable().optional(),
  pincode: z.coerce.number().int().min(1).max(99_999_999).nullable().optional(),
});

const staffFields = {
  name: name(),
  designation: name().nullable().optional().describe("The name of one of the school's designations (matched without case, stored in its spelling; another name: 400), or null for none; its rbac is the base of the staff member's"),
  phone_no: phone(),
  email: email().nullable().optional(),
  rbac: rbacInput.nullable().optional().describe("The staff member's own rbac, overlaid on the designation's"),
  addresses: z.array(addressInput).max(10).optional(),
};

export const newStaffInput = z.object({ ...staffFields, pin: pin().optional().describe('Without one the staff member cannot log in until reset-pin') });
export const staffChangesInput = z.object({
  name: staffFields.name.optional(),
  designation: staffFields.designation,
  phone_no: staffFields.phone_no.optional(),
  email: staffFields.email,
  rbac: staffFields.rbac,
  addresses: staffFields.addresses.describe('Replaces every address of the staff member'),
  status: z.enum(staffStatuses).optional().describe('archived ends every session of the staff member, as the archive action does'),
});
export const staffListInput = z.object({
  search: z.string().trim().max(120).optional(),
  status: z.enum([...staffStatuses, 'all']).default('active'),
  ...pageQuery(),
});
export const studentIdsInput = z.object({ student_ids: z.array(idField()).min(1).max(1000) });
const pinInput = z.object({ pin: pin() });

export type AddressInput = z.output<typeof addressInput>;
export type NewStaff = z.input<typeof newStaffInput>;
export type StaffChanges = z.input<typeof staffChangesInput>;
export type StaffListQuery = z.input<typeof staffListInput>;

export interface AddressView {
  id: number;
  address_type: string;
  address: string;
  city: string | null;
  pincode: number | null;
}

export interface StaffRow {
  id: number;
  name: string;
  designation: string | null;
  phone_no: string;
  email: string | null;
  status: StaffStatus;
}

export interface StaffDetail extends StaffRow {
  school_id: string;
  /** The staff member's own rbac, overlaid on the designation's. */
  rbac: Rbac;
  /** What the staff member may do: the designation's rbac overlaid with their own, every feature named. */
  effective_rbac: Record<Feature, Level>;
  /** effective_rbac feature by feature, with where each level comes from: their own rbac or their designation's. */
  permissions: PermissionSource[];
  addresses: AddressView[];
  student_ids: number[];
  created_at: string;
  updated_at: string;
}

const likeEscape = (s: string) => s.replace(/[!%_]/g, (c) => `!${c}`);

/** A page of the school's staff by name, with the total for the page links. */
export async function listStaff(ctx: AppContext, principal: Principal, input: StaffListQuery) {
  requireSchoolAdmin(principal);
  const query = parseInput(staffListInput, input);
  const clauses = ['school_id = :school'];
  const params: Record<string, unknown> = { school: principal.schoolId };
  if (query.status !== 'all') {
    clauses.push('status = :status');
    params.status = stored(query.status);
  }
  const search = query.search;
  if (search) {
    // Phones are stored without separators, so "98765 43210" still finds 9876543210.
    const digits = search.replace(/[\s().-]/g, '');
    params.name = `%${likeEscape(search.toLowerCase())}%`;
    params.phone = `%${digits}%`;
    clauses.push(/^\+?\d+$/.test(digits) ? "(LOWER(name) LIKE :name ESCAPE '!' OR phone_no LIKE :phone)" : "LOWER(name) LIKE :name ESCAPE '!'");
  }
  const where = clauses.join(' AND ');
  // MySQL's collation already orders names without case; SQLite needs to be told.
  const order = ctx.db.dialect === 'sqlite' ? 'name COLLATE NOCASE, id' : 'name, id';
  const [rows, counted] = await Promise.all([
    ctx.db.select<Record<string, unknown>>(
      `SELECT id, name, designation, phone_no, email, status FROM staff WHERE ${where} ORDER BY ${order} LIMIT :limit OFFSET :offset`,
      { ...params, limit: query.limit, offset: offsetOf(query) },
    ),
    ctx.db.select<{ total: number | string }>(`SELECT COUNT(*) AS total FROM staff WHERE ${where}`, params),
  ]);
  const staff: StaffRow[] = rows.map((r) => ({
    id: Number(r.id),
    name: r.name as string,
    designation: (r.designation as string | null) ?? null,
    phone_no: r.phone_no as string,
    email: (r.email as string | null) ?? null,
    status: statusOf(r.status),
  }));
  return { staff, pagination: paginationOf(Number(counted[0]?.total ?? 0), query) };
}

async function findStaff(principal: Principal, id: number, transaction?: Transaction): Promise<Staff> {
  const staff = await Staff.findOne({ where: { id, school_id: principal.schoolId }, transaction });
  if (!staff) throw notFound('Staff member');
  return staff;
}

/** A staff member of the caller's school, else 404: an update of anyone else is refused before its body is judged. */
export async function assertStaffFound(principal: Principal, id: number): Promise<void> {
  requireSchoolAdmin(principal);
  await assertInSchool(principal, Staff, 'Staff member', id);
}

export async function getStaff(_ctx: AppContext, principal: Principal, id: number): Promise<StaffDetail> {
  requireSchoolAdmin(principal);
  return staffDetail(await findStaff(principal, id));
}

/** A staff member as the API shows them, read in the caller's transaction when there is one. */
async function staffDetail(staff: Staff, transaction?: Transaction): Promise<StaffDetail> {
  const [designation, addresses, studentIds] = await Promise.all([
    heldDesignation(staff.school_id, staff.designation, transaction),
    Address.findAll({ where: { school_id: staff.school_id, owner_type: 'staff', owner_id: staff.id }, order: [['id', 'ASC']], raw: true, transaction }),
    assignedStudentIds(staff.school_id, staff.id, transaction),
  ]);
  return {
    id: staff.id,
    school_id: staff.school_id,
    name: staff.name,
    designation: staff.designation,
    phone_no: staff.phone_no,
    email: staff.email,
    status: statusOf(staff.status),
    rbac: staff.rbac ?? {},
    effective_rbac: effectiveRbac(designation?.rbac, staff.rbac),
    permissions: permissionSources(designation, staff.rbac),
    addresses: addresses.map((a) => ({
      id: a.id, address_type: a.address_type, address: a.address, city: a.city ?? null, pincode: a.pincode === null ? null : Number(a.pincode),
    })),
    student_ids: studentIds.sort((a, b) => a - b),
    created_at: iso(staff.created_at)!,
    updated_at: iso(staff.updated_at)!,
  };
}

const ownRbac = (rbac: Rbac | null | undefined): Rbac | null => (rbac && Object.keys(rbac).length > 0 ? rbac : null);

/** What a staff member may do, feature by feature, and whether each level is their own or their designation's (the console's staff page). */
export async function staffPermissions(_ctx: AppContext, principal: Principal, id: number): Promise<PermissionSource[]> {
  requireSchoolAdmin(principal);
  const staff = await findStaff(principal, id);
  return permissionSources(await heldDesignation(principal.schoolId, staff.designation), staff.rbac);
}

/** The unique keys (school_id + phone_no, school_id + email) make duplicates a 409 even under concurrent requests. */
function duplicateOr(err: unknown): unknown {
  if (!(err instanceof UniqueConstraintError)) return err;
  const text = `${Object.keys(err.fields ?? {}).join(' ')} ${err.parent?.message ?? ''} ${err.message}`;
  const field = /phone/i.test(text) ? 'phone_no' : /email/i.test(text) ? 'email' : null;
  if (field === 'phone_no') return conflict('A staff member with this phone number already exists in this school', [{ field, message: 'already exists' }]);
  if (field === 'email') return conflict('A staff member with this email already exists in this school', [{ field, message: 'already exists' }]);
  return conflict('This staff member already exists');
}

async function replaceAddresses(schoolId: string, staffId: number, addresses: AddressInput[], transaction: Transaction) {
  await Address.destroy({ where: { school_id: schoolId, owner_type: 'staff', owner_id: staffId }, transaction });
  if (addresses.length === 0) return;
  await Address.bulkCreate(
    addresses.map((a) => ({
      school_id: schoolId, owner_type: 'staff' as const, owner_id: staffId, address_type: a.address_type ?? 'current',
      address: a.address, city: a.city ?? null, pincode: a.pincode ?? null,
    })),
    { transaction },
  );
}

/** A staff member with their addresses, all or nothing; a duplicate phone or email within the school is 409. */
export async function createStaff(ctx: AppContext, principal: Principal, raw: NewStaff): Promise<{ id: number }> {
  requireSchoolAdmin(principal);
  const input = parseInput(newStaffInput, raw);
  const pinHash = input.pin !== undefined ? await hashSecretValue(input.pin) : null;
  try {
    return await ctx.db.sequelize.transaction(async (transaction) => {
      const designation = await designationFor(principal.schoolId, input.designation, transaction);
      const staff = await Staff.create(
        {
          school_id: principal.schoolId, name: input.name, designation, phone_no: input.phone_no, email: input.email ?? null,
          pin_hash: pinHash, rbac: ownRbac(input.rbac), status: 1,
        },
        { transaction },
      );
      await replaceAddresses(principal.schoolId, staff.id, input.addresses ?? [], transaction);
      return { id: staff.id };
    });
  } catch (err) {
    throw duplicateOr(err);
  }
}

/**
 * Changes the fields sent; `addresses` replaces the whole list and `rbac` the staff member's own
 * rbac. Setting `status` to archived ends their sessions as the archive action does. Another
 * school's or an unknown staff member is 404 before the changes are judged.
 */
export async function updateStaff(ctx: AppContext, principal: Principal, id: number, raw: StaffChanges): Promise<StaffDetail> {
  await assertStaffFound(principal, id);
  const changes = parseInput(staffChangesInput, raw);
  if (Object.values(changes).every((v) => v === undefined)) throw badRequest('Send at least one field to change');
  const patch: Partial<Pick<Staff, 'name' | 'designation' | 'phone_no' | 'email' | 'rbac' | 'status'>> = {};
  if (changes.name !== undefined) patch.name = changes.name;
  if (changes.phone_no !== undefined) patch.phone_no = changes.phone_no;
  if (changes.email !== undefined) patch.email = changes.email;
  if (changes.rbac !== undefined) patch.rbac = ownRbac(changes.rbac);
  if (changes.status !== undefined) patch.status = stored(changes.status);
  try {
    await ctx.db.sequelize.transaction(async (transaction) => {
      if (changes.designation !== undefined) patch.designation = await designationFor(principal.schoolId, changes.designation, transaction);
      // Only the change that archives an active member is the event; archiving again is none.
      const [archives] = changes.status === 'archived'
        ? await Staff.update({ status: stored('archived') }, { where: { id, school_id: principal.schoolId, status: stored('active') }, transaction })
        : [0];
      const [updated] = await Staff.update(patch, { where: { id, school_id: principal.schoolId }, transaction });
      if (updated === 0) throw notFound('Staff member');
      if (archives === 1) await staffArchived(principal.schoolId, id, transaction);
      if (changes.addresses !== undefined) await replaceAddresses(principal.schoolId, id, changes.addresses, transaction);
    });
  } catch (err) {
    throw duplicateOr(err);
  }
  if (changes.status === 'archived') await endUserSessions(ctx, principal.schoolId, 'staff', id);
  return getStaff(ctx, principal, id);
}

/** The school's webhooks hear of an archived staff member in the transaction that archived them. */
async function staffArchived(schoolId: string, id: number, transaction: Transaction): Promise<void> {
  const staff = await Staff.findOne({ where: { id, school_id: schoolId }, transaction });
  await emitWebhookEvent(schoolId, 'staff.archived', eventData('staff', id, await staffDetail(staff!, transaction)), transaction);
}

/**
 * active -> archived -> active, in one conditional statement. Archiving ends every session of the
 * staff member; the session check already refuses them from the moment the status flips.
 */
export async function toggleStaffArchive(ctx: AppContext, principal: Principal, id: number): Promise<{ status: StaffStatus }> {
  requireSchoolAdmin(principal);
  const status = await ctx.db.sequelize.transaction(async (transaction) => {
    const replacements = { id, school: principal.schoolId, now: new Date() };
    await ctx.db.sequelize.query(
      'UPDATE staff SET status = CASE WHEN status = 1 THEN 0 ELSE 1 END, updated_at = :now WHERE id = :id AND school_id = :school',
      { replacements, transaction, type: QueryTypes.UPDATE },
    );
    const [row] = await ctx.db.sequelize.query<{ status: number }>('SELECT status FROM staff WHERE id = :id AND school_id = :school', {
      replacements, transaction, type: QueryTypes.SELECT,
    });
    if (!row) throw notFound('Staff member');
    const archived = Number(row.status) === 0;
    await recordAudit([{ schoolId: principal.schoolId, action: archived ? 'staff.archive' : 'staff.restore', entityType: 'staff', entityId: id, changes: { status: archived ? [1, 0] : [0, 1] } }], transaction);
    if (archived) await staffArchived(principal.schoolId, id, transaction);
    return statusOf(row.status);
  });
  if (status === 'archived') await endUserSessions(ctx, principal.schoolId, 'staff', id);
  return { status };
}

/** A new PIN ends every session of the staff member and lifts a login lock-out on their phone. */
export async function resetStaffPin(ctx: AppContext, principal: Principal, id: number, newPin: string): Promise<void> {
  requireSchoolAdmin(principal);
  const { pin: checked } = parseInput(pinInput, { pin: newPin });
  const staff = await findStaff(principal, id);
  await staff.update({ pin_hash: await hashSecretValue(checked) });
  await endUserSessions(ctx, principal.schoolId, 'staff', id);
  await clearFailures(ctx, { schoolId: principal.schoolId, account: `staff:${staff.phone_no}` });
}

const uniqueIds = (studentIds: number[]) => [...new Set(parseInput(studentIdsInput, { student_ids: studentIds }).student_ids)];

/** Every id must be a student of the caller's school; one that is not fails the whole request with 404. */
async function assertStaffAndStudents(principal: Principal, staffId: number, ids: number[], transaction: Transaction) {
  await findStaff(principal, staffId, transaction);
  const found = await Student.count({ where: { school_id: principal.schoolId, id: ids }, transaction });
  if (found !== ids.length) throw new AppError('NOT_FOUND', 'Student not found', [{ field: 'student_ids', message: 'names a student that does not exist' }]);
}

/** Assigns students to a staff member; students already assigned stay as they are. Returns every assigned id. */
export async function assignStudents(ctx: AppContext, principal: Principal, id: number, studentIds: number[]): Promise<{ student_ids: number[] }> {
  requireSchoolAdmin(principal);
  const ids = uniqueIds(studentIds);
  return ctx.db.sequelize.transaction(async (transaction) => {
    await assertStaffAndStudents(principal, id, ids, transaction);
    await StaffStudent.bulkCreate(
      ids.map((student_id) => ({ school_id: principal.schoolId, staff_id: id, student_id })),
      { ignoreDuplicates: true, transaction },
    );
    return { student_ids: (await assignedStudentIds(principal.schoolId, id, transaction)).sort((a, b) => a - b) };
  });
}

/** Removes assignments; a student not assigned is no error. Returns every id still assigned. */
export async function unassignStudents(ctx: AppContext, principal: Principal, id: number, studentIds: number[]): Promise<{ student_ids: number[] }> {
  requireSchoolAdmin(principal);
  const ids = uniqueIds(studentIds);
  return ctx.db.sequelize.transaction(async (transaction) => {
    await assertStaffAndStudents(principal, id, ids, transaction);
    await StaffStudent.destroy({ where: { school_id: principal.schoolId, staff_id: id, student_id: ids }, transaction });
    return { student_ids: (await assignedStudentIds(principal.schoolId, id, transaction)).sort((a, b) => a - b) };
  });
}
