import { QueryTypes, UniqueConstraintError, type Transaction } from 'sequelize';
import { z } from 'zod';
import { anyFieldOf, pin, schoolIdField } from '../schemas.js';
import type { AppContext } from '../../context.js';
import { day, iso, writeIn } from '../../db.js';
import { conflict, fieldError, notFound } from '../../errors.js';
import { Address, Admission, Parent, School, Student } from '../../models/index.js';
import { e164 } from '../../push/phone.js';
import { INVALID_PHONE } from '../delivery/channel-choice.js';
import { PIN_SETUP_EVENT } from '../delivery/compose.js';
import { pinSetupSms } from '../delivery/content.js';
import type { StudentStatus } from '../../models/student.js';
import { enqueue, type OutboxItem } from '../../push/outbox.js';
import { hashSecretValue } from '../auth/passwords.js';
import { endUserSessions } from '../auth/sessions.js';
import { hashSecret, newSecret } from '../auth/tokens.js';
import { findOrCreateParentByPhone, parentFields, parentPhoneRace, type ParentFields } from '../parents/parents.js';
import { transactionWithRetry, violates } from '../transactions.js';
import { SCHOOL_ID_PATTERN } from '../schools/schools.js';
import { addressInput } from '../staff/staff.js';
import { assertGrade, assertSchoolOpen } from '../students/grades.js';
import { rollNoConflict, rollNoInput, someField, studentFields } from '../students/students.js';
import { emitWebhookEvent, eventData } from '../webhooks/events.js';
import { parseInput } from '../validation.js';
import { recordAudit, REDACTED } from '../audit/audit.js';

export const PIN_SETUP_DAYS = 7;

const keys = {
  school_id: schoolIdField(),
  admission_token: z.string().min(1).max(300).describe('Given by the admission form'),
};

const addressList = () => z.array(addressInput).max(10);

export const admissionInput = z.object({
  school_id: schoolIdField(),
  student: z.object({ ...studentFields, roll_no: rollNoInput().nullable().optional().describe('Unique in the school; the next free number when not given') }),
  parent: z.object(parentFields),
  addresses: addressList().default([]),
});

const sectionFields = <T extends z.ZodRawShape>(shape: T) => z.object(shape).refine(someField, 'send at least one field to change').meta(anyFieldOf(Object.keys(shape)));

export const admissionUpdateInput = z.discriminatedUnion('section', [
  z.object({
    ...keys,
    section: z.literal('student'),
    data: sectionFields({
      student_full_name: studentFields.student_full_name.optional(), gender: studentFields.gender, grade: studentFields.grade.optional(),
      date_of_birth: studentFields.date_of_birth, blood_group: studentFields.blood_group,
    }),
  }),
  z.object({ ...keys, section: z.literal('parent'), data: sectionFields({ ...parentFields, phone_no: parentFields.phone_no.optional() }) }),
  z.object({
    ...keys,
    section: z.literal('addresses'),
    data: z
      .union([addressList(), z.object({ addresses: addressList() })])
      .transform((d) => (Array.isArray(d) ? d : d.addresses))
      .describe('The whole new list, as an array or as {addresses: [...]}'),
  }),
]);

export const admissionInfoInput = z.object(keys);
export const setPinInput = z.object({ token: z.string().min(1).max(300).describe('From the set-up link'), pin: pin() });

export type AdmissionInput = z.input<typeof admissionInput>;
export type AdmissionUpdate = z.input<typeof admissionUpdateInput>;
type AdmissionAddress = z.output<typeof addressInput>;

export interface PinSetupLink {
  url: string;
  expires_at: string;
}

/**
 * Tokens handed to applicants and parents name their school, `<school_id>.<secret>`: every lookup is
 * by (school_id, hash of the secret), as the sharding by school_id needs. School ids hold no dot.
 */
const schoolToken = (schoolId: string, secret: string) => `${schoolId}.${secret}`;

function parseSchoolToken(token: string): { schoolId: string; hash: string } | null {
  const dot = token.indexOf('.');
  const schoolId = token.slice(0, dot);
  const secret = token.slice(dot + 1);
  if (dot < 0 || !SCHOOL_ID_PATTERN.test(schoolId) || !/^[A-Za-z0-9_-]{32,128}$/.test(secret)) return null;
  return { schoolId, hash: hashSecret(secret) };
}

