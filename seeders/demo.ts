import type { Transaction } from 'sequelize';
import type { AppContext } from '../src/context.js';
import { conflict, notFound } from '../src/errors.js';
import {
  Activity, AdminUser, Comment, Grade, Notice, Parent, Reaction, School, Staff, StaffStudent, Student, WriteToReply, WriteToRequest,
} from '../src/models/index.js';
import type { EntityType } from '../src/models/comment.js';
import type { ReactionType } from '../src/models/reaction.js';
import { hashSecretValue } from '../src/services/auth/passwords.js';
import { seedSchoolBase } from './base.js';

/**
 * Demo data for one school: people who can sign in with the documented credentials below, and
 * enough content to show every screen. Every row has a natural key (e-mail, phone, roll number,
 * title, subject, the reaction's unique key): rows found by it are left as they are, so running
 * the seeder again changes nothing, and a PIN changed since is kept.
 */

export const DEMO_ADMIN_PASSWORD = 'demo-admin-password';
export const DEMO_STAFF_PIN = '4321';
export const DEMO_PARENT_PIN = '1234';

/** The documented sign-ins; the admin e-mail carries the school id, since e-mails are unique across schools. */
export function demoCredentials(schoolId: string) {
  return {
    admin: { email: `admin.${schoolId.toLowerCase()}@demo.example.org`, password: DEMO_ADMIN_PASSWORD, role: 'super_admin' as const },
    // The school office (a plain admin) and the school's IT contact, to see the console as each of them sees it.
    office: { email: `office.${schoolId.toLowerCase()}@demo.example.org`, password: DEMO_ADMIN_PASSWORD, role: 'admin' as const, name: 'Demo Office' },
    itContact: { email: `it.${schoolId.toLowerCase()}@demo.example.org`, password: DEMO_ADMIN_PASSWORD, role: 'it_contact' as const, name: 'Demo IT Contact' },
    teacher: { phone_no: demoStaff[1]!.phone_no, pin: DEMO_STAFF_PIN, name: demoStaff[1]!.name, designation: demoStaff[1]!.designation },
    principal: { phone_no: demoStaff[0]!.phone_no, pin: DEMO_STAFF_PIN, name: demoStaff[0]!.name, designation: demoStaff[0]!.designation },
    parent: { phone_no: parentPhone(0), pin: DEMO_PARENT_PIN, father_name: families[0]![2] },
  };
}

export type DemoCredentials = ReturnType<typeof demoCredentials>;

const demoStaff = [
  { name: 'Anita Desai', designation: 'Principal', phone_no: '9000000001', email: 'anita.desai@demo.example.org', classOf: null },
  { name: 'Rahul Mehta', designation: 'Class Teacher', phone_no: '9000000002', email: 'rahul.mehta@demo.example.org', classOf: '5' },
  { name: 'Priya Nair', designation: 'Class Teacher', phone_no: '9000000003', email: 'priya.nair@demo.example.org', classOf: '6' },
  { name: 'Vikram Singh', designation: 'Subject Teacher', phone_no: '9000000004', email: 'vikram.singh@demo.example.org', classOf: null },
  { name: 'Sunita Sharma', designation: 'Office Staff', phone_no: '9000000005', email: 'sunita.sharma@demo.example.org', classOf: null },
] as const;

