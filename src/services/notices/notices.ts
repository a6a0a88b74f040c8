import { z } from 'zod';
import { pageQuery } from '../../api/schemas.js';
import type { AppContext, Principal } from '../../context.js';
import { iso } from '../../db.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import { Notice } from '../../models/index.js';
import { noticeTypes } from '../../models/notice.js';
import { requirePermission, requireSchoolAdmin } from '../access/guards.js';
import { offsetOf } from '../pagination.js';
import { parseInput, required } from '../validation.js';

export { noticeTypes };
export type NoticeType = (typeof noticeTypes)[number];

/** The fields of a notice as every door (REST, console, command line) accepts them. */
export const noticeFields = {
  notice_title: z.string({ error: required }).trim().min(1).max(200),
  notice_desc: z.string().max(10_000).nullable(),
  notice_type: z.enum(noticeTypes),
  /** Important notices are pinned above the others in every listing. */
  is_important: z.boolean(),
};

export const newNoticeSchema = z.object({
  notice_title: noticeFields.notice_title,
  notice_desc: noticeFields.notice_desc.optional(),
  notice_type: noticeFields.notice_type.default('general'),
  is_important: noticeFields.is_important.default(false),
});
export type NewNotice = z.input<typeof newNoticeSchema>;

export const noticeChangesSchema = z.object({
  notice_title: noticeFields.notice_title.optional(),
  notice_desc: noticeFields.notice_desc.optional(),
  notice_type: noticeFields.notice_type.optional(),
  is_important: noticeFields.is_important.optional(),
});
export type NoticeChanges = z.input<typeof noticeChangesSchema>;

export const noticeBoardQuerySchema = z.object({ notice_type: noticeFields.notice_type.optional(), ...pageQuery(20) });
export type NoticeBoardQuery = z.input<typeof noticeBoardQuerySchema>;

export const webNoticeQuerySchema = z.object({ notice_type: noticeFields.notice_type.optional(), ...pageQuery(10) });
export type WebNoticeQuery = z.input<typeof webNoticeQuerySchema>;

export interface NoticeView {
  id: number;
  school_id: string;
  notice_title: string;
  notice_desc: string | null;
  notice_type: string | null;
  is_important: boolean;
  created_by_type: 'admin' | 'staff' | null;
  created_by_id: number | null;
  created_at: string;
  updated_at: string;
}

interface NoticeRow extends Omit<NoticeView, 'is_important' | 'created_at' | 'updated_at'> {
  is_important: unknown;
  created_at: unknown;
  updated_at: unknown;
}

const view = (r: NoticeRow): NoticeView => ({
  id: Number(r.id),
  school_id: r.school_id,
  notice_title: r.notice_title,
  notice_desc: r.notice_desc ?? null,
  notice_type: r.notice_type ?? null,
  // Both databases hand a BOOLEAN back as 0/1 (SQLite may give a string).
  is_important: Number(r.is_important) === 1,
  created_by_type: r.created_by_type ?? null,
  created_by_id: r.created_by_id === null || r.created_by_id === undefined ? null : Number(r.created_by_id),
  created_at: iso(r.created_at)!,
  updated_at: iso(r.updated_at)!,
});

const COLUMNS = 'id, school_id, notice_title, notice_desc, notice_type, is_important, created_by_type, created_by_id, created_at, updated_at';
/** Pinned first, then newest: the order of (school_id, notice_deleted, is_important, created_at, id) read backwards. */
const BOARD_ORDER = 'ORDER BY is_important DESC, created_at DESC, id DESC';

async function findNotice(ctx: AppContext, principal: Principal, id: number): Promise<NoticeView> {
  const rows = await ctx.db.select<NoticeRow>(`SELECT ${COLUMNS} FROM notices WHERE id = :id AND school_id = :school AND notice_deleted = 0`, {
    id,
    school: principal.schoolId,
  });
  if (rows.length === 0) throw notFound('Notice');
  return view(rows[0]!);
}

