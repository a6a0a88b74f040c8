import type { AppContext, Principal } from '../../context.js';
import { iso } from '../../db.js';
import { fieldError, notFound } from '../../errors.js';
import { Comment, Parent } from '../../models/index.js';
import { requireSchoolAdmin } from '../access/guards.js';
import { offsetOf, type PageRequest } from '../pagination.js';
import { assertCanRead, assertParentCanSee, entityRef, type EntityType } from './visibility.js';

export const COMMENT_MAX = 2000;

export interface CommentView {
  id: number;
  entity_type: EntityType;
  entity_id: number;
  content: string;
  parent_id: number;
  author_name: string;
  created_at: string;
}

interface CommentRow {
  id: number;
  entity_type: EntityType;
  entity_id: number;
  content: string;
  parent_id: number;
  father_name: string | null;
  mother_name: string | null;
  created_at: unknown;
}

const authorName = (father: string | null | undefined, mother: string | null | undefined) => father || mother || 'Parent';

const view = (r: CommentRow): CommentView => ({
  id: Number(r.id), entity_type: r.entity_type, entity_id: Number(r.entity_id), content: r.content, parent_id: Number(r.parent_id),
  author_name: authorName(r.father_name, r.mother_name), created_at: iso(r.created_at)!,
});

function commentContent(value: unknown): string {
  const content = typeof value === 'string' ? value.trim() : '';
  if (content.length === 0) throw fieldError('content', 'is required');
  if (content.length > COMMENT_MAX) throw fieldError('content', `must be at most ${COMMENT_MAX} characters`);
  return content;
}

/** A parent's comment on an entity they can see; the content is kept trimmed. */
export async function addComment(
  ctx: AppContext,
  principal: Principal,
  input: { entity_type: string; entity_id: number; content: string },
): Promise<CommentView> {
  const ref = entityRef(input);
  const content = commentContent(input.content);
  await assertParentCanSee(ctx, principal, ref.entity_type, ref.entity_id);
  const [comment, author] = await Promise.all([
    Comment.create({ school_id: principal.schoolId, entity_type: ref.entity_type, entity_id: ref.entity_id, parent_id: principal.userId, content }),
    Parent.findOne({ where: { id: principal.userId, school_id: principal.schoolId }, attributes: ['father_name', 'mother_name'], raw: true }),
  ]);
  return view({ ...comment.get({ plain: true }), father_name: author?.father_name ?? null, mother_name: author?.mother_name ?? null });
}

/** An entity's comments, oldest first, without deleted ones. */
export async function listComments(
  ctx: AppContext,
  principal: Principal,
  input: { entity_type: string; entity_id: number },
  page: PageRequest = { page: 1, limit: 100 },
): Promise<CommentView[]> {
  const ref = entityRef(input);
  await assertCanRead(ctx, principal, ref);
  const rows = await ctx.db.select<CommentRow>(
    `SELECT c.id, c.entity_type, c.entity_id, c.content, c.parent_id, p.father_name, p.mother_name, c.created_at
       FROM comments c
       LEFT JOIN parents p ON p.id = c.parent_id AND p.school_id = c.school_id
      WHERE c.school_id = :school AND c.entity_type = :type AND c.entity_id = :id AND c.deleted_status = 0
      ORDER BY c.created_at ASC, c.id ASC
      LIMIT :limit OFFSET :offset`,
    { school: principal.schoolId, type: ref.entity_type, id: ref.entity_id, limit: page.limit, offset: offsetOf(page) },
  );
  return rows.map(view);
}

/**
 * Soft-deletes a comment: a parent only their own (anyone else's answers 404); a school admin any of
 * the school's, to moderate from the console.
 */
export async function deleteComment(_ctx: AppContext, principal: Principal, commentId: number): Promise<void> {
  if (principal.type !== 'parent') requireSchoolAdmin(principal);
  const own = principal.type === 'parent' ? { parent_id: principal.userId } : {};
  const [affected] = await Comment.update({ deleted_status: 1 }, { where: { id: commentId, school_id: principal.schoolId, deleted_status: 0, ...own } });
  if (affected === 0) throw notFound('Comment');
}
