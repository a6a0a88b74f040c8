import type { AppContext, Principal } from '../../context.js';
import { fieldError, forbidden, notFound } from '../../errors.js';
import { entityTypes, type EntityType } from '../../models/comment.js';
import { requireSchoolAdmin } from '../access/guards.js';
import { audienceVisible } from '../audiences/audiences.js';

export { entityTypes, type EntityType };

export interface EntityRef {
  entity_type: EntityType;
  entity_id: number;
}

/** An entity named by a caller: a known type and a positive integer id, else 400 naming the field. */
export function entityRef(input: { entity_type: unknown; entity_id: unknown }): EntityRef {
  if (typeof input.entity_type !== 'string' || !(entityTypes as readonly string[]).includes(input.entity_type)) {
    throw fieldError('entity_type', `must be one of ${entityTypes.join(', ')}`);
  }
  const id = Number(input.entity_id);
  if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) throw fieldError('entity_id', 'must be a positive integer');
  return { entity_type: input.entity_type as EntityType, entity_id: id };
}

/** The parent's children, as a subquery bound to :school and :parent. */
const CHILDREN = 'SELECT c.id FROM students c WHERE c.school_id = :school AND c.parent_id = :parent';

/**
 * One query per type saying whether the parent can see the entity, with the same rules as the feeds:
 * a published activity or a notice for the whole school or one of their children (its audience), their own
 * write-to thread, a diary entry for one of their children or one of their children's grades. Built
 * for each dialect: on MySQL the audience subqueries name their indexes (`audienceVisible`), which
 * took the check of an activity from 226 to 44 buffer-pool page reads on the 1,000-school benchmark.
 */
const parentVisibleStatements = (mysql: boolean): Record<EntityType, string> => ({
  activity: `SELECT a.id FROM activities a
              WHERE a.id = :id AND a.school_id = :school AND a.status = 'published' AND a.deleted_status = 0 AND ${audienceVisible('a', 'activity', false, mysql)}`,
  noticeboard: `SELECT n.id FROM notices n
                 WHERE n.id = :id AND n.school_id = :school AND n.notice_deleted = 0 AND n.published_at IS NOT NULL AND ${audienceVisible('n', 'noticeboard', false, mysql)}`,
  write_to: 'SELECT w.id FROM write_to_requests w WHERE w.id = :id AND w.school_id = :school AND w.parent_id = :parent',
  diary: `SELECT d.id FROM diary_entries d
           WHERE d.id = :id AND d.school_id = :school AND d.deleted_status = 0
             AND (d.student_id IN (${CHILDREN})
                  OR (d.student_id IS NULL AND d.grade IN (SELECT g.grade FROM students g WHERE g.school_id = :school AND g.parent_id = :parent)))`,
});
const parentVisible = { mysql: parentVisibleStatements(true), sqlite: parentVisibleStatements(false) };

/** Whether the entity exists, undeleted, in the school: what a school admin moderating in the console can see. */
const inSchool: Record<EntityType, string> = {
  activity: 'SELECT a.id FROM activities a WHERE a.id = :id AND a.school_id = :school AND a.deleted_status = 0',
  noticeboard: 'SELECT n.id FROM notices n WHERE n.id = :id AND n.school_id = :school AND n.notice_deleted = 0',
  write_to: 'SELECT w.id FROM write_to_requests w WHERE w.id = :id AND w.school_id = :school',
  diary: 'SELECT d.id FROM diary_entries d WHERE d.id = :id AND d.school_id = :school AND d.deleted_status = 0',
};

/** Whether a parent of a school can see the entity, as the feeds decide it. */
export async function parentSees(ctx: AppContext, schoolId: string, parentId: number, entityType: EntityType, entityId: number): Promise<boolean> {
  return (await ctx.db.select(parentVisible[ctx.db.dialect][entityType], { id: entityId, school: schoolId, parent: parentId })).length > 0;
}

/** 404 unless the parent can see the entity: another school's or another family's record is never confirmed. */
export async function assertParentCanSee(ctx: AppContext, principal: Principal, entityType: EntityType, entityId: number): Promise<void> {
  if (principal.type !== 'parent') throw forbidden('This is for parents');
  if (!(await parentSees(ctx, principal.schoolId, principal.userId, entityType, entityId))) throw notFound('Entity');
}

/**
 * Reading an entity's comments and reactions: a parent as they see the feeds, a school admin (the
 * console) any undeleted entity of the school.
 */
export async function assertCanRead(ctx: AppContext, principal: Principal, ref: EntityRef): Promise<void> {
  if (principal.type === 'parent') return assertParentCanSee(ctx, principal, ref.entity_type, ref.entity_id);
  requireSchoolAdmin(principal);
  const rows = await ctx.db.select(inSchool[ref.entity_type], { id: ref.entity_id, school: principal.schoolId });
  if (rows.length === 0) throw notFound('Entity');
}
