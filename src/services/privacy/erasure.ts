import { Op, type Model, type ModelStatic, type Transaction, type WhereOptions } from 'sequelize';
import { z } from 'zod';
import type { AppContext, Principal } from '../../context.js';
import { conflict, fieldError, notFound } from '../../errors.js';
import type { AuditEntityType } from '../../models/audit-event.js';
import {
  Address, Admission, Attachment, AuditEvent, CalendarFeed, Comment, LinkToken, LoginLockout, Notification, Parent, Session, Student, WebhookDelivery, WriteToReply,
  WriteToRequest,
} from '../../models/index.js';
import { assertInSchool } from '../access/found.js';
import { requireRole } from '../access/guards.js';
import { actingAs } from '../audit/context.js';
import { recordAudit } from '../audit/audit.js';
import { blankResponses } from '../forms/erasure.js';
import { parseInput } from '../validation.js';
import { deleteAttachments } from '../attachments/removal.js';

export const eraseInput = z.object({ confirm: z.string().trim().min(1).max(64).describe("The student's roll number, typed to confirm") });

export interface ErasureCounts {
  students: number;
  parents: number;
  comments: number;
  addresses: number;
  attachments: number;
}

const ERASED = '[erased]';

/**
 * Erases an archived student (and their parent when no other child of the school, erased ones aside,
 * links them): their personal fields are replaced, their addresses deleted, the content of the
 * parent's comments blanked, the attachments of their requests and replies (and every upload of an
 * erased parent) deleted, and every other record that carried their personal data (the
 * admission's stored form, write-to threads, notifications, webhook deliveries, the text answers,
 * signatures, ips and user agents of their form responses, the parent's sessions' device details,
 * sign-in lock-outs and calendar feed, the audit trail's changes, names and ips) blanked too. Ids,
 * counts and the audit events themselves stay. The writes bypass the audit capture, which would copy
 * the data being erased into the trail: one `student.erase` event records the erasure instead.
 * `confirm` is the roll number typed by the person erasing; the retention job passes null.
 */
