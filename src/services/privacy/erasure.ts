import { Op, QueryTypes, type Transaction } from 'sequelize';
import { z } from 'zod';
import type { AppContext, Principal } from '../../context.js';
import { sqlTime } from '../../db.js';
import { conflict, fieldError, notFound } from '../../errors.js';
import { Address, Admission, AuditEvent, Comment, Notification, Parent, Student, WriteToReply, WriteToRequest } from '../../models/index.js';
import { requireRole } from '../access/guards.js';
import { actingAs } from '../audit/context.js';
import { recordAudit } from '../audit/audit.js';
import { parseInput } from '../validation.js';

export const eraseInput = z.object({ confirm: z.string().trim().min(1).max(64).describe("The student's roll number, typed to confirm") });

export interface ErasureCounts {
  students: number;
  parents: number;
  comments: number;
  addresses: number;
}

const ERASED = '[erased]';

/**
 * Erases an archived student (and their parent when no other child of the school links them): their
 * personal fields are replaced, their addresses deleted, the content of the parent's comments
 * blanked, and every other record that carried their personal data (the admission's stored form,
 * write-to threads, notifications, the audit trail's changes and names) blanked too. Ids, counts and
 * the audit events themselves stay. The writes bypass the audit capture, which would copy the data
 * being erased into the trail: one `student.erase` event records the erasure instead. `confirm` is
 * the roll number typed by the person erasing; the retention job passes null.
 */
export async function eraseStudent(ctx: AppContext, schoolId: string, studentId: number, confirm: string | null): Promise<{ erased: ErasureCounts }> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const student = await Student.findOne({ where: { id: studentId, school_id: schoolId }, transaction });
    if (!student) throw notFound('Student');
    if (student.status !== 'archived') throw conflict(`Only an archived student can be erased; this one is ${student.status}`);
    if (confirm !== null && confirm !== student.roll_no) throw fieldError('confirm', "does not match the student's roll number");
    const t = { transaction, hooks: false } as const;
    const now = new Date();
    const traces = [student.student_full_name, student.phone_no];
    const parentId = student.parent_id;
    const parent = parentId === null ? null : await Parent.findOne({ where: { id: parentId, school_id: schoolId }, transaction });
    const parentGoes = parent !== null && (await Student.count({ where: { school_id: schoolId, parent_id: parent.id, id: { [Op.ne]: studentId } }, transaction })) === 0;
    if (parentGoes) traces.push(parent!.father_name, parent!.mother_name, parent!.phone_no, parent!.email);
    const names = [...new Set(traces.filter((v): v is string => typeof v === 'string' && v.trim().length >= 3))];

    await Student.update(
      { student_full_name: `Erased student ${studentId}`, date_of_birth: null, blood_group: null, phone_no: null, gender: null, erased_at: now },
      { where: { id: studentId, school_id: schoolId }, ...t },
    );
    const owners = [{ owner_type: 'student', owner_id: studentId }, ...(parentGoes ? [{ owner_type: 'parent', owner_id: parent!.id }] : [])];
    const addresses = await Address.destroy({ where: { school_id: schoolId, [Op.or]: owners }, ...t });
    const [comments] = parent ? await Comment.update({ content: '' }, { where: { school_id: schoolId, parent_id: parent.id }, ...t }) : [0];
    await Admission.update({ submitted: { erased: true } }, { where: { school_id: schoolId, student_id: studentId }, ...t });
    const threadWhere = { school_id: schoolId, [Op.or]: [{ student_id: studentId }, ...(parentGoes ? [{ parent_id: parent!.id }] : [])] };
    const threadIds = (await WriteToRequest.findAll({ where: threadWhere, attributes: ['id'], raw: true, transaction })).map((r) => r.id);
    if (threadIds.length) {
      await WriteToRequest.update({ subject: ERASED, message: ERASED }, { where: { school_id: schoolId, id: threadIds }, ...t });
      await WriteToReply.update({ message: ERASED }, { where: { school_id: schoolId, write_to_id: threadIds }, ...t });
    }
    if (parentGoes) {
      await Parent.update(
        { father_name: `Erased parent ${parent!.id}`, mother_name: null, phone_no: `erased-${parent!.id}`, email: null, pin_hash: null, pin_setup_token_hash: null, pin_setup_expires_at: null },
        { where: { id: parent!.id, school_id: schoolId }, ...t },
      );
      await WriteToReply.update({ author_name: null }, { where: { school_id: schoolId, author_type: 'parent', author_id: parent!.id }, ...t });
      await ctx.db.sequelize.query('UPDATE sessions SET active = :inactive, revoked_at = :now, fcm_token = NULL WHERE school_id = :school AND user_type = :type AND user_id = :user AND active = :active', {
        replacements: { inactive: false, active: true, now: sqlTime(ctx.db.dialect, now), school: schoolId, type: 'parent', user: parent!.id }, type: QueryTypes.UPDATE, transaction,
      });
    }
    const mentions = (column: string) => names.map((n) => ({ [column]: { [Op.substring]: n } }));
    await Notification.update({ title: ERASED, body: ERASED, address: null }, {
      where: { school_id: schoolId, [Op.or]: [...(parentGoes ? [{ target_type: 'parent', target_id: parent!.id }] : []), ...mentions('title'), ...mentions('body')] }, ...t,
    });
    await blankTrail(schoolId, { studentId, parentId: parentGoes ? parent!.id : null, threadIds, names }, transaction);
    const erased = { students: 1, parents: parentGoes ? 1 : 0, comments, addresses };
    await recordAudit([{ schoolId, action: 'student.erase', entityType: 'student', entityId: studentId, changes: { erased: [null, erased] } }], transaction);
    return { erased };
  });
}

