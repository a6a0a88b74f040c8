import { DataTypes, Op, type Model, type ModelStatic, type WhereOptions } from 'sequelize';
import type { Principal } from '../../context.js';
import { day, iso, parseJson } from '../../db.js';
import { forbidden, notFound } from '../../errors.js';
import { jsonColumnsOf } from '../../models/columns.js';
import {
  Address, Admission, Attachment, Attendance, AuditEvent, Comment, DiaryEntry, FormResponse, GroupMember, NotificationPreference, Notification, Parent, Reaction, Read, School,
  Session, Student, WriteToReply, WriteToRequest,
} from '../../models/index.js';
import { requireRole } from '../access/guards.js';
import { auditView } from '../audit/audit-log.js';
import { concealedMessage } from '../notifications/notifications.js';
import { preferencesOf } from '../notifications/preferences.js';
import { emailVerified } from '../parents/profile.js';

/** Columns that hold a secret (a hash, a token, a device address): never exported. */
const SECRET_COLUMNS = new Set(['pin_hash', 'pin_setup_token_hash', 'password_hash', 'token_hash', 'fcm_token', 'address_token']);

type Row = Record<string, unknown>;

/**
 * How each date or JSON column of a raw row is written: raw rows carry SQLite's stored text or MySQL's
 * Date, so the column's type, not the value, says whether it is a timestamp or a day; a JSON column
 * holds its text.
 */
function columnFormats(model: ModelStatic<Model>): Map<string, (v: unknown) => unknown> {
  const formats = new Map<string, (v: unknown) => unknown>();
  for (const [name, a] of Object.entries(model.getAttributes())) {
    if (a.type instanceof DataTypes.DATEONLY) formats.set(name, day);
    else if (a.type instanceof DataTypes.DATE) formats.set(name, iso);
  }
  for (const name of jsonColumnsOf(model)) formats.set(name, (v) => (typeof v === 'string' ? parseJson(v) : v));
  return formats;
}

function clean(row: Row, formats: Map<string, (v: unknown) => unknown>): Row {
  const out: Row = {};
  for (const [k, v] of Object.entries(row)) if (!SECRET_COLUMNS.has(k)) out[k] = formats.has(k) ? formats.get(k)!(v) : v;
  return out;
}

async function rows(model: ModelStatic<Model>, where: WhereOptions, exclude: string[] = []): Promise<Row[]> {
  const found = (await model.findAll({ where, order: [['id', 'ASC']], raw: true, attributes: { exclude } })) as unknown as Row[];
  const formats = columnFormats(model);
  return found.map((row) => clean(row, formats));
}

const pick = (row: Row, keys: string[]): Row => Object.fromEntries(keys.map((k) => [k, row[k] ?? null]));

export interface People {
  schoolId: string;
  studentIds: number[];
  parentIds: number[];
}

/**
 * Everything the school holds about some students and their parents (an access request), as one
 * document: every record that names them, and the audit events about them or by them. No secret:
 * hashes, tokens, device addresses and the text of SMS set-up links are left out.
 */
