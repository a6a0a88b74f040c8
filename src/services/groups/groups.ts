import { Op, col, fn, where as sqlWhere, type Transaction } from 'sequelize';
import { z } from 'zod';
import { id as idField, name as nameField } from '../schemas.js';
import type { AppContext, Principal } from '../../context.js';
import { AppError, conflict, notFound } from '../../errors.js';
import { Group, GroupMember, Student } from '../../models/index.js';
import { assertInSchool } from '../access/found.js';
import { requireSchoolAdmin } from '../access/guards.js';
import { parseInput } from '../validation.js';

const studentIds = z.array(idField()).max(5000);

export const newGroupInput = z.object({
  name: nameField(),
  description: z.string().trim().max(10_000).nullable().optional(),
  student_ids: studentIds.optional().describe("Students of the school to put in the group"),
});
export const groupChangesInput = z.object({ name: nameField().optional(), description: z.string().trim().max(10_000).nullable().optional() });
export const groupMembersInput = z.object({ student_ids: studentIds.min(1) });
export type NewGroup = z.input<typeof newGroupInput>;
export type GroupChanges = z.input<typeof groupChangesInput>;

export interface GroupView {
  id: number;
  name: string;
  description: string | null;
  member_count: number;
}

export interface GroupDetail extends GroupView {
  members: Array<{ id: number; student_full_name: string; roll_no: string; grade: string }>;
}

/** A group of the school that is not deleted, else 404 (another school's never confirmed). */
async function groupOf(schoolId: string, groupId: number, transaction?: Transaction): Promise<Group> {
  const group = await Group.findOne({ where: { id: groupId, school_id: schoolId, deleted_key: 0 }, transaction });
  if (!group) throw notFound('Group');
  return group;
}

/** Names are unique in the school regardless of case (MySQL compares without case, SQLite with it). */
async function assertNameFree(schoolId: string, name: string, exceptId: number | undefined, transaction: Transaction) {
  const taken = await Group.findOne({
    where: { school_id: schoolId, deleted_key: 0, [Op.and]: [sqlWhere(fn('LOWER', col('name')), name.toLowerCase())], ...(exceptId ? { id: { [Op.ne]: exceptId } } : {}) },
    attributes: ['id'], transaction,
  });
  if (taken) throw conflict('A group with this name already exists', [{ field: 'name', message: 'already exists' }]);
}

/** Every id names a student of the school, else 404 for the whole request (nothing changes). */
async function assertStudents(schoolId: string, ids: number[], transaction: Transaction): Promise<void> {
  if (ids.length === 0) return;
  const found = await Student.count({ where: { school_id: schoolId, id: { [Op.in]: ids } }, transaction });
  if (found !== ids.length) throw new AppError('NOT_FOUND', 'Student not found', [{ field: 'student_ids', message: 'names a student that does not exist' }]);
}

/** Adds memberships (already there: no change), in the caller's transaction. */
export async function addMemberships(schoolId: string, pairs: Array<{ group_id: number; student_id: number }>, transaction?: Transaction): Promise<void> {
  if (pairs.length) await GroupMember.bulkCreate(pairs.map((p) => ({ school_id: schoolId, ...p })), { ignoreDuplicates: true, transaction });
}

async function counts(schoolId: string, groupIds: number[], transaction?: Transaction): Promise<Map<number, number>> {
  if (groupIds.length === 0) return new Map();
  const rows = (await GroupMember.findAll({
    where: { school_id: schoolId, group_id: { [Op.in]: groupIds } },
    attributes: ['group_id', [fn('COUNT', col('id')), 'n']], group: ['group_id'], raw: true, transaction,
  })) as unknown as Array<{ group_id: number; n: number | string }>;
  return new Map(rows.map((r) => [r.group_id, Number(r.n)]));
}

const view = (g: Group | { id: number; name: string; description: string | null }, n: number): GroupView => ({ id: g.id, name: g.name, description: g.description ?? null, member_count: n });

/** Admins manage groups; staff read them (to address a post to one). */
function requireReader(principal: Principal): void {
  if (principal.type === 'staff') return;
  requireSchoolAdmin(principal);
}

