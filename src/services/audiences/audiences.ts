import { Op, QueryTypes, type Transaction } from 'sequelize';
import { z } from 'zod';
import { id } from '../schemas.js';
import type { AppContext, Principal } from '../../context.js';
import { badRequest, forbidden, type FieldError } from '../../errors.js';
import { AudienceTarget, Grade, Group, Student } from '../../models/index.js';
import { hasPermission } from '../access/guards.js';
import { assertAssigned } from '../access/scope.js';

/** The items an audience belongs to, named as the engagement routes name them. */
export type AudienceEntity = 'activity' | 'noticeboard';

export const audienceInput = z
  .object({
    grades: z.array(z.string().trim().min(1).max(60)).max(50).optional().describe("Names of the school's grades"),
    group_ids: z.array(id()).max(100).optional().describe("Ids of the school's groups"),
    student_ids: z.array(id()).max(2000).optional().describe("Ids of the school's students"),
  })
  .nullable()
  .describe('Who the item is for: any union of grades, groups and named students. Absent, null or all empty: the whole school.');
export type AudienceInput = z.input<typeof audienceInput>;

export interface Audience {
  grades: string[];
  group_ids: number[];
  student_ids: number[];
}

/** The audience with its repeats gone; null for the whole school. */
export function normalizeAudience(input: z.output<typeof audienceInput> | undefined): Audience | null {
  const a = { grades: [...new Set(input?.grades ?? [])], group_ids: [...new Set(input?.group_ids ?? [])], student_ids: [...new Set(input?.student_ids ?? [])] };
  return a.grades.length || a.group_ids.length || a.student_ids.length ? a : null;
}

/**
 * Every grade, group and student of an audience is the caller's school's: each unknown or another
 * school's one is named, field and value, in one 400. Staff, whatever they post (an activity or a
 * notice), need `activities.create` to address grades and groups, and may name only students
 * assigned to them unless they hold `activities.manage` (403).
 */
export async function checkAudience(principal: Principal, audience: Audience | null, transaction?: Transaction): Promise<void> {
  if (!audience) return;
  const school = principal.schoolId;
  const problems: FieldError[] = [];
  if (audience.grades.length) {
    const known = new Set((await Grade.findAll({ where: { school_id: school, name: { [Op.in]: audience.grades } }, attributes: ['name'], raw: true, transaction })).map((g) => g.name));
    const unknown = audience.grades.filter((g) => !known.has(g));
    if (unknown.length) problems.push({ field: 'audience.grades', message: `${unknown.map((g) => `"${g}"`).join(', ')} ${unknown.length > 1 ? 'are not among' : 'is not one of'} the school's grades` });
  }
  if (audience.group_ids.length) {
    const known = new Set((await Group.findAll({ where: { school_id: school, deleted_key: 0, id: { [Op.in]: audience.group_ids } }, attributes: ['id'], raw: true, transaction })).map((g) => g.id));
    const unknown = audience.group_ids.filter((g) => !known.has(g));
    if (unknown.length) problems.push({ field: 'audience.group_ids', message: `${unknown.join(', ')} ${unknown.length > 1 ? 'are not groups' : 'is not a group'} of the school` });
  }
  if (audience.student_ids.length) {
    const known = new Set((await Student.findAll({ where: { school_id: school, id: { [Op.in]: audience.student_ids } }, attributes: ['id'], raw: true, transaction })).map((s) => s.id));
    const unknown = audience.student_ids.filter((s) => !known.has(s));
    if (unknown.length) problems.push({ field: 'audience.student_ids', message: `${unknown.join(', ')} ${unknown.length > 1 ? 'are not students' : 'is not a student'} of the school` });
  }
  if (problems.length) throw badRequest(`Invalid input: ${problems.map((p) => p.field).join(', ')}`, problems);
  if (principal.type !== 'staff') return;
  if ((audience.grades.length || audience.group_ids.length) && !hasPermission(principal, 'activities.create')) {
    throw forbidden('Addressing grades or groups needs the permission activities.create');
  }
  if (audience.student_ids.length && !hasPermission(principal, 'activities.manage')) await assertAssigned(principal, audience.student_ids, transaction);
}

/**
 * Replaces an item's audience rows; returns its audience_scope (0: the whole school). A new item
 * (`fresh`) has none to delete, and the range DELETE would lock the index's gap where concurrent
 * posts insert theirs: on MySQL two such posts deadlock.
 */