export interface PinSetup extends PinSetupLink {
  fields: ParentFields;
}

/** A one-time PIN set-up link for a new parent: its token's hash goes on the parent, the link to their phone. */
export function newPinSetup(ctx: AppContext, schoolId: string): PinSetup {
  const secret = newSecret();
  const expiresAt = new Date(Date.now() + PIN_SETUP_DAYS * 86_400_000);
  return {
    url: `${ctx.config.publicAppUrl}/set-pin?token=${schoolToken(schoolId, secret)}`,
    expires_at: expiresAt.toISOString(),
    fields: { pin_setup_token_hash: hashSecret(secret), pin_setup_expires_at: expiresAt },
  };
}

/**
 * The SMS carrying a new parent's set-up link, past every preference, quiet hours and the monthly
 * limit; `why` says how the school came to know them. It names the school (cut when needed) in at
 * most 320 characters. The phone is read with the school's country; one libphonenumber finds invalid
 * fails the record at once.
 */
export function pinSetupMessage(
  ctx: AppContext, school: { name: string; country: string | null }, parent: Pick<Parent, 'id' | 'school_id' | 'phone_no'>, studentId: number, setup: PinSetupLink, why: string,
): OutboxItem {
  const to = e164(parent.phone_no, school.country ?? ctx.config.smsDefaultCountry);
  return {
    school_id: parent.school_id, event: PIN_SETUP_EVENT, channel: 'sms', entity_type: 'student', entity_id: studentId,
    target_type: 'parent', target_id: parent.id, address: to ?? parent.phone_no, title: 'Set your parent app PIN',
    body: pinSetupSms(school.name, why, PIN_SETUP_DAYS, setup.url),
    ...(to ? {} : { status: 'failed' as const, last_error: INVALID_PHONE }),
  };
}

/** The set-up link goes out by SMS through the outbox, in the transaction that created the parent. */
async function sendPinSetup(
  ctx: AppContext, school: { id: string; name: string }, parent: Parent, studentId: number, setup: PinSetup, transaction: Transaction,
  why = "your child's admission form was received",
) {
  const { country } = (await School.findByPk(school.id, { attributes: ['country'], raw: true, transaction })) ?? { country: null };
  await enqueue([pinSetupMessage(ctx, { name: school.name, country }, parent, studentId, setup, why)], transaction);
}

/** The next free numeric roll number of the school; a concurrent admission taking it too loses on the unique key and retries. */
async function nextRollNo(ctx: AppContext, schoolId: string, transaction: Transaction): Promise<string> {
  const sql = ctx.db.dialect === 'mysql'
    ? "SELECT MAX(CAST(roll_no AS UNSIGNED)) AS n FROM students WHERE school_id = :school AND roll_no REGEXP '^[0-9]{1,9}$'"
    : "SELECT MAX(CAST(roll_no AS INTEGER)) AS n FROM students WHERE school_id = :school AND roll_no <> '' AND length(roll_no) <= 9 AND roll_no NOT GLOB '*[^0-9]*'";
  const [row] = await ctx.db.sequelize.query<{ n: number | string | null }>(sql, { replacements: { school: schoolId }, type: QueryTypes.SELECT, transaction });
  return String(Number(row?.n ?? 0) + 1);
}

const addressRows = (schoolId: string, studentId: number, addresses: AdmissionAddress[]) =>
  addresses.map((a) => ({
    school_id: schoolId, owner_type: 'student' as const, owner_id: studentId, address_type: a.address_type, address: a.address,
    city: a.city ?? null, pincode: a.pincode ?? null,
  }));

export type Enrolment = z.output<typeof admissionInput>;

/**
 * A student with their guardian and addresses, in the caller's transaction: the parent is found by
 * phone (their PIN kept), or created without one, their set-up link going out by SMS (`why` says
 * how the school came to know them). The roll number is the next free one when none is given.
 */