export async function exportPeople(people: People) {
  const { schoolId, studentIds: s, parentIds: p } = people;
  const school = await School.findByPk(schoolId, { attributes: ['id', 'name'], raw: true });
  if (!school) throw notFound('School');
  const inSchool = (extra: WhereOptions): WhereOptions => ({ [Op.and]: [{ school_id: schoolId }, extra] });
  const threads = await rows(WriteToRequest, inSchool({ [Op.or]: [{ student_id: s }, { parent_id: p }] }));
  const replies = await rows(WriteToReply, inSchool({ write_to_id: threads.map((t) => t.id as number) }));
  // The files of their requests and replies, and their uploads not yet attached: what each is, never its bytes or a URL.
  const attachments = await rows(
    Attachment,
    inSchool({
      deleted_at: null,
      [Op.or]: [
        { entity_type: 'write_to', entity_id: threads.map((t) => t.id as number) },
        { entity_type: 'write_to_reply', entity_id: replies.map((r) => r.id as number) },
        { uploader_type: 'parent', uploader_id: p, entity_id: null },
      ],
    }),
  );
  const notifications = (await rows(Notification, inSchool({ target_type: 'parent', target_id: p }), ['address'])).map((n) => {
    if (!concealedMessage.applies(n)) return n;
    const out = { ...n };
    for (const f of concealedMessage.fields) if (out[f] != null) out[f] = concealedMessage.text;
    return out;
  });
  const audit = (await AuditEvent.findAll({
    where: inSchool({
      [Op.or]: [
        { entity_type: 'student', entity_id: s.map(String) }, { entity_type: 'parent', entity_id: p.map(String) }, { actor_type: 'parent', actor_id: p.map(String) },
        // A parent's preferences are theirs whoever changed them (an unsubscribe link, Twilio's 21610).
        { entity_type: 'preference', entity_id: p.map(String) },
      ],
    }),
    order: [['id', 'ASC']], raw: true,
  })).map(auditView);
  const parents = (await rows(Parent, inSchool({ id: p }))).map((row): Row => ({
    ...row, email_verified: emailVerified({ email: (row.email as string | null) ?? null, unverified_email: (row.unverified_email as string | null) ?? null }),
  }));
  const preferenceRows = await rows(NotificationPreference, inSchool({ parent_id: p }));
  return {
    exported_at: new Date().toISOString(),
    school: { id: school.id, name: school.name },
    students: await rows(Student, inSchool({ id: s })),
    parents,
    // Each parent's, as the app shows them (everything on without a stored row).
    preferences: parents.map((parent) => ({ parent_id: parent.id as number, ...preferencesOf(preferenceRows.find((r) => r.parent_id === parent.id)) })),
    addresses: await rows(Address, inSchool({ [Op.or]: [{ owner_type: 'student', owner_id: s }, { owner_type: 'parent', owner_id: p }] })),
    admissions: await rows(Admission, inSchool({ [Op.or]: [{ student_id: s }, { parent_id: p }] })),
    write_to: threads.map((t) => ({ ...t, replies: replies.filter((r) => r.write_to_id === t.id) })),
    comments: await rows(Comment, inSchool({ parent_id: p })),
    reactions: await rows(Reaction, inSchool({ parent_id: p })),
    reads: await rows(Read, inSchool({ parent_id: p })),
    attendance: await rows(Attendance, inSchool({ student_id: s })),
    diary: await rows(DiaryEntry, inSchool({ student_id: s })),
    form_responses: await rows(FormResponse, inSchool({ [Op.or]: [{ student_id: s }, { parent_id: p }] }), ['respondent']),
    attachments: attachments.map((a) => pick(a, ['id', 'name', 'content_type', 'size', 'width', 'height', 'created_at', 'entity_type', 'entity_id'])),
    groups: await rows(GroupMember, inSchool({ student_id: s })),
    notifications,
    sessions: await rows(Session, inSchool({ user_type: 'parent', user_id: p })),
    audit_events: audit,
  };
}

export type DataExport = Awaited<ReturnType<typeof exportPeople>>;

/** A student and the parent linked to them: whom a student's export is about. */
export async function studentPeople(schoolId: string, studentId: number): Promise<People> {
  const student = await Student.findOne({ where: { id: studentId, school_id: schoolId }, attributes: ['id', 'parent_id'], raw: true });
  if (!student) throw notFound('Student');
  return { schoolId, studentIds: [student.id], parentIds: student.parent_id === null ? [] : [student.parent_id] };
}

/** GET /web-app/students/:id/export (super_admin). */
export async function exportStudent(principal: Principal, studentId: number): Promise<DataExport> {
  requireRole(principal, 'super_admin');
  return exportPeople(await studentPeople(principal.schoolId, studentId));
}

/** GET /parent-app/my-data: the parent and every child linked to them, archived ones included. */
export async function exportMyData(principal: Principal): Promise<DataExport> {
  if (principal.type !== 'parent') throw forbidden('This is for parents');
  const children = await Student.findAll({ where: { school_id: principal.schoolId, parent_id: principal.userId }, attributes: ['id'], raw: true });
  return exportPeople({ schoolId: principal.schoolId, studentIds: children.map((c) => c.id), parentIds: [principal.userId] });
}