/** [child, gender, father, mother]: nineteen families, the first with two children (the twentieth student). */
const families: Array<[string, 'male' | 'female', string, string]> = [
  ['Aarav Sharma', 'male', 'Suresh Sharma', 'Kavita Sharma'],
  ['Diya Patel', 'female', 'Manoj Patel', 'Rekha Patel'],
  ['Vihaan Reddy', 'male', 'Srinivas Reddy', 'Lakshmi Reddy'],
  ['Ananya Iyer', 'female', 'Ganesh Iyer', 'Padma Iyer'],
  ['Arjun Gupta', 'male', 'Rajesh Gupta', 'Neha Gupta'],
  ['Ishita Rao', 'female', 'Ravi Rao', 'Meena Rao'],
  ['Kabir Khan', 'male', 'Imran Khan', 'Sana Khan'],
  ['Meera Joshi', 'female', 'Ashok Joshi', 'Smita Joshi'],
  ['Rohan Das', 'male', 'Subir Das', 'Mita Das'],
  ['Saanvi Kulkarni', 'female', 'Prakash Kulkarni', 'Asha Kulkarni'],
  ['Aditya Menon', 'male', 'Hari Menon', 'Deepa Menon'],
  ['Kavya Pillai', 'female', 'Mohan Pillai', 'Latha Pillai'],
  ['Reyansh Bose', 'male', 'Arindam Bose', 'Ruma Bose'],
  ['Tara Chatterjee', 'female', 'Sourav Chatterjee', 'Ishani Chatterjee'],
  ['Dev Malhotra', 'male', 'Vikas Malhotra', 'Pooja Malhotra'],
  ['Nisha Verma', 'female', 'Alok Verma', 'Sunita Verma'],
  ['Yash Agarwal', 'male', 'Nitin Agarwal', 'Ritu Agarwal'],
  ['Zoya Ahmed', 'female', 'Farhan Ahmed', 'Nazia Ahmed'],
  ['Karan Kapoor', 'male', 'Sanjay Kapoor', 'Anjali Kapoor'],
];
const STUDENTS = 20;
const familyOf = (student: number) => (student < families.length ? student : 0);
const parentPhone = (family: number) => `91000000${String(family + 1).padStart(2, '0')}`;
const rollNo = (student: number) => `DEMO-${String(student + 1).padStart(3, '0')}`;
const gradeOf = (student: number) => (student < 10 ? '5' : '6');
const childName = (student: number) => (student < families.length ? families[student]![0] : 'Aarohi Sharma');
const daysAgo = (n: number, hour = 9) => {
  const d = new Date(Date.now() - n * 86_400_000);
  d.setUTCHours(hour, 0, 0, 0);
  return d;
};
const dayAfter = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

/** The school's totals after seeding, printed by `db seed --demo`. */
async function totals(schoolId: string) {
  const where = { school_id: schoolId };
  return {
    staff: await Staff.count({ where }),
    students: await Student.count({ where }),
    parents: await Parent.count({ where }),
    activities: await Activity.count({ where }),
    notices: await Notice.count({ where }),
    write_to_threads: await WriteToRequest.count({ where }),
    write_to_replies: await WriteToReply.count({ where }),
    comments: await Comment.count({ where }),
    reactions: await Reaction.count({ where }),
  };
}

/** Seeds the base data and the demo data of an existing school; bcrypt runs before the one short transaction. */
export async function seedDemo(ctx: AppContext, schoolId: string): Promise<{ credentials: DemoCredentials; counts: Awaited<ReturnType<typeof totals>> }> {
  if (!(await School.findByPk(schoolId, { attributes: ['id'] }))) throw notFound(`School ${schoolId}`);
  const credentials = demoCredentials(schoolId);
  const [passwordHash, staffPinHash, parentPinHash] = await Promise.all([
    hashSecretValue(DEMO_ADMIN_PASSWORD), hashSecretValue(DEMO_STAFF_PIN), hashSecretValue(DEMO_PARENT_PIN),
  ]);
  await ctx.db.sequelize.transaction(async (transaction) => {
    await seedSchoolBase(schoolId, transaction);
    const adminId = await seedAdmins(schoolId, credentials, passwordHash, transaction);
    const staff = await seedStaff(schoolId, staffPinHash, transaction);
    const { parentIds, studentIds } = await seedFamilies(schoolId, parentPinHash, transaction);
    await seedAssignments(schoolId, staff, studentIds, transaction);
    const activities = await seedActivities(schoolId, staff, studentIds, transaction);
    const notices = await seedNotices(schoolId, adminId, transaction);
    await seedThreads(schoolId, staff, parentIds, studentIds, transaction);
    await seedEngagement(schoolId, parentIds, activities, notices, transaction);
  });
  return { credentials, counts: await totals(schoolId) };
}

/** The super_admin (the notices' author, whose id is returned), the office's admin and the IT contact. */
async function seedAdmins(schoolId: string, credentials: DemoCredentials, passwordHash: string, transaction: Transaction): Promise<number> {
  const { admin, office, itContact } = credentials;
  const accounts = [{ name: 'Demo Administrator', email: admin.email, role: admin.role }, office, itContact];
  await AdminUser.bulkCreate(
    accounts.map((a) => ({ school_id: schoolId, name: a.name, email: a.email, password_hash: passwordHash, role: a.role })),
    { ignoreDuplicates: true, transaction },
  );
  const found = await AdminUser.findAll({ where: { email: accounts.map((a) => a.email) }, attributes: ['id', 'school_id', 'email'], transaction });
  for (const a of accounts) {
    if (found.find((f) => f.email === a.email)?.school_id !== schoolId) throw conflict(`The demo admin e-mail ${a.email} belongs to another school`);
  }
  return found.find((f) => f.email === admin.email)!.id;
}