async function enrol(
  ctx: AppContext, school: { id: string; name: string }, input: Pick<Enrolment, 'student' | 'parent' | 'addresses'>, status: StudentStatus, setup: PinSetup,
  why: string | undefined, transaction: Transaction,
): Promise<{ student: Student; parent: Parent; created: boolean }> {
  await assertGrade(school.id, input.student.grade, transaction, 'student.grade');
  const { parent, created } = await findOrCreateParentByPhone(
    school.id,
    input.parent.phone_no,
    { father_name: input.parent.father_name ?? null, mother_name: input.parent.mother_name ?? null, email: input.parent.email ?? null, ...setup.fields },
    transaction,
  );
  const s = input.student;
  const student = await Student.create(
    {
      school_id: school.id, parent_id: parent.id, student_full_name: s.student_full_name, gender: s.gender ?? null, grade: s.grade,
      date_of_birth: s.date_of_birth ?? null, blood_group: s.blood_group ?? null, phone_no: parent.phone_no,
      roll_no: s.roll_no || (await nextRollNo(ctx, school.id, transaction)), status,
    },
    { transaction },
  );
  if (input.addresses.length > 0) await Address.bulkCreate(addressRows(school.id, student.id, input.addresses), { transaction });
  if (created) await sendPinSetup(ctx, school, parent, student.id, setup, transaction, why);
  return { student, parent, created };
}

/**
 * Runs an enrolment in one transaction, again when a concurrent one took its parent's phone or its
 * automatic roll number first; a roll number given and taken is 409 naming `rollNoField`.
 */
export async function enrolWithRetry<T>(
  ctx: AppContext, input: Pick<Enrolment, 'student'>, work: (transaction: Transaction) => Promise<T>, rollNoField = 'student.roll_no',
): Promise<T> {
  const autoRoll = !input.student.roll_no;
  const race = (err: UniqueConstraintError) => parentPhoneRace(err) || (autoRoll && violates(err, 'students_school_roll_uq', 'students.roll_no'));
  try {
    return await transactionWithRetry(ctx, work, race);
  } catch (err) {
    throw rollNoConflict(err, rollNoField);
  }
}

/** A student the school office adds, with their guardian (POST /web-app/students and the console's New student). */
export async function enrolByOffice(
  ctx: AppContext, schoolId: string, input: Pick<Enrolment, 'student' | 'parent' | 'addresses'>, status: StudentStatus,
): Promise<{ student: Student; parent: Parent; pin_setup?: PinSetupLink }> {
  const school = await assertSchoolOpen(schoolId);
  const setup = newPinSetup(ctx, schoolId);
  return enrolWithRetry(ctx, input, async (transaction) => {
    const { student, parent, created } = await enrol(ctx, school, input, status, setup, 'the school office added your child', transaction);
    return { student, parent, ...(created ? { pin_setup: { url: setup.url, expires_at: setup.expires_at } } : {}) };
  });
}

export interface AdmissionResult {
  student_id: number;
  parent_id: number;
  roll_no: string;
  status: 'registered';
  admission_token: string;
  pin_setup?: PinSetupLink;
}

/**
 * The public admission form, all or nothing in one transaction: the parent (found by phone, or created
 * with a one-time PIN set-up link that also goes to the SMS outbox), the student as `registered`, its
 * addresses and the admission record, and the school's webhooks the event. A failure in any part
 * leaves no row behind.
 */
export async function submitAdmission(ctx: AppContext, raw: AdmissionInput): Promise<AdmissionResult> {
  const input = parseInput(admissionInput, raw);
  const schoolId = input.school_id;
  const school = await assertSchoolOpen(schoolId);
  const admissionSecret = newSecret();
  const setup = newPinSetup(ctx, schoolId);
  return enrolWithRetry(ctx, input, async (transaction) => {
    const { student, parent, created } = await enrol(ctx, school, input, 'registered', setup, undefined, transaction);
    const admission = await Admission.create(
      { school_id: schoolId, student_id: student.id, parent_id: parent.id, token_hash: hashSecret(admissionSecret), submitted: { ...input } },
      { transaction },
    );
    await emitWebhookEvent(schoolId, 'admission.submitted', eventData('admission', admission.id, await applicationView(admission, transaction)), transaction);
    return {
      student_id: student.id,
      parent_id: parent.id,
      roll_no: student.roll_no,
      status: 'registered' as const,
      admission_token: schoolToken(schoolId, admissionSecret),
      ...(created ? { pin_setup: { url: setup.url, expires_at: setup.expires_at } } : {}),
    };
  });
}