export async function eraseStudent(ctx: AppContext, schoolId: string, studentId: number, confirm: string | null): Promise<{ erased: ErasureCounts }> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const student = await Student.findOne({ where: { id: studentId, school_id: schoolId }, transaction });
    if (!student) throw notFound('Student');
    if (student.status !== 'archived') throw conflict(`Only an archived student can be erased; this one is ${student.status}`);
    if (confirm !== null && confirm !== student.roll_no) throw fieldError('confirm', "does not match the student's roll number");
    const t = { transaction, hooks: false } as const;
    const ids = async (model: ModelStatic<Model>, where: WhereOptions) =>
      ((await model.findAll({ where, attributes: ['id'], raw: true, transaction })) as unknown as Array<{ id: number }>).map((r) => Number(r.id));
    const now = new Date();
    const traces = [student.student_full_name, student.phone_no];
    const parentId = student.parent_id;
    const parent = parentId === null ? null : await Parent.findOne({ where: { id: parentId, school_id: schoolId }, transaction });
    // An erased sibling is no longer a child the parent is kept for.
    const parentGoes = parent !== null
      && (await Student.count({ where: { school_id: schoolId, parent_id: parent.id, id: { [Op.ne]: studentId }, erased_at: null }, transaction })) === 0;
    if (parentGoes) traces.push(parent!.father_name, parent!.mother_name, parent!.phone_no, parent!.email);
    const names = [...new Set(traces.filter((v): v is string => typeof v === 'string' && v.trim().length >= 3))];

    await Student.update(
      { student_full_name: `Erased student ${studentId}`, date_of_birth: null, blood_group: null, phone_no: null, gender: null, erased_at: now },
      { where: { id: studentId, school_id: schoolId }, ...t },
    );
    const owners = [{ owner_type: 'student', owner_id: studentId }, ...(parentGoes ? [{ owner_type: 'parent', owner_id: parent!.id }] : [])];
    const addresses = await Address.destroy({ where: { school_id: schoolId, [Op.or]: owners }, ...t });
    const commentIds = parent ? await ids(Comment, { school_id: schoolId, parent_id: parent.id }) : [];
    if (commentIds.length) await Comment.update({ content: '' }, { where: { school_id: schoolId, id: commentIds }, ...t });
    const admissionIds = await ids(Admission, { school_id: schoolId, student_id: studentId });
    if (admissionIds.length) await Admission.update({ submitted: { erased: true } }, { where: { school_id: schoolId, id: admissionIds }, ...t });
    const threadIds = await ids(WriteToRequest, { school_id: schoolId, [Op.or]: [{ student_id: studentId }, ...(parentGoes ? [{ parent_id: parent!.id }] : [])] });
    const replyIds = threadIds.length ? await ids(WriteToReply, { school_id: schoolId, write_to_id: threadIds }) : [];
    if (threadIds.length) {
      await WriteToRequest.update({ subject: ERASED, message: ERASED, attachment_ids: null }, { where: { school_id: schoolId, id: threadIds }, ...t });
      await WriteToReply.update({ message: ERASED, attachment_ids: null }, { where: { school_id: schoolId, write_to_id: threadIds }, ...t });
    }
    // The files of their requests and replies, and whatever an erased parent uploaded; recorded without their names.
    const attachmentOwners = [
      ...(threadIds.length ? [{ entity_type: 'write_to', entity_id: threadIds }] : []),
      ...(replyIds.length ? [{ entity_type: 'write_to_reply', entity_id: replyIds }] : []),
      ...(parentGoes ? [{ uploader_type: 'parent', uploader_id: parent!.id }] : []),
    ];
    const attachmentIds = attachmentOwners.length ? await ids(Attachment, { school_id: schoolId, deleted_at: null, [Op.or]: attachmentOwners }) : [];
    const attachments = (await deleteAttachments(ctx, { schoolId, ids: attachmentIds }, transaction, { recordChanges: false })).length;
    let sessionIds: number[] = [];
    if (parentGoes) {
      await Parent.update(
        {
          father_name: `Erased parent ${parent!.id}`, mother_name: null, phone_no: `erased-${parent!.id}`, email: null, unverified_email: null, pin_hash: null,
          pin_setup_token_hash: null, pin_setup_expires_at: null,
        },
        { where: { id: parent!.id, school_id: schoolId }, ...t },
      );
      await WriteToReply.update({ author_name: null }, { where: { school_id: schoolId, author_type: 'parent', author_id: parent!.id }, ...t });
      sessionIds = await ids(Session, { school_id: schoolId, user_type: 'parent', user_id: parent!.id });
      if (sessionIds.length) {
        await Session.update({ active: false, revoked_at: now }, { where: { id: sessionIds, active: true }, ...t });
        await Session.update({ fcm_token: null, device_id: null, device_name: null, user_agent: null, ip: null }, { where: { id: sessionIds }, ...t });
      }
      await forgetLockouts(schoolId, parent!, transaction);
      await CalendarFeed.destroy({ where: { school_id: schoolId, parent_id: parent!.id }, transaction, hooks: false });
      // Their post pages, unsubscribe links and address confirmations (which hold the address too).
      await LinkToken.destroy({ where: { school_id: schoolId, parent_id: parent!.id }, transaction, hooks: false });
    }
    const responseIds = await blankResponses(schoolId, { studentId, parentId: parentGoes ? parent!.id : null, names }, transaction);
    const mentions = (column: string) => names.map((n) => ({ [column]: { [Op.substring]: n } }));
    const theirNotifications = [...(parentGoes ? [{ target_type: 'parent', target_id: parent!.id }] : []), ...mentions('title'), ...mentions('body')];
    // An empty OR would match every notification of the school.
    const notificationIds = theirNotifications.length ? await ids(Notification, { school_id: schoolId, [Op.or]: theirNotifications }) : [];
    if (notificationIds.length) await Notification.update({ title: ERASED, body: ERASED, address: null }, { where: { school_id: schoolId, id: notificationIds }, ...t });
    const about = { studentId, parentId: parentGoes ? parent!.id : null, names };
    await redactDeliveries(schoolId, { ...about, threadIds, admissionIds }, transaction);
    await blankTrail(schoolId, about, [
      ['comment', commentIds], ['admission', admissionIds], ['write_to', threadIds], ['session', sessionIds], ['notification', notificationIds],
      ['form_response', responseIds], ['attachment', attachmentIds],
    ], transaction);
    const erased = { students: 1, parents: parentGoes ? 1 : 0, comments: commentIds.length, addresses, attachments };
    await recordAudit([{ schoolId, action: 'student.erase', entityType: 'student', entityId: studentId, changes: { erased: [null, erased] } }], transaction);
    return { erased };
  });
}

