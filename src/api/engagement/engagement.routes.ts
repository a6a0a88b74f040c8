import { z } from 'zod';
import { entityTypes } from '../../models/comment.js';
import { reactionTypes } from '../../models/reaction.js';
import { addComment, COMMENT_MAX, deleteComment, listComments } from '../../services/engagement/comments.js';
import { reactionStats, toggleReaction } from '../../services/engagement/reactions.js';
import { registerAttendanceRoutes } from '../attendance/attendance.routes.js';
import { registerDiaryRoutes } from '../diary/diary.routes.js';
import type { Routers } from '../routers.js';
import { id, idParam, pageQuery, timestamp } from '../../services/schemas.js';

const entityType = z.enum(entityTypes);
const entityParams = z.object({ type: entityType, id: id() });
const commentView = z.object({
  id: z.number(), entity_type: entityType, entity_id: z.number(), content: z.string(), parent_id: z.number(), author_name: z.string(), created_at: timestamp(),
});
const counts = { like: z.number(), love: z.number() };

/** Parents' comments and reactions (CONTRACT.md section 10), and the classroom features beside them: the diary and attendance. */
export function registerEngagementRoutes(r: Routers): void {
  const parent = r.parent;
  parent.route(
    {
      method: 'post', path: '/engagement/comment', status: 201, summary: 'Comment on an activity, notice, write-to thread or diary entry',
      description: 'The entity must be one the parent can see (their feed, their school\'s notices, their own threads, their children\'s diary); anything else answers 404.',
      body: z.object({ entity_type: entityType, entity_id: id(), content: z.string().trim().min(1).max(COMMENT_MAX) }),
      response: commentView, errors: [404],
      example: { entity_type: 'activity', entity_id: 12, content: 'Looking forward to it!' },
    },
    async ({ ctx, principal, body }) => ({ message: 'Comment added', data: await addComment(ctx, principal, body) }),
  );
  parent.route(
    {
      method: 'get', path: '/engagement/comments/:type/:id', params: entityParams, query: z.object(pageQuery(100)),
      summary: "An entity's comments, oldest first", description: 'Deleted comments are left out.', response: z.array(commentView), errors: [404],
    },
    async ({ ctx, principal, params, query }) => ({ data: await listComments(ctx, principal, { entity_type: params.type, entity_id: params.id }, query) }),
  );
  parent.route(
    { method: 'delete', path: '/engagement/comments/:id', params: idParam, summary: 'Delete one of the caller\'s comments', description: 'Anyone else\'s comment answers 404.', errors: [404] },
    async ({ ctx, principal, params }) => {
      await deleteComment(ctx, principal, params.id);
      return { message: 'Comment deleted' };
    },
  );
  parent.route(
    {
      method: 'post', path: '/engagement/react', summary: 'Toggle a reaction',
      description: 'No reaction yet: added. The same type again: removed. The other type: changed. One reaction per parent per entity.',
      body: z.object({ entity_type: entityType, entity_id: id(), reaction_type: z.enum(reactionTypes) }),
      response: z.object({ action: z.enum(['added', 'removed', 'changed']), reaction_type: z.enum(reactionTypes).nullable(), counts: z.object(counts) }),
      errors: [404, 409],
      example: { entity_type: 'noticeboard', entity_id: 3, reaction_type: 'love' },
    },
    async ({ ctx, principal, body }) => ({ data: await toggleReaction(ctx, principal, body) }),
  );
  parent.route(
    {
      method: 'get', path: '/engagement/reactions/:type/:id', params: entityParams, summary: "An entity's reaction counts and the caller's own reaction",
      response: z.object({ ...counts, my_reaction: z.enum(reactionTypes).nullable() }), errors: [404],
    },
    async ({ ctx, principal, params }) => ({ data: await reactionStats(ctx, principal, { entity_type: params.type, entity_id: params.id }) }),
  );

  registerDiaryRoutes(r);
  registerAttendanceRoutes(r);
}