export async function saveAudience(
  schoolId: string, entity: AudienceEntity, entityId: number, audience: Audience | null, transaction?: Transaction, { fresh = false } = {},
): Promise<number> {
  if (!fresh) await AudienceTarget.destroy({ where: { school_id: schoolId, entity_type: entity, entity_id: entityId }, transaction });
  if (!audience) return 0;
  const base = { school_id: schoolId, entity_type: entity, entity_id: entityId };
  await AudienceTarget.bulkCreate([
    ...audience.grades.map((grade) => ({ ...base, grade })),
    ...audience.group_ids.map((group_id) => ({ ...base, group_id })),
    ...audience.student_ids.map((student_id) => ({ ...base, student_id })),
  ], { transaction });
  return 1;
}

/** The audiences of some items of one kind, in one query: id -> audience (items absent from the map are for the whole school). */
export async function audiencesOf(schoolId: string, entity: AudienceEntity, ids: number[], transaction?: Transaction): Promise<Map<number, Audience>> {
  if (ids.length === 0) return new Map();
  const rows = await AudienceTarget.findAll({
    where: { school_id: schoolId, entity_type: entity, entity_id: { [Op.in]: ids } }, attributes: ['entity_id', 'student_id', 'grade', 'group_id'], order: [['id', 'ASC']], raw: true,
    transaction,
  });
  return byItem(rows);
}

/**
 * MySQL's hint naming the one index a subquery's table is read by. Unhinted, MariaDB prices every
 * index of the table that the WHERE could use on each execution, with two descents of each tree,
 * prepared statement or not: on the 1,000-school benchmark the children's lookup cost 54 buffer-pool
 * page reads that way and 8 hinted, and the dives grow with the trees' depth.
 */
const using = (mysql: boolean, index: string) => (mysql ? ` FORCE INDEX (${index})` : '');

/**
 * A column of the parents' feeds: a targeted item's audience as a parent is shown it (its grades and
 * groups, and of the named students only their own children), as a JSON array of `[id, grade,
 * group_id, student_id]`; null for a school-wide item. Read in the page's own statement, so a page
 * costs one round trip.
 */
export function audienceColumn(alias: string, entity: AudienceEntity, mysql: boolean): string {
  const aggregate = mysql ? 'JSON_ARRAYAGG(JSON_ARRAY(t.id, t.grade, t.group_id, t.student_id))' : 'json_group_array(json_array(t.id, t.grade, t.group_id, t.student_id))';
  return `CASE WHEN ${alias}.audience_scope = 1 THEN (SELECT ${aggregate} FROM audience_targets t${using(mysql, 'audience_targets_entity')}
      WHERE t.school_id = ${alias}.school_id AND t.entity_type = '${entity}' AND t.entity_id = ${alias}.id
        AND (t.student_id IS NULL OR t.student_id IN (SELECT c.id FROM students c${using(mysql, 'students_school_parent')} WHERE c.school_id = :school AND c.parent_id = :parent))) END AS audience_list`;
}

/** The audience read from `audienceColumn`, in the order it was saved; null for a school-wide item. */
export function audienceFromColumn(value: unknown): Audience | null {
  if (value === null || value === undefined) return null;
  const targets = (typeof value === 'string' ? JSON.parse(value) : value) as Array<[number, string | null, number | null, number | null]>;
  targets.sort((x, y) => Number(x[0]) - Number(y[0]));
  const a: Audience = { grades: [], group_ids: [], student_ids: [] };
  for (const [, grade, group, student] of targets) {
    if (grade !== null) a.grades.push(grade);
    if (group !== null) a.group_ids.push(Number(group));
    if (student !== null) a.student_ids.push(Number(student));
  }
  return a;
}

function byItem(rows: Array<{ entity_id: number; student_id: number | null; grade: string | null; group_id: number | null }>): Map<number, Audience> {
  const out = new Map<number, Audience>();
  for (const r of rows) {
    const a = out.get(Number(r.entity_id)) ?? { grades: [], group_ids: [], student_ids: [] };
    if (r.grade !== null) a.grades.push(r.grade);
    if (r.group_id !== null) a.group_ids.push(Number(r.group_id));
    if (r.student_id !== null) a.student_ids.push(Number(r.student_id));
    out.set(Number(r.entity_id), a);
  }
  return out;
}

/** The children whose audiences count for a parent (or one child of theirs): not archived. */
const children = (column: string, oneChild: boolean, mysql: boolean) =>
  `SELECT c.${column} FROM students c${using(mysql, oneChild ? 'PRIMARY' : 'students_school_parent')} WHERE c.school_id = :school AND ${oneChild ? 'c.id = :student AND c.parent_id = :parent' : 'c.parent_id = :parent'} AND c.status <> 'archived'`;