export async function listGroups(principal: Principal): Promise<GroupView[]> {
  requireReader(principal);
  const groups = await Group.findAll({ where: { school_id: principal.schoolId, deleted_key: 0 }, order: [['name', 'ASC'], ['id', 'ASC']], raw: true });
  const n = await counts(principal.schoolId, groups.map((g) => g.id));
  return groups.map((g) => view(g, n.get(g.id) ?? 0));
}

export async function getGroup(principal: Principal, groupId: number): Promise<GroupDetail> {
  requireReader(principal);
  const group = await groupOf(principal.schoolId, groupId);
  const members = await GroupMember.findAll({ where: { school_id: principal.schoolId, group_id: group.id }, attributes: ['student_id'], raw: true });
  const students = members.length
    ? await Student.findAll({
        where: { school_id: principal.schoolId, id: { [Op.in]: members.map((m) => m.student_id) } },
        attributes: ['id', 'student_full_name', 'roll_no', 'grade'], order: [['student_full_name', 'ASC'], ['id', 'ASC']], raw: true,
      })
    : [];
  return { ...view(group, members.length), members: students };
}

export async function createGroup(ctx: AppContext, principal: Principal, input: NewGroup): Promise<{ id: number }> {
  requireSchoolAdmin(principal);
  const data = parseInput(newGroupInput, input);
  const ids = [...new Set(data.student_ids ?? [])];
  return ctx.db.sequelize.transaction(async (transaction) => {
    await assertNameFree(principal.schoolId, data.name, undefined, transaction);
    await assertStudents(principal.schoolId, ids, transaction);
    const group = await Group.create({ school_id: principal.schoolId, name: data.name, description: data.description ?? null }, { transaction });
    await addMemberships(principal.schoolId, ids.map((student_id) => ({ group_id: group.id, student_id })), transaction);
    return { id: group.id };
  });
}

/** A group of the caller's school (super_admin, admin), else 404: a change of another school's is refused before its body is judged. */
export async function assertGroupFound(principal: Principal, groupId: number): Promise<void> {
  requireSchoolAdmin(principal);
  await assertInSchool(principal, Group, 'Group', groupId, { deleted_key: 0 });
}

export async function updateGroup(ctx: AppContext, principal: Principal, groupId: number, input: GroupChanges): Promise<GroupView> {
  requireSchoolAdmin(principal);
  const data = parseInput(groupChangesInput, input);
  return ctx.db.sequelize.transaction(async (transaction) => {
    const group = await groupOf(principal.schoolId, groupId, transaction);
    if (data.name !== undefined && data.name !== group.name) await assertNameFree(principal.schoolId, data.name, group.id, transaction);
    await group.update({ ...(data.name !== undefined ? { name: data.name } : {}), ...(data.description !== undefined ? { description: data.description } : {}) }, { transaction });
    return view(group, (await counts(principal.schoolId, [group.id], transaction)).get(group.id) ?? 0);
  });
}

/** Soft delete: the group leaves every list and audience picker; posts already addressed to it stay as they were. */
export async function deleteGroup(ctx: AppContext, principal: Principal, groupId: number): Promise<void> {
  requireSchoolAdmin(principal);
  await ctx.db.sequelize.transaction(async (transaction) => {
    const group = await groupOf(principal.schoolId, groupId, transaction);
    await group.update({ deleted_key: group.id }, { transaction });
  });
}

export async function addGroupMembers(ctx: AppContext, principal: Principal, groupId: number, input: z.input<typeof groupMembersInput>): Promise<GroupView> {
  requireSchoolAdmin(principal);
  const ids = [...new Set(parseInput(groupMembersInput, input).student_ids)];
  return ctx.db.sequelize.transaction(async (transaction) => {
    const group = await groupOf(principal.schoolId, groupId, transaction);
    await assertStudents(principal.schoolId, ids, transaction);
    await addMemberships(principal.schoolId, ids.map((student_id) => ({ group_id: group.id, student_id })), transaction);
    return view(group, (await counts(principal.schoolId, [group.id], transaction)).get(group.id) ?? 0);
  });
}