/** School admins, and staff with `noticeboard.create` (through the teachers' app), post notices. */
export async function createNotice(ctx: AppContext, principal: Principal, input: NewNotice): Promise<NoticeView> {
  requirePermission(principal, 'noticeboard.create');
  const data = parseInput(newNoticeSchema, input);
  const created = await Notice.create({
    school_id: principal.schoolId,
    notice_title: data.notice_title,
    notice_desc: data.notice_desc ?? null,
    notice_type: data.notice_type,
    is_important: data.is_important,
    created_by_type: principal.type === 'staff' ? 'staff' : 'admin',
    created_by_id: principal.userId || null,
  });
  return findNotice(ctx, principal, created.id);
}

/** School admins (and staff with `noticeboard.manage`) edit any notice of the school. */
export async function updateNotice(ctx: AppContext, principal: Principal, id: number, changes: NoticeChanges): Promise<NoticeView> {
  requirePermission(principal, 'noticeboard.manage');
  const patch = parseInput(noticeChangesSchema, changes);
  if (Object.values(patch).every((v) => v === undefined)) throw badRequest('Send at least one field to change');
  // Sequelize leaves out the fields that were not sent; a deleted or foreign notice matches no row.
  const [affected] = await Notice.update(patch, { where: { id, school_id: principal.schoolId, notice_deleted: 0 } });
  if (affected === 0) throw notFound('Notice');
  return findNotice(ctx, principal, id);
}

/** Soft delete (`notice_deleted` = 1): gone from every board, kept in the database. */
export async function deleteNotice(_ctx: AppContext, principal: Principal, id: number): Promise<void> {
  requirePermission(principal, 'noticeboard.manage');
  const [affected] = await Notice.update({ notice_deleted: 1 }, { where: { id, school_id: principal.schoolId, notice_deleted: 0 } });
  if (affected === 0) throw notFound('Notice');
}

const boardFilter = (schoolId: string, noticeType: string | undefined) => ({
  where: `school_id = :school AND notice_deleted = 0${noticeType ? ' AND notice_type = :type' : ''}`,
  params: { school: schoolId, ...(noticeType ? { type: noticeType } : {}) },
});

/**
 * One page of the board, pinned notices first. Without a type filter this is an ordered scan of
 * notices_board; with one, of notices_board_type, which puts notice_type before the order columns.
 */
async function board(ctx: AppContext, principal: Principal, query: z.output<typeof noticeBoardQuerySchema>): Promise<NoticeView[]> {
  const { where, params } = boardFilter(principal.schoolId, query.notice_type);
  const rows = await ctx.db.select<NoticeRow>(`SELECT ${COLUMNS} FROM notices WHERE ${where} ${BOARD_ORDER} LIMIT :limit OFFSET :offset`, {
    ...params,
    limit: query.limit,
    offset: offsetOf(query),
  });
  return rows.map(view);
}

/** Every notice of the parent's school: they are addressed to the whole school. */
export async function listParentNotices(ctx: AppContext, principal: Principal, query: NoticeBoardQuery = {}): Promise<NoticeView[]> {
  if (principal.type !== 'parent') throw forbidden('This noticeboard is for parents');
  return board(ctx, principal, parseInput(noticeBoardQuerySchema, query));
}

export async function listTeacherNotices(ctx: AppContext, principal: Principal, query: NoticeBoardQuery = {}): Promise<NoticeView[]> {
  requirePermission(principal, 'noticeboard.view');
  return board(ctx, principal, parseInput(noticeBoardQuerySchema, query));
}

/** The web admins' board: one page and the count of every undeleted notice (of the type, when filtered). */
export async function listWebNotices(ctx: AppContext, principal: Principal, input: WebNoticeQuery = {}): Promise<{ notices: NoticeView[]; count: number }> {
  requireSchoolAdmin(principal);
  const query = parseInput(webNoticeQuerySchema, input);
  const { where, params } = boardFilter(principal.schoolId, query.notice_type);
  const [notices, [row]] = await Promise.all([
    board(ctx, principal, query),
    ctx.db.select<{ count: number }>(`SELECT COUNT(*) AS count FROM notices WHERE ${where}`, params),
  ]);
  return { notices, count: Number(row?.count ?? 0) };
}