async function findAdmission(schoolId: string, token: string, transaction?: Transaction): Promise<Admission> {
  const parsed = parseSchoolToken(token);
  // The token names its school; one naming another school than the request's is as unknown as a wrong one.
  if (!parsed || parsed.schoolId !== schoolId) throw notFound('Admission');
  const admission = await Admission.findOne({
    where: { school_id: schoolId, token_hash: parsed.hash },
    transaction,
    ...(transaction ? { lock: transaction.LOCK.UPDATE } : {}),
  });
  if (!admission) throw notFound('Admission');
  return admission;
}

/**
 * The application as it stands, with its status, for the holder of the admission token: a token holder
 * is anyone who typed a phone number, so the parent section shows another family's account (a phone
 * that had children at the school) only as the applicant gave it, never its stored names or e-mail.
 */
export async function admissionInfo(_ctx: AppContext, schoolId: string, token: string) {
  parseInput(admissionInfoInput, { school_id: schoolId, admission_token: token });
  return applicationView(await findAdmission(schoolId, token), undefined, { applicant: true });
}

/** An application as the API shows it, read in the caller's transaction when there is one. */
async function applicationView(admission: Admission, transaction?: Transaction, options: { applicant?: boolean } = {}) {
  const schoolId = admission.school_id;
  const [student, addresses] = await Promise.all([
    Student.findOne({ where: { id: admission.student_id, school_id: schoolId }, raw: true, transaction }),
    Address.findAll({ where: { school_id: schoolId, owner_type: 'student', owner_id: admission.student_id }, order: [['id', 'ASC']], raw: true, transaction }),
  ]);
  if (!student) throw notFound('Admission');
  const parent = student.parent_id === null
    ? null
    : await Parent.findOne({ where: { id: student.parent_id, school_id: schoolId }, attributes: ['id', 'father_name', 'mother_name', 'phone_no', 'email'], raw: true, transaction });
  // The family's own account has other children: the applicant sees what they typed, not what it holds.
  const othersAccount = options.applicant && parent !== null
    && (await Student.count({ where: { school_id: schoolId, parent_id: parent.id }, transaction })) > 1;
  const given = (admission.submitted?.parent ?? {}) as Record<string, string | null | undefined>;
  return {
    student_id: Number(student.id),
    parent_id: parent ? Number(parent.id) : null,
    school_id: schoolId,
    status: student.status,
    roll_no: student.roll_no,
    submitted_at: iso(admission.created_at)!,
    student: {
      student_full_name: student.student_full_name, gender: student.gender ?? null, grade: student.grade,
      date_of_birth: day(student.date_of_birth), blood_group: student.blood_group ?? null, roll_no: student.roll_no,
    },
    parent: parent && (othersAccount
      ? { father_name: given.father_name ?? null, mother_name: given.mother_name ?? null, phone_no: parent.phone_no, email: given.email ?? null }
      : { father_name: parent.father_name, mother_name: parent.mother_name ?? null, phone_no: parent.phone_no, email: parent.email ?? null }),
    addresses: addresses.map((a) => ({ address_type: a.address_type, address: a.address, city: a.city ?? null, pincode: a.pincode == null ? null : Number(a.pincode) })),
  };
}

const defined = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/**
 * Changes one section of an application while its student is still `registered` (409 after). A new
 * phone relinks the student to that phone's parent (a new one gets its own PIN set-up link). The
 * parent's names and e-mail can be changed here only while that parent has no other child: an
 * applicant's token must not reach another family's account.
 */