interface Erased {
  studentId: number;
  /** The parent when they are erased too. */
  parentId: number | null;
  /** Their names, phones and e-mail, as text that may be quoted elsewhere. */
  names: string[];
}

/**
 * The trail keeps its events about the erased people and about every record the erasure blanked
 * (found by entity, so a comment's text goes even when its parent stays), without what they said.
 */
async function blankTrail(schoolId: string, about: Erased, blanked: Array<[AuditEntityType, number[]]>, transaction: Transaction) {
  const t = { transaction, hooks: false } as const;
  const theirs = [
    { entity_type: 'student', entity_id: String(about.studentId) },
    ...(about.parentId !== null ? [
      { entity_type: 'parent', entity_id: String(about.parentId) }, { entity_type: 'preference', entity_id: String(about.parentId) }, { actor_type: 'parent', actor_id: String(about.parentId) },
    ] : []),
    ...blanked.filter(([, list]) => list.length).map(([type, list]) => ({ entity_type: type, entity_id: list.map(String) })),
    ...about.names.map((n) => ({ changes: { [Op.substring]: n } })),
  ];
  await AuditEvent.update({ changes: null }, { where: { school_id: schoolId, [Op.or]: theirs }, ...t });
  if (about.parentId !== null) {
    await AuditEvent.update({ actor_name: null, ip: null }, { where: { school_id: schoolId, actor_type: 'parent', actor_id: String(about.parentId) }, ...t });
  }
}

/**
 * The school's webhook deliveries of events about the erased people keep their envelope and the
 * ids in their data, not what the event said of them; one still to be sent goes out so redacted.
 */
async function redactDeliveries(schoolId: string, about: Erased & { threadIds: number[]; admissionIds: number[] }, transaction: Transaction) {
  const { studentId, parentId, threadIds, admissionIds, names } = about;
  const candidates = [
    `"student_id":${studentId}`, `"entity_id":${studentId}`, ...(parentId !== null ? [`"parent_id":${parentId}`] : []),
    ...[...threadIds, ...admissionIds].map((id) => `"entity_id":${id}`), ...names.map((n) => JSON.stringify(n).slice(1, -1)),
  ];
  const rows = await WebhookDelivery.findAll({
    where: { school_id: schoolId, [Op.or]: candidates.map((c) => ({ payload: { [Op.substring]: c } })) }, attributes: ['id', 'payload'], raw: true, transaction,
  });
  const isAbout = (data: Record<string, unknown>, text: string) =>
    (data.entity_type === 'student' && data.entity_id === studentId) || data.student_id === studentId || (parentId !== null && data.parent_id === parentId)
    || (data.entity_type === 'write_to' && threadIds.includes(data.entity_id as number)) || (data.entity_type === 'admission' && admissionIds.includes(data.entity_id as number))
    || names.some((n) => text.includes(JSON.stringify(n).slice(1, -1)));
  const redacted = new Map<string, number[]>();
  for (const row of rows) {
    const body = JSON.parse(row.payload) as { data?: Record<string, unknown> };
    const data = body.data ?? {};
    if (!isAbout(data, row.payload)) continue;
    const ids = Object.entries(data).filter(([k, v]) => k === 'entity_type' || ((k === 'id' || k.endsWith('_id')) && (typeof v === 'number' || v === null)));
    const payload = JSON.stringify({ ...body, data: { ...Object.fromEntries(ids), erased: true } });
    redacted.set(payload, [...(redacted.get(payload) ?? []), row.id]);
  }
  for (const [payload, rowIds] of redacted) await WebhookDelivery.update({ payload }, { where: { school_id: schoolId, id: rowIds }, transaction, hooks: false });
}

/**
 * Failed sign-ins are counted under the parent's phone: this school's count goes, and the one kept
 * across schools unless the phone is still another account's.
 */
async function forgetLockouts(schoolId: string, parent: Parent, transaction: Transaction) {
  const key = `parent:${parent.phone_no}`;
  const shared = (await Parent.count({ where: { phone_no: parent.phone_no, id: { [Op.ne]: parent.id } }, transaction })) > 0;
  await LoginLockout.destroy({ where: { account_key: key, school_id: shared ? schoolId : [schoolId, ''] }, transaction, hooks: false });
}

/** A student of the caller's school to erase (super_admin), else 404, before the confirmation is judged. */
export async function assertErasable(principal: Principal, studentId: number): Promise<void> {
  requireRole(principal, 'super_admin');
  await assertInSchool(principal, Student, 'Student', studentId);
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