/** The trail keeps its events about the erased people, without what they said about them. */
async function blankTrail(schoolId: string, about: { studentId: number; parentId: number | null; threadIds: number[]; names: string[] }, transaction: Transaction) {
  const t = { transaction, hooks: false } as const;
  const theirs = [
    { entity_type: 'student', entity_id: String(about.studentId) },
    ...(about.parentId !== null ? [{ entity_type: 'parent', entity_id: String(about.parentId) }, { actor_type: 'parent', actor_id: String(about.parentId) }] : []),
    ...(about.threadIds.length ? [{ entity_type: 'write_to', entity_id: about.threadIds.map(String) }] : []),
    ...about.names.map((n) => ({ changes: { [Op.substring]: n } })),
  ];
  await AuditEvent.update({ changes: null }, { where: { school_id: schoolId, [Op.or]: theirs }, ...t });
  if (about.parentId !== null) {
    await AuditEvent.update({ actor_name: null }, { where: { school_id: schoolId, actor_type: 'parent', actor_id: String(about.parentId) }, ...t });
  }
}

/** POST /web-app/students/:id/erase (super_admin). */
export async function eraseStudentFor(ctx: AppContext, principal: Principal, studentId: number, input: z.input<typeof eraseInput>) {
  requireRole(principal, 'super_admin');
  const { confirm } = parseInput(eraseInput, input);
  return eraseStudent(ctx, principal.schoolId, studentId, confirm);
}

/** The maintenance job: students archived longer than RETENTION_ARCHIVED_DAYS are erased, as the system. */
export async function eraseExpiredArchives(ctx: AppContext, now: Date = new Date(), stopping: () => boolean = () => false): Promise<number> {
  const days = ctx.config.retentionArchivedDays;
  if (days <= 0) return 0;
  const due = await ctx.db.select<{ id: number; school_id: string }>(
    "SELECT id, school_id FROM students WHERE status = 'archived' AND archived_at <= :cutoff AND erased_at IS NULL ORDER BY archived_at, id LIMIT 500",
    { cutoff: new Date(now.getTime() - days * 86_400_000) },
  );
  let erased = 0;
  for (const s of due) {
    if (stopping()) break;
    await actingAs({ door: 'job', actorType: 'system' }, () => eraseStudent(ctx, s.school_id, Number(s.id), null));
    erased++;
  }
  return erased;
}