type StaffIds = Record<(typeof demoStaff)[number]['phone_no'], number>;

async function seedStaff(schoolId: string, pinHash: string, transaction: Transaction): Promise<StaffIds> {
  await Staff.bulkCreate(
    demoStaff.map((s) => ({ school_id: schoolId, name: s.name, designation: s.designation, phone_no: s.phone_no, email: s.email, pin_hash: pinHash, status: 1 })),
    { ignoreDuplicates: true, transaction },
  );
  const rows = await Staff.findAll({ where: { school_id: schoolId, phone_no: demoStaff.map((s) => s.phone_no) }, attributes: ['id', 'phone_no'], transaction });
  const ids = Object.fromEntries(rows.map((r) => [r.phone_no, r.id])) as StaffIds;
  const missing = demoStaff.find((s) => ids[s.phone_no] === undefined);
  if (missing) throw conflict(`Another staff member of ${schoolId} already uses the demo e-mail ${missing.email}`);
  // A class teacher goes on a grade only while it has none: a choice made since is kept.
  for (const s of demoStaff) {
    if (s.classOf) {
      await Grade.update({ class_teacher_id: ids[s.phone_no] }, { where: { school_id: schoolId, name: s.classOf, class_teacher_id: null }, transaction });
    }
  }
  return ids;
}

async function seedFamilies(schoolId: string, pinHash: string, transaction: Transaction) {
  await Parent.bulkCreate(
    families.map(([, , father, mother], i) => ({
      school_id: schoolId, father_name: father, mother_name: mother, phone_no: parentPhone(i), email: null, pin_hash: pinHash,
    })),
    { ignoreDuplicates: true, transaction },
  );
  const parents = await Parent.findAll({ where: { school_id: schoolId, phone_no: families.map((_, i) => parentPhone(i)) }, attributes: ['id', 'phone_no'], transaction });
  const byPhone = new Map(parents.map((p) => [p.phone_no, p.id]));
  const parentIds = families.map((_, i) => byPhone.get(parentPhone(i))!);

  const bloodGroups = ['A+', 'B+', 'O+', 'AB+', 'O-'];
  await Student.bulkCreate(
    Array.from({ length: STUDENTS }, (_, i) => ({
      school_id: schoolId,
      parent_id: parentIds[familyOf(i)]!,
      student_full_name: childName(i),
      gender: i < families.length ? families[i]![1] : 'female',
      grade: gradeOf(i),
      date_of_birth: `${gradeOf(i) === '5' ? 2015 : 2014}-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 27) + 1).padStart(2, '0')}`,
      blood_group: bloodGroups[i % bloodGroups.length]!,
      phone_no: parentPhone(familyOf(i)),
      roll_no: rollNo(i),
      status: i === 18 ? ('registered' as const) : ('active' as const),
    })),
    { ignoreDuplicates: true, transaction },
  );
  const students = await Student.findAll({ where: { school_id: schoolId, roll_no: Array.from({ length: STUDENTS }, (_, i) => rollNo(i)) }, attributes: ['id', 'roll_no'], transaction });
  const byRoll = new Map(students.map((s) => [s.roll_no, s.id]));
  return { parentIds, studentIds: Array.from({ length: STUDENTS }, (_, i) => byRoll.get(rollNo(i))!) };
}

/** Each class teacher teaches their grade; the subject teacher teaches everyone. */
async function seedAssignments(schoolId: string, staff: StaffIds, studentIds: number[], transaction: Transaction) {
  const pairs = studentIds.flatMap((studentId, i) => [
    { staff_id: staff[gradeOf(i) === '5' ? '9000000002' : '9000000003'], student_id: studentId },
    { staff_id: staff['9000000004'], student_id: studentId },
  ]);
  await StaffStudent.bulkCreate(pairs.map((p) => ({ school_id: schoolId, ...p })), { ignoreDuplicates: true, transaction });
}

/** A row of a table without a natural unique key, found by the fields that name it, created when absent. */
async function ensure<T extends { id: number }>(find: () => Promise<T | null>, create: () => Promise<T>): Promise<{ row: T; created: boolean }> {
  const found = await find();
  return found ? { row: found, created: false } : { row: await create(), created: true };
}