export async function removeGroupMembers(ctx: AppContext, principal: Principal, groupId: number, input: z.input<typeof groupMembersInput>): Promise<GroupView> {
  requireSchoolAdmin(principal);
  const ids = [...new Set(parseInput(groupMembersInput, input).student_ids)];
  return ctx.db.sequelize.transaction(async (transaction) => {
    const group = await groupOf(principal.schoolId, groupId, transaction);
    await GroupMember.destroy({ where: { school_id: principal.schoolId, group_id: group.id, student_id: { [Op.in]: ids } }, transaction });
    return view(group, (await counts(principal.schoolId, [group.id], transaction)).get(group.id) ?? 0);
  });
}

/** Takes one membership out (the console's delete of a member row). */
export async function removeMember(ctx: AppContext, principal: Principal, memberId: number): Promise<void> {
  requireSchoolAdmin(principal);
  const member = await GroupMember.findOne({ where: { id: memberId, school_id: principal.schoolId }, attributes: ['group_id', 'student_id'], raw: true });
  if (!member) throw notFound('Group member');
  await removeGroupMembers(ctx, principal, member.group_id, { student_ids: [member.student_id] });
}

/** Each name once whatever its case, spelled as it first came: one group per name. */
export const distinctNames = (names: string[]): string[] => [...new Map([...names].reverse().map((n) => [n.toLowerCase(), n])).values()].reverse();

/**
 * The groups of these names, made when new (the command line's `group add-members`, roster imports),
 * in the caller's transaction: name -> id, and the names of the groups it made.
 */
export async function ensureGroups(schoolId: string, names: string[], transaction?: Transaction): Promise<{ ids: Map<string, number>; created: string[] }> {
  const wanted = [...new Set(names)];
  const ids = new Map<string, number>();
  if (wanted.length === 0) return { ids, created: [] };
  const find = async () => {
    const byName = new Map((await Group.findAll({ where: { school_id: schoolId, deleted_key: 0 }, attributes: ['id', 'name'], raw: true, transaction })).map((g) => [g.name.toLowerCase(), g.id]));
    for (const n of wanted) if (byName.has(n.toLowerCase())) ids.set(n, byName.get(n.toLowerCase())!);
  };
  await find();
  const missing = distinctNames(wanted.filter((n) => !ids.has(n)));
  if (missing.length) {
    await Group.bulkCreate(missing.map((name) => ({ school_id: schoolId, name })), { ignoreDuplicates: true, transaction });
    await find();
  }
  return { ids, created: missing };
}

/** Adds students (by roll number) to a group by name, making it when new: the operator's `group add-members`. */
export async function addMembersByRollNo(
  ctx: AppContext, principal: Principal, groupName: string, rollNos: string[],
): Promise<{ group_id: number; created: boolean; added: number; member_count: number }> {
  requireSchoolAdmin(principal);
  const { group: name, roll_nos: rolls } = parseInput(
    z.object({ group: nameField(), roll_nos: z.array(z.string().trim().min(1).max(32)).min(1).max(5000) }),
    { group: groupName, roll_nos: [...new Set(rollNos.map((r) => r.trim()).filter(Boolean))] },
  );
  return ctx.db.sequelize.transaction(async (transaction) => {
    const students = await Student.findAll({ where: { school_id: principal.schoolId, roll_no: { [Op.in]: rolls } }, attributes: ['id', 'roll_no'], raw: true, transaction });
    const unknown = rolls.filter((r) => !students.some((s) => s.roll_no === r));
    if (unknown.length) throw new AppError('NOT_FOUND', `No student has the roll number ${unknown.join(', ')}`, [{ field: 'roll_nos', message: `unknown: ${unknown.join(', ')}` }]);
    const { ids, created: made } = await ensureGroups(principal.schoolId, [name], transaction);
    const groupId = ids.get(name)!;
    const created = made.length > 0;
    const before = (await counts(principal.schoolId, [groupId], transaction)).get(groupId) ?? 0;
    await addMemberships(principal.schoolId, students.map((s) => ({ group_id: groupId, student_id: s.id })), transaction);
    const after = (await counts(principal.schoolId, [groupId], transaction)).get(groupId) ?? 0;
    return { group_id: groupId, created, added: after - before, member_count: after };
  });
}