export async function updateAdmissionSection(ctx: AppContext, raw: AdmissionUpdate) {
  const input = parseInput(admissionUpdateInput, raw);
  const schoolId = input.school_id;
  const school = await assertSchoolOpen(schoolId);
  const setup = newPinSetup(ctx, schoolId);
  const sent = await transactionWithRetry(ctx, async (transaction) => {
    const admission = await findAdmission(schoolId, input.admission_token, transaction);
    const student = await Student.findOne({ where: { id: admission.student_id, school_id: schoolId }, transaction, lock: transaction.LOCK.UPDATE });
    if (!student) throw notFound('Admission');
    if (student.status !== 'registered') {
      throw conflict(`The application can no longer be changed: the student is ${student.status}`);
    }
    if (input.section === 'student') {
      if (input.data.grade !== undefined) await assertGrade(schoolId, input.data.grade, transaction, 'data.grade');
      await student.update(defined(input.data), { transaction });
      return false;
    }
    if (input.section === 'addresses') {
      await Address.destroy({ where: { school_id: schoolId, owner_type: 'student', owner_id: student.id }, transaction });
      if (input.data.length > 0) await Address.bulkCreate(addressRows(schoolId, student.id, input.data), { transaction });
      return false;
    }
    const { phone_no: phone, ...fields } = input.data;
    const changes = defined(fields);
    if (phone !== undefined && phone !== student.phone_no) {
      const { parent, created } = await findOrCreateParentByPhone(schoolId, phone, { ...changes, ...setup.fields }, transaction);
      await student.update({ parent_id: parent.id, phone_no: parent.phone_no }, { transaction });
      await admission.update({ parent_id: parent.id }, { transaction });
      if (created) {
        await sendPinSetup(ctx, school, parent, student.id, setup, transaction);
        return true;
      }
    }
    if (Object.keys(changes).length === 0 || student.parent_id === null) return false;
    const others = await Student.count({ where: { school_id: schoolId, parent_id: student.parent_id }, transaction });
    if (others > 1) {
      throw conflict('This parent account is linked to other children too; the school office can change its details');
    }
    // An address given on the admission form counts as verified.
    await Parent.update({ ...changes, ...(changes.email !== undefined ? { unverified_email: null } : {}) }, { where: { id: student.parent_id, school_id: schoolId }, transaction });
    return false;
  }, parentPhoneRace);
  const info = await admissionInfo(ctx, schoolId, input.admission_token);
  return sent ? { ...info, pin_setup: { url: setup.url, expires_at: setup.expires_at } } : info;
}

/**
 * Sets a new parent's PIN with the one-time link of the admission: usable once (the update that sets
 * the PIN clears the token in the same statement), for 7 days. An unknown or used link answers 404.
 */
export async function setPinWithToken(ctx: AppContext, token: string, pin: string): Promise<{ parent_id: number; school_id: string }> {
  parseInput(setPinInput, { token, pin });
  const parsed = parseSchoolToken(token);
  if (!parsed) throw notFound('Set-up link');
  const parent = await Parent.findOne({
    where: { school_id: parsed.schoolId, pin_setup_token_hash: parsed.hash },
    attributes: ['id', 'pin_setup_expires_at'],
    raw: true,
  });
  if (!parent) throw notFound('Set-up link');
  const now = new Date();
  if (!parent.pin_setup_expires_at || new Date(iso(parent.pin_setup_expires_at)!).getTime() <= now.getTime()) {
    throw fieldError('token', 'has expired; ask the school to reset your PIN');
  }
  const pinHash = await hashSecretValue(pin);
  const used = await ctx.db.sequelize.transaction(async (transaction) => {
    const n = await writeIn(ctx.db, transaction,
      `UPDATE parents SET pin_hash = :pin, pin_setup_token_hash = NULL, pin_setup_expires_at = NULL, updated_at = :now
        WHERE id = :id AND school_id = :school AND pin_setup_token_hash = :hash AND pin_setup_expires_at > :now`,
      { pin: pinHash, now, id: parent.id, school: parsed.schoolId, hash: parsed.hash },
    );
    if (n > 0) {
      await recordAudit([{
        schoolId: parsed.schoolId, action: 'parent.update', entityType: 'parent', entityId: Number(parent.id), changes: { pin_hash: [null, REDACTED] },
        actor: { actorType: 'parent', actorId: String(parent.id), actorName: null },
      }], transaction);
    }
    return n;
  });
  if (used === 0) throw notFound('Set-up link');
  await endUserSessions(ctx, parsed.schoolId, 'parent', parent.id);
  return { parent_id: Number(parent.id), school_id: parsed.schoolId };
}