async function seedActivities(schoolId: string, staff: StaffIds, studentIds: number[], transaction: Transaction) {
  const list = [
    { title: 'Annual Sports Day', activity_type: 'event', status: 'published', staff_id: staff['9000000001'], student_id: null, ago: 6,
      description: 'Races, relays and a tug of war on the main ground. Parents are welcome from 8:30.' },
    { title: 'Science fair projects', activity_type: 'announcement', status: 'published', staff_id: staff['9000000002'], student_id: null, ago: 5,
      description: 'Class 5 presents their science projects in the hall on Friday.' },
    { title: 'Class 6 trip to the planetarium', activity_type: 'event', status: 'published', staff_id: staff['9000000003'], student_id: null, ago: 4,
      description: 'The bus leaves at 9:00 and returns by 14:00. Please send a packed lunch.' },
    { title: 'Star of the week: Aarav Sharma', activity_type: 'announcement', status: 'published', staff_id: staff['9000000002'], student_id: studentIds[0]!, ago: 2,
      description: 'Aarav helped his classmates with long division all week. Well done!' },
    { title: 'Inter-school quiz', activity_type: 'event', status: 'cancelled', staff_id: staff['9000000004'], student_id: null, ago: 3,
      description: 'Postponed by the host school; a new date will follow.' },
    { title: 'Winter concert rehearsals', activity_type: 'announcement', status: 'draft', staff_id: staff['9000000003'], student_id: null, ago: 1,
      description: 'Rehearsal times for the choir and the orchestra.' },
  ] as const;
  const ids: Record<string, number> = {};
  for (const a of list) {
    const { row } = await ensure(
      () => Activity.findOne({ where: { school_id: schoolId, title: a.title }, attributes: ['id'], transaction }),
      () => Activity.create(
        { school_id: schoolId, title: a.title, description: a.description, activity_type: a.activity_type, staff_id: a.staff_id, student_id: a.student_id,
          status: a.status, published_at: a.status === 'published' ? daysAgo(a.ago) : null, created_at: daysAgo(a.ago), updated_at: daysAgo(a.ago) },
        { transaction },
      ),
    );
    ids[a.title] = row.id;
  }
  return ids;
}

async function seedNotices(schoolId: string, adminId: number, transaction: Transaction) {
  const list = [
    { notice_title: 'School closed for Diwali', notice_type: 'holiday', is_important: true, ago: 3,
      notice_desc: 'The school is closed from Monday to Wednesday next week. Classes resume on Thursday.' },
    { notice_title: 'Parent-teacher meeting on Saturday', notice_type: 'meeting', is_important: false, ago: 4,
      notice_desc: 'Meet the class teachers between 9:00 and 12:00 in the classrooms.' },
    { notice_title: 'Term 1 examination timetable', notice_type: 'exam', is_important: true, ago: 8,
      notice_desc: 'Examinations run from the 1st to the 10th. The timetable is on the board outside the office.' },
    { notice_title: 'Second-term fees due', notice_type: 'fee', is_important: false, ago: 10,
      notice_desc: 'Please pay the second-term fees at the office or online by the 15th.' },
  ] as const;
  const ids: Record<string, number> = {};
  for (const n of list) {
    const { row } = await ensure(
      () => Notice.findOne({ where: { school_id: schoolId, notice_title: n.notice_title }, attributes: ['id'], transaction }),
      () => Notice.create(
        { school_id: schoolId, notice_title: n.notice_title, notice_desc: n.notice_desc, notice_type: n.notice_type, is_important: n.is_important,
          created_by_type: 'admin', created_by_id: adminId, published_at: daysAgo(n.ago), created_at: daysAgo(n.ago), updated_at: daysAgo(n.ago) },
        { transaction },
      ),
    );
    ids[n.notice_title] = row.id;
  }
  return ids;
}

