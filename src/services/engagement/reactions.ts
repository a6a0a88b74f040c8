import { DatabaseError, TimeoutError, UniqueConstraintError } from 'sequelize';
import type { AppContext, Principal } from '../../context.js';
import { conflict, fieldError } from '../../errors.js';
import { reactionTypes, type ReactionType } from '../../models/reaction.js';
import { assertCanRead, assertParentCanSee, entityRef, type EntityRef } from './visibility.js';
import { recordAudit, type AuditEntry, type Changes } from '../audit/audit.js';
import { sqlTime } from '../../db.js';

export { reactionTypes, type ReactionType };

export interface ReactionCounts {
  like: number;
  love: number;
}

export interface ReactionStats extends ReactionCounts {
  my_reaction: ReactionType | null;
}

export type ToggleAction = 'added' | 'removed' | 'changed';

export interface ToggleResult {
  action: ToggleAction;
  reaction_type: ReactionType | null;
  counts: ReactionCounts;
}

/** Counts and the parent's own reaction in one pass over the entity's index range. */
async function stats(ctx: AppContext, schoolId: string, ref: EntityRef, parentId: number): Promise<ReactionStats> {
  const [row] = await ctx.db.select<{ likes: unknown; loves: unknown; mine: ReactionType | null }>(
    `SELECT SUM(CASE WHEN reaction_type = 'like' THEN 1 ELSE 0 END) AS likes,
            SUM(CASE WHEN reaction_type = 'love' THEN 1 ELSE 0 END) AS loves,
            MAX(CASE WHEN parent_id = :parent THEN reaction_type END) AS mine
       FROM reactions
      WHERE school_id = :school AND entity_type = :type AND entity_id = :id`,
    { school: schoolId, type: ref.entity_type, id: ref.entity_id, parent: parentId },
  );
  return { like: Number(row?.likes ?? 0), love: Number(row?.loves ?? 0), my_reaction: row?.mine ?? null };
}

/** Lock waits and deadlocks between concurrent toggles on MySQL, busy waits on SQLite: worth another try. */
const transient = (err: unknown) =>
  err instanceof TimeoutError ||
  (err instanceof DatabaseError && /ER_LOCK_DEADLOCK|ER_LOCK_WAIT_TIMEOUT|SQLITE_BUSY/.test(`${(err.parent as { code?: string } | undefined)?.code} ${err.message}`));

const SAME_KEY = 'school_id = :school AND entity_type = :entity_type AND entity_id = :entity_id AND parent_id = :parent';

/** A reaction is named by what it is on: the trail keeps the parent as the actor and the item in `changes`. */
const reactionEvent = (key: { school: string; entity_type: string; entity_id: number }, verb: string, changes: Changes): AuditEntry => ({
  schoolId: key.school, action: `reaction.${verb}`, entityType: 'reaction', entityId: null,
  changes: { entity_type: [null, key.entity_type], entity_id: [null, key.entity_id], ...changes },
});

/**
 * One attempt, each step a single bound statement that the unique key (school_id, entity_type,
 * entity_id, parent_id) keeps honest: insert; else delete the same reaction; else switch from another
 * type. Null when a concurrent toggle moved the row between two steps.
 */
async function applyToggle(ctx: AppContext, key: { school: string; entity_type: EntityRef['entity_type']; entity_id: number; parent: number }, type: ReactionType): Promise<ToggleAction | null> {
  const values = { ...key, type, now: sqlTime(ctx.db.dialect, new Date()) };
  // Each step commits with its audit event.
  return ctx.db.transact(async (tx): Promise<ToggleAction | null> => {
    try {
      await tx.write(
        `INSERT INTO reactions (school_id, entity_type, entity_id, parent_id, reaction_type, created_at, updated_at)
         VALUES (:school, :entity_type, :entity_id, :parent, :type, :now, :now)`,
        values,
      );
      await recordAudit([reactionEvent(key, 'create', { reaction_type: [null, type] })], tx);
      return 'added';
    } catch (err) {
      if (!(err instanceof UniqueConstraintError)) throw err;
    }
    if ((await tx.write(`DELETE FROM reactions WHERE ${SAME_KEY} AND reaction_type = :type`, values)) > 0) {
      await recordAudit([reactionEvent(key, 'delete', { reaction_type: [type, null] })], tx);
      return 'removed';
    }
    const changed = await tx.write(`UPDATE reactions SET reaction_type = :type, updated_at = :now WHERE ${SAME_KEY} AND reaction_type <> :type`, values);
    if (changed === 0) return null;
    await recordAudit([reactionEvent(key, 'update', { reaction_type: [null, type] })], tx);
    return 'changed';
  });
}

/**
 * An attempt only comes back empty when another toggle of the same parent and entity succeeded between
 * two of its steps, so a request fails at most once per concurrent rival: 25 attempts cover any burst
 * of double taps by a wide margin.
 */
const ATTEMPTS = 25;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A parent's reaction toggle: none -> added; the same type again -> removed; another type -> changed.
 * One reaction per parent per entity holds under concurrent requests.
 */
export async function toggleReaction(
  ctx: AppContext,
  principal: Principal,
  input: { entity_type: string; entity_id: number; reaction_type: string },
): Promise<ToggleResult> {
  const ref = entityRef(input);
  if (!(reactionTypes as readonly string[]).includes(input.reaction_type)) throw fieldError('reaction_type', `must be one of ${reactionTypes.join(', ')}`);
  const type = input.reaction_type as ReactionType;
  await assertParentCanSee(ctx, principal, ref.entity_type, ref.entity_id);
  const key = { school: principal.schoolId, entity_type: ref.entity_type, entity_id: ref.entity_id, parent: principal.userId };
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    let action: ToggleAction | null;
    try {
      action = await applyToggle(ctx, key, type);
    } catch (err) {
      if (!transient(err)) throw err;
      action = null;
      await pause(Math.random() * 20);
    }
    if (action) {
      const { like, love } = await stats(ctx, principal.schoolId, ref, principal.userId);
      return { action, reaction_type: action === 'removed' ? null : type, counts: { like, love } };
    }
  }
  throw conflict('The reaction kept changing while it was being saved; try again');
}

/** Like and love counts of an entity, and the caller's own reaction (always null for a school admin). */
export async function reactionStats(ctx: AppContext, principal: Principal, input: { entity_type: string; entity_id: number }): Promise<ReactionStats> {
  const ref = entityRef(input);
  await assertCanRead(ctx, principal, ref);
  return stats(ctx, principal.schoolId, ref, principal.type === 'parent' ? principal.userId : 0);
}