const targetIndexes = { student_id: 'audience_targets_student', grade: 'audience_targets_grade', group_id: 'audience_targets_group' } as const;

/**
 * SQL saying that the item `alias` (an activities or notices row) is for the parent `:parent` of
 * `:school` (or, with `oneChild`, for their child `:student`): it is for the whole school, or one of
 * their children is named, in one of its grades or in one of its groups. The items aimed at the
 * children are one small set the database builds once per query, from the audience_targets indexes
 * by student, grade and group; a school-wide item needs no lookup at all. The one rule of the feeds,
 * the engagement checks, read receipts and reach.
 */
export function audienceVisible(alias: string, entity: AudienceEntity, oneChild = false, mysql = false): string {
  const target = (column: keyof typeof targetIndexes, values: string) =>
    `SELECT t.entity_id FROM audience_targets t${using(mysql, targetIndexes[column])} WHERE t.school_id = :school AND t.entity_type = '${entity}' AND t.${column} IN (${values})`;
  const groups = `SELECT gm.group_id FROM group_members gm${using(mysql, 'group_members_student')} WHERE gm.school_id = :school AND gm.student_id IN (${children('id', oneChild, mysql)})`;
  return `(${alias}.audience_scope = 0 OR ${alias}.id IN (${target('student_id', children('id', oneChild, mysql))})
    OR ${alias}.id IN (${target('grade', children('grade', oneChild, mysql))}) OR ${alias}.id IN (${target('group_id', groups)}))`;
}

/** The teachers' and web lists' filters: the items (`alias`) whose audience names the grade, or the group. */
export function audienceFilterClauses(alias: string, entity: AudienceEntity, filter: { grade?: string; group_id?: number }, params: Record<string, unknown>): string[] {
  const names = (column: string, value: string) =>
    `EXISTS (SELECT 1 FROM audience_targets t WHERE t.school_id = ${alias}.school_id AND t.entity_type = '${entity}' AND t.entity_id = ${alias}.id AND t.${column} = :${value})`;
  const clauses: string[] = [];
  if (filter.grade !== undefined) {
    clauses.push(names('grade', 'grade'));
    params.grade = filter.grade;
  }
  if (filter.group_id !== undefined) {
    clauses.push(names('group_id', 'group'));
    params.group = filter.group_id;
  }
  return clauses;
}

export interface AudienceChild {
  id: number;
  parent_id: number;
  student_full_name: string;
  grade: string;
}

/** The students an item is for who are not archived and have a parent (every such student of the school for a school-wide item). */
export async function audienceChildren(ctx: AppContext, schoolId: string, entity: AudienceEntity, entityId: number, scope: number, transaction?: Transaction): Promise<AudienceChild[]> {
  const targeted = `AND (c.id IN (SELECT t.student_id FROM audience_targets t WHERE t.school_id = :school AND t.entity_type = :entity AND t.entity_id = :id AND t.student_id IS NOT NULL)
      OR c.grade IN (SELECT t.grade FROM audience_targets t WHERE t.school_id = :school AND t.entity_type = :entity AND t.entity_id = :id AND t.grade IS NOT NULL)
      OR c.id IN (SELECT gm.student_id FROM group_members gm JOIN audience_targets t ON t.group_id = gm.group_id AND t.school_id = gm.school_id
                  WHERE gm.school_id = :school AND t.entity_type = :entity AND t.entity_id = :id))`;
  const rows = await ctx.db.sequelize.query<AudienceChild>(
    `SELECT c.id, c.parent_id, c.student_full_name, c.grade FROM students c
      WHERE c.school_id = :school AND c.parent_id IS NOT NULL AND c.status <> 'archived' ${scope ? targeted : ''} ORDER BY c.id`,
    { replacements: { school: schoolId, entity, id: entityId }, type: QueryTypes.SELECT, transaction },
  );
  return rows.map((r) => ({ id: Number(r.id), parent_id: Number(r.parent_id), student_full_name: r.student_full_name, grade: r.grade }));
}

/** The families an item reaches: the parents of its audience's students who are not archived. */
export async function audienceFamilies(ctx: AppContext, schoolId: string, entity: AudienceEntity, entityId: number, scope: number, transaction?: Transaction): Promise<number[]> {
  return [...new Set((await audienceChildren(ctx, schoolId, entity, entityId, scope, transaction)).map((c) => c.parent_id))];
}