/** Threads in each state; a thread's replies are written only with the thread, so a second run adds none. */
async function seedThreads(schoolId: string, staff: StaffIds, parentIds: number[], studentIds: number[], transaction: Transaction) {
  const teacher = (phone: keyof StaffIds) => ({ type: 'staff' as const, id: staff[phone], name: demoStaff.find((s) => s.phone_no === phone)!.name });
  const parent = (family: number) => ({ type: 'parent' as const, id: parentIds[family]!, name: families[family]![2] });
  const threads = [
    {
      family: 0, student: 0, type: 'leave', subject: 'Leave for a family wedding', status: 'in_progress', assigned: staff['9000000002'],
      leave_from: dayAfter(3), leave_to: dayAfter(4), resolved: false, ago: 2,
      message: 'Aarav will be away for two days for his cousin\'s wedding.',
      replies: [
        { author: teacher('9000000002'), message: 'Noted. Please make sure he catches up on the maths homework.' },
        { author: parent(0), message: 'Thank you, we will.' },
      ],
    },
    {
      family: 1, student: 1, type: 'query', subject: 'School bus timing', status: 'open', assigned: null,
      leave_from: null, leave_to: null, resolved: false, ago: 1,
      message: 'Has the morning pick-up time on route 4 changed this term?', replies: [],
    },
    {
      family: 10, student: 10, type: 'complaint', subject: 'Broken window in class 6', status: 'resolved', assigned: staff['9000000005'],
      leave_from: null, leave_to: null, resolved: true, ago: 7,
      message: 'A window near Aditya\'s desk has been broken for a week and it gets cold.',
      replies: [{ author: teacher('9000000005'), message: 'The window was repaired this morning. Thank you for telling us.' }],
    },
    {
      family: 2, student: 2, type: 'feedback', subject: 'Thank you for the science fair', status: 'in_progress', assigned: null,
      leave_from: null, leave_to: null, resolved: false, ago: 4,
      message: 'Vihaan loved presenting his volcano. Thank you to the teachers!',
      replies: [{ author: teacher('9000000002'), message: 'It was a great project. Thank you for the kind words.' }],
    },
  ] as const;

  for (const t of threads) {
    const { row, created } = await ensure(
      () => WriteToRequest.findOne({ where: { school_id: schoolId, parent_id: parentIds[t.family]!, subject: t.subject }, attributes: ['id'], transaction }),
      () => WriteToRequest.create(
        {
          school_id: schoolId, parent_id: parentIds[t.family]!, student_id: studentIds[t.student]!, type: t.type, subject: t.subject, message: t.message,
          status: t.status, assigned_staff_id: t.assigned, leave_from: t.leave_from, leave_to: t.leave_to,
          resolved_at: t.resolved ? daysAgo(t.ago - 1, 15) : null, replies_count: t.replies.length, created_at: daysAgo(t.ago), updated_at: daysAgo(t.ago),
        },
        { transaction },
      ),
    );
    if (!created) continue;
    await WriteToReply.bulkCreate(
      t.replies.map((r, i) => ({
        school_id: schoolId, write_to_id: row.id, author_type: r.author.type, author_id: r.author.id, author_name: r.author.name, message: r.message,
        created_at: daysAgo(t.ago, 10 + i),
      })),
      { transaction },
    );
  }
}

async function seedEngagement(
  schoolId: string,
  parentIds: number[],
  activities: Record<string, number>,
  notices: Record<string, number>,
  transaction: Transaction,
) {
  const sportsDay = activities['Annual Sports Day']!;
  const scienceFair = activities['Science fair projects']!;
  const meeting = notices['Parent-teacher meeting on Saturday']!;
  const comments: Array<{ entity_type: EntityType; entity_id: number; family: number; content: string }> = [
    { entity_type: 'activity', entity_id: sportsDay, family: 0, content: 'Aarav has been practising his sprint every evening!' },
    { entity_type: 'activity', entity_id: sportsDay, family: 1, content: 'What time do the races start?' },
    { entity_type: 'activity', entity_id: scienceFair, family: 2, content: 'Can parents come to see the projects?' },
    { entity_type: 'noticeboard', entity_id: meeting, family: 10, content: 'Is there a slot after 12 for working parents?' },
  ];
  for (const c of comments) {
    const where = { school_id: schoolId, entity_type: c.entity_type, entity_id: c.entity_id, parent_id: parentIds[c.family]!, content: c.content };
    await ensure(
      () => Comment.findOne({ where, attributes: ['id'], transaction }),
      () => Comment.create(where, { transaction }),
    );
  }
  const reactions: Array<{ entity_type: EntityType; entity_id: number; family: number; reaction_type: ReactionType }> = [
    ...Array.from({ length: 8 }, (_, family) => ({ entity_type: 'activity' as const, entity_id: sportsDay, family, reaction_type: (family % 3 === 0 ? 'love' : 'like') as ReactionType })),
    ...Array.from({ length: 4 }, (_, family) => ({ entity_type: 'activity' as const, entity_id: scienceFair, family, reaction_type: 'like' as const })),
    ...[10, 11, 12].map((family) => ({ entity_type: 'noticeboard' as const, entity_id: meeting, family, reaction_type: 'love' as const })),
  ];
  await Reaction.bulkCreate(
    reactions.map((r) => ({ school_id: schoolId, entity_type: r.entity_type, entity_id: r.entity_id, parent_id: parentIds[r.family]!, reaction_type: r.reaction_type })),
    { ignoreDuplicates: true, transaction },
  );
}
