import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Attendance, Grade, Notification, WriteToRequest } from '../../src/models/index.js';
import { archiveResolvedThreads } from '../../src/services/write-to/write-to.js';
import { runJob, maintenanceJobs } from '../../src/jobs/jobs.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { assign } from '../helpers/classroom.js';
import { bearer, expectError, parent, parentLogin, school, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';

let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;

/** A family, the staff around it and their tokens, in school a; and a family in school b. */
const f = {} as {
  p1: { id: number; token: string };
  p2: { id: number; token: string };
  pb: { id: number; token: string };
  asha: number; // p1's child, grade 5
  ravi: number; // p1's child, grade 6 (no class teacher)
  meera: number; // p2's child, grade 5
  otherSchoolChild: number;
  classTeacher: { id: number; token: string };
  assigned: { id: number; token: string }; // asha and ravi assigned
  outsider: { id: number; token: string }; // nothing assigned
  manager: { id: number; token: string }; // write_to.manage
  otherSchoolStaff: number;
};

async function staffWithDevice(schoolId: string, opts: Parameters<typeof staffMember>[1] = {}, fcm_token?: string) {
  const s = await staffMember(schoolId, opts);
  const res = await t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: s.phone, pin: s.pin, school_id: schoolId, ...(fcm_token ? { fcm_token } : {}) });
  expect(res.status).toBe(200);
  return { id: s.id, token: res.body.data.access_token as string };
}

async function parentWithDevice(schoolId: string, fcm_token?: string) {
  const p = await parent(t.ctx, schoolId);
  if (!fcm_token) return { id: p.id, token: await parentLogin(t, p.phone, p.pin, schoolId) };
  const res = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: p.phone, pin: p.pin, school_id: schoolId, fcm_token });
  expect(res.status).toBe(200);
  return { id: p.id, token: res.body.data.access_token as string };
}

const leave = (studentId: number, from = '2026-12-03', to = '2026-12-04') => ({
  student_id: studentId, type: 'leave', subject: 'Family wedding', message: 'Away for two days.', leave_from: from, leave_to: to,
});

async function create(token: string, body: Record<string, unknown>) {
  const res = await t.api.post('/parent-app/write-to').set(bearer(token)).send(body);
  expect(res.status).toBe(201);
  return res.body.data as Record<string, unknown> & { id: number };
}

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  b = await school(t);
  f.p1 = await parentWithDevice(a.schoolId, 'parent-1-phone');
  f.p2 = await parentWithDevice(a.schoolId);
  f.pb = await parentWithDevice(b.schoolId);
  f.asha = (await student(a.schoolId, f.p1.id, { grade: '5' })).id;
  f.ravi = (await student(a.schoolId, f.p1.id, { grade: '6' })).id;
  f.meera = (await student(a.schoolId, f.p2.id, { grade: '5' })).id;
  f.otherSchoolChild = (await student(b.schoolId, f.pb.id)).id;
  f.classTeacher = await staffWithDevice(a.schoolId, { name: 'Class Teacher Five' }, 'class-teacher-phone');
  f.assigned = await staffWithDevice(a.schoolId, { name: 'Assigned Teacher' }, 'assigned-teacher-phone');
  f.outsider = await staffWithDevice(a.schoolId, { name: 'Outsider' });
  f.manager = await staffWithDevice(a.schoolId, { name: 'Office', rbac: { write_to: 'manage' } });
  f.otherSchoolStaff = (await staffMember(b.schoolId)).id;
  await Grade.update({ class_teacher_id: f.classTeacher.id }, { where: { school_id: a.schoolId, name: '5' } });
  await assign(a.schoolId, f.assigned.id, f.asha, f.ravi);
});
afterAll(async () => t.close());

describe('creating a request', () => {
  it('creates an open thread owned by the parent, with every contract field', async () => {
    const res = await t.api.post('/parent-app/write-to').set(bearer(f.p1.token)).send({ student_id: f.asha, type: 'query', subject: 'Bus timing', message: 'When does the bus leave?' });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number), school_id: a.schoolId, parent_id: f.p1.id, student_id: f.asha, type: 'query', subject: 'Bus timing',
      message: 'When does the bus leave?', status: 'open', assigned_staff_id: null, leave_from: null, leave_to: null,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/), updated_at: expect.any(String), resolved_at: null, replies_count: 0, attachments: [],
    });
    // What the app shows straight after sending is what the thread holds when read back.
    const read = await t.api.get(`/parent-app/write-to/${res.body.data.id}`).set(bearer(f.p1.token));
    expect(read.body.data).toEqual({ ...res.body.data, replies: [] });
  });

  it('answers a leave request as it was stored, its dates included', async () => {
    const res = await t.api.post('/parent-app/write-to').set(bearer(f.p1.token)).send({ ...leave(f.ravi, '2027-03-01', '2027-03-03'), subject: undefined, message: '  Family trip  ' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ type: 'leave', subject: 'Leave request', message: 'Family trip', leave_from: '2027-03-01', leave_to: '2027-03-03', status: 'open' });
    const read = await t.api.get(`/parent-app/write-to/${res.body.data.id}`).set(bearer(f.p1.token));
    expect(read.body.data).toEqual({ ...res.body.data, replies: [] });
  });

  it('needs both leave dates, in order, for a leave request', async () => {
    const missing = await t.api.post('/parent-app/write-to').set(bearer(f.p1.token)).send({ student_id: f.asha, type: 'leave', subject: 'Leave', message: 'Away' });
    expectError(missing, 400, 'BAD_REQUEST');
    expect(missing.body.error.details.map((d: { field: string }) => d.field)).toEqual(expect.arrayContaining(['leave_from', 'leave_to']));
    const reversed = await t.api.post('/parent-app/write-to').set(bearer(f.p1.token)).send(leave(f.asha, '2026-12-05', '2026-12-04'));
    expectError(reversed, 400, 'BAD_REQUEST');
    expect(reversed.body.error.details[0].field).toBe('leave_to');
    const notADate = await t.api.post('/parent-app/write-to').set(bearer(f.p1.token)).send(leave(f.asha, '2026-02-30', '2026-03-01'));
    expectError(notADate, 400, 'BAD_REQUEST');
    // Resolving a leave writes a mark a day: a span of centuries is refused, a school year is not.
    const endless = await t.api.post('/parent-app/write-to').set(bearer(f.p1.token)).send(leave(f.asha, '0001-01-01', '9999-12-31'));
    expectError(endless, 400, 'BAD_REQUEST');
    expect(endless.body.error.details[0].field).toBe('leave_to');
    expect((await t.api.post('/parent-app/write-to').set(bearer(f.p1.token)).send(leave(f.asha, '2027-01-01', '2027-01-02'))).status).toBe(201);
    expectError(await t.api.post('/parent-app/write-to').set(bearer(f.p1.token)).send(leave(f.asha, '2027-01-01', '2028-01-02')), 400, 'BAD_REQUEST');
    expect((await t.api.post('/parent-app/write-to').set(bearer(f.p1.token)).send(leave(f.asha, '2027-01-01', '2028-01-01'))).status).toBe(201);
  });

  it('refuses an unknown type and an empty message with 400', async () => {
    expectError(await t.api.post('/parent-app/write-to').set(bearer(f.p1.token)).send({ type: 'gossip', subject: 'x', message: 'y' }), 400, 'BAD_REQUEST');
    expectError(await t.api.post('/parent-app/write-to').set(bearer(f.p1.token)).send({ type: 'query', subject: 'x', message: '  ' }), 400, 'BAD_REQUEST');
  });

  it("refuses another family's or another school's student with 403", async () => {
    expectError(await t.api.post('/parent-app/write-to').set(bearer(f.p1.token)).send(leave(f.meera)), 403, 'FORBIDDEN');
    expectError(await t.api.post('/parent-app/write-to').set(bearer(f.p1.token)).send(leave(f.otherSchoolChild)), 403, 'FORBIDDEN');
  });

  it('takes the only child for a leave request without student_id, and asks when there are several', async () => {
    const only = await create(f.p2.token, { type: 'leave', message: 'Fever', leave_from: '2026-12-01', leave_to: '2026-12-01' });
    expect(only).toMatchObject({ student_id: f.meera, subject: 'Leave request' });
    const several = await t.api.post('/parent-app/write-to').set(bearer(f.p1.token)).send({ type: 'leave', message: 'Fever', leave_from: '2026-12-01', leave_to: '2026-12-01' });
    expectError(several, 400, 'BAD_REQUEST');
  });

  it('is for parents: a staff token gets 403', async () => {
    expectError(await t.api.post('/parent-app/write-to').set(bearer(f.manager.token)).send({ type: 'query', subject: 'x', message: 'y' }), 403, 'FORBIDDEN');
  });
});

describe('leave notifications', () => {
  it("notify the class teacher of the student's grade on their device, with the request", async () => {
    const req = await create(f.p1.token, leave(f.asha));
    const rows = await Notification.findAll({ where: { school_id: a.schoolId, entity_type: 'write_to', entity_id: req.id }, raw: true });
    expect(rows).toEqual([
      expect.objectContaining({ event: 'write_to_leave', target_type: 'staff', target_id: f.classTeacher.id, address: 'class-teacher-phone', status: 'pending' }),
    ]);
  });

  it('notify every staff member assigned to the student when the grade has no class teacher', async () => {
    const second = await staffWithDevice(a.schoolId, { name: 'Second' });
    await assign(a.schoolId, second.id, f.ravi);
    const req = await create(f.p1.token, leave(f.ravi));
    const rows = await Notification.findAll({ where: { entity_type: 'write_to', entity_id: req.id }, order: [['target_id', 'ASC']], raw: true });
    expect(rows.map((r) => [r.target_id, r.address])).toEqual([
      [f.assigned.id, 'assigned-teacher-phone'],
      [second.id, null], // signed in without a device token: recorded, then skipped by the worker
    ]);
  });

  it('are not sent for other request types', async () => {
    const req = await create(f.p1.token, { student_id: f.asha, type: 'complaint', subject: 'Noise', message: 'Too loud' });
    expect(await Notification.count({ where: { entity_type: 'write_to', entity_id: req.id } })).toBe(0);
  });
});

describe("the parent's own requests", () => {
  it('lists only their own, newest first, filtered by status and type', async () => {
    const q = await create(f.p1.token, { student_id: f.asha, type: 'feedback', subject: 'Great trip', message: 'Thanks' });
    const mine = await t.api.get('/parent-app/write-to').set(bearer(f.p1.token));
    expect(mine.status).toBe(200);
    expect(mine.body.data[0].id).toBe(q.id);
    expect(mine.body.data.every((r: { parent_id: number }) => r.parent_id === f.p1.id)).toBe(true);
    expect(Number(mine.headers['x-total-count'])).toBe(mine.body.data.length);
    const feedback = await t.api.get('/parent-app/write-to?type=feedback').set(bearer(f.p1.token));
    expect(feedback.body.data.map((r: { id: number }) => r.id)).toEqual([q.id]);
    const theirs = await t.api.get('/parent-app/write-to').set(bearer(f.p2.token));
    expect(theirs.body.data.some((r: { id: number }) => r.id === q.id)).toBe(false);
    const paged = await t.api.get('/parent-app/write-to?limit=1&page=2').set(bearer(f.p1.token));
    expect(paged.body.data).toHaveLength(1);
    expect(paged.body.data[0].id).toBe(mine.body.data[1].id);
    expectError(await t.api.get('/parent-app/write-to?status=closed').set(bearer(f.p1.token)), 400, 'BAD_REQUEST');
  });

  it("answers 404 for another parent's thread and another school's", async () => {
    const q = await create(f.p1.token, { student_id: f.asha, type: 'query', subject: 'Mine', message: 'Private' });
    expectError(await t.api.get(`/parent-app/write-to/${q.id}`).set(bearer(f.p2.token)), 404, 'NOT_FOUND');
    expectError(await t.api.get(`/parent-app/write-to/${q.id}`).set(bearer(f.pb.token)), 404, 'NOT_FOUND');
    expectError(await t.api.post(`/parent-app/write-to/${q.id}/reply`).set(bearer(f.p2.token)).send({ message: 'hi' }), 404, 'NOT_FOUND');
    expectError(await t.api.get('/parent-app/write-to/99999999').set(bearer(f.p1.token)), 404, 'NOT_FOUND');
  });
});

describe('a thread from open to archived', () => {
  let thread: { id: number };

  beforeAll(async () => {
    thread = await create(f.p1.token, { student_id: f.asha, type: 'query', subject: 'Uniform', message: 'Which size?' });
  });

  it('stays open on a parent reply and moves to in_progress on the first staff reply, which notifies the parent', async () => {
    const own = await t.api.post(`/parent-app/write-to/${thread.id}/reply`).set(bearer(f.p1.token)).send({ message: 'Also the shoes?' });
    expect(own.status).toBe(201);
    expect(own.body.data).toMatchObject({ write_to_id: thread.id, author_type: 'parent', author_id: f.p1.id, author_name: 'Ravi Rao', message: 'Also the shoes?' });
    expect((await WriteToRequest.findByPk(thread.id))?.status).toBe('open');

    const res = await t.api.post(`/teachers-app/write-to/${thread.id}/reply`).set(bearer(f.assigned.token)).send({ message: 'Size 6, black shoes.' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ author_type: 'staff', author_id: f.assigned.id, author_name: 'Assigned Teacher' });
    const detail = await t.api.get(`/parent-app/write-to/${thread.id}`).set(bearer(f.p1.token));
    expect(detail.body.data).toMatchObject({ status: 'in_progress', replies_count: 2 });
    expect(detail.body.data.replies.map((r: { message: string }) => r.message)).toEqual(['Also the shoes?', 'Size 6, black shoes.']);
    const pushes = await Notification.findAll({ where: { event: 'write_to_reply', entity_id: thread.id }, raw: true });
    expect(pushes).toEqual([expect.objectContaining({ target_type: 'parent', target_id: f.p1.id, address: 'parent-1-phone', body: 'Size 6, black shoes.' })]);
  });

  it('keeps replies_count exact under concurrent replies', async () => {
    const before = (await WriteToRequest.findByPk(thread.id))!.replies_count;
    const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => t.api.post(`/parent-app/write-to/${thread.id}/reply`).set(bearer(f.p1.token)).send({ message: `note ${i}` })));
    expect(replies.every((r) => r.status === 201)).toBe(true);
    expect((await WriteToRequest.findByPk(thread.id))!.replies_count).toBe(before + 8);
  });

  it('is resolved by the manager, then reopened by a parent reply', async () => {
    const resolved = await t.api.put(`/teachers-app/write-to/${thread.id}`).set(bearer(f.manager.token)).send({ status: 'resolved' });
    expect(resolved.status).toBe(200);
    expect(resolved.body.data).toMatchObject({ status: 'resolved', resolved_at: expect.any(String) });
    expectError(await t.api.put(`/teachers-app/write-to/${thread.id}`).set(bearer(f.manager.token)).send({ status: 'resolved' }), 409, 'CONFLICT');
    await t.api.post(`/parent-app/write-to/${thread.id}/reply`).set(bearer(f.p1.token)).send({ message: 'One more thing' }).expect(201);
    const reopened = await t.api.get(`/parent-app/write-to/${thread.id}`).set(bearer(f.p1.token));
    expect(reopened.body.data).toMatchObject({ status: 'open', resolved_at: null });
  });

  it('is archived by the job once resolved for longer than WRITE_TO_ARCHIVE_DAYS, and then takes no replies', async () => {
    const fresh = await create(f.p1.token, { student_id: f.asha, type: 'other', subject: 'Fresh', message: 'Just resolved' });
    await t.api.put(`/teachers-app/write-to/${thread.id}`).set(bearer(f.manager.token)).send({ status: 'resolved' }).expect(200);
    expect(await archiveResolvedThreads(t.ctx)).toBe(0); // resolved just now: not yet
    await WriteToRequest.update({ resolved_at: new Date(Date.now() - 31 * 86_400_000) }, { where: { id: thread.id } });
    await t.api.put(`/teachers-app/write-to/${fresh.id}`).set(bearer(f.manager.token)).send({ status: 'resolved' }).expect(200);

    const job = maintenanceJobs.find((j) => j.name === 'write_to_archive')!;
    expect(await runJob(t.ctx, job)).toMatchObject({ ran: true, status: 'ok', result: 1 });
    expect((await WriteToRequest.findByPk(thread.id))?.status).toBe('archived');
    expect((await WriteToRequest.findByPk(fresh.id))?.status).toBe('resolved');

    expectError(await t.api.post(`/parent-app/write-to/${thread.id}/reply`).set(bearer(f.p1.token)).send({ message: 'Hello?' }), 409, 'CONFLICT');
    expectError(await t.api.post(`/teachers-app/write-to/${thread.id}/reply`).set(bearer(f.manager.token)).send({ message: 'Hello?' }), 409, 'CONFLICT');
    expectError(await t.api.put(`/teachers-app/write-to/${thread.id}`).set(bearer(f.manager.token)).send({ status: 'resolved' }), 409, 'CONFLICT');
    expectError(await t.api.put(`/teachers-app/write-to/${thread.id}`).set(bearer(f.manager.token)).send({ assigned_staff_id: f.outsider.id }), 409, 'CONFLICT');

    const listed = await t.api.get('/parent-app/write-to').set(bearer(f.p1.token));
    expect(listed.body.data.some((r: { id: number }) => r.id === thread.id)).toBe(false);
    const archived = await t.api.get('/parent-app/write-to?status=archived').set(bearer(f.p1.token));
    expect(archived.body.data.map((r: { id: number }) => r.id)).toEqual([thread.id]);
    const detail = await t.api.get(`/parent-app/write-to/${thread.id}`).set(bearer(f.p1.token));
    expect(detail.body.data.status).toBe('archived');
  });

  it('archives at once with WRITE_TO_ARCHIVE_DAYS=0', async () => {
    const q = await create(f.p1.token, { student_id: f.asha, type: 'query', subject: 'Zero', message: 'days' });
    await t.api.put(`/teachers-app/write-to/${q.id}`).set(bearer(f.manager.token)).send({ status: 'resolved' }).expect(200);
    const zero = { ...t.ctx, config: { ...t.ctx.config, writeToArchiveDays: 0 } };
    expect(await archiveResolvedThreads(zero, new Date(Date.now() + 1000))).toBeGreaterThanOrEqual(1);
    expect((await WriteToRequest.findByPk(q.id))?.status).toBe('archived');
  });
});

describe('the staff queue', () => {
  let ashaThread: { id: number };
  let meeraThread: { id: number };

  beforeAll(async () => {
    ashaThread = await create(f.p1.token, { student_id: f.asha, type: 'complaint', subject: 'Queue asha', message: 'About Asha' });
    meeraThread = await create(f.p2.token, { student_id: f.meera, type: 'query', subject: 'Queue meera', message: 'About Meera' });
  });

  const queueIds = async (token: string, query = '') => {
    const res = await t.api.get(`/teachers-app/write-to${query}`).set(bearer(token));
    expect(res.status).toBe(200);
    return (res.body.data as Array<{ id: number }>).map((r) => r.id);
  };

  it('shows a teacher the threads of students assigned to them, with the names', async () => {
    const ids = await queueIds(f.assigned.token, `?school_id=${a.schoolId}`);
    expect(ids).toContain(ashaThread.id);
    expect(ids).not.toContain(meeraThread.id);
    const res = await t.api.get('/teachers-app/write-to?type=complaint').set(bearer(f.assigned.token));
    expect(res.body.data[0]).toMatchObject({ id: ashaThread.id, student_name: expect.any(String), parent_name: 'Ravi Rao' });
  });

  it('shows the whole school to write_to.manage, and nothing to a teacher with no assignment', async () => {
    const all = await queueIds(f.manager.token);
    expect(all).toEqual(expect.arrayContaining([ashaThread.id, meeraThread.id]));
    expect(await queueIds(f.outsider.token)).toEqual([]);
  });

  it('answers a teacher who cannot see the thread as if it were not there (404), for a reply and a read', async () => {
    const reply = await t.api.post(`/teachers-app/write-to/${meeraThread.id}/reply`).set(bearer(f.assigned.token)).send({ message: 'hi' });
    expectError(reply, 404, 'NOT_FOUND');
    const read = await t.api.get(`/teachers-app/write-to/${meeraThread.id}`).set(bearer(f.outsider.token));
    expectError(read, 404, 'NOT_FOUND');
    expect(read.body.message).toBe((await t.api.get('/teachers-app/write-to/999999').set(bearer(f.outsider.token))).body.message);
  });

  it('lets only write_to.manage assign, to a staff member of the school', async () => {
    expectError(await t.api.put(`/teachers-app/write-to/${meeraThread.id}`).set(bearer(f.assigned.token)).send({ assigned_staff_id: f.assigned.id }), 403, 'FORBIDDEN');
    expectError(await t.api.put(`/teachers-app/write-to/${meeraThread.id}`).set(bearer(f.manager.token)).send({ assigned_staff_id: f.otherSchoolStaff }), 404, 'NOT_FOUND');
    expectError(await t.api.put(`/teachers-app/write-to/${meeraThread.id}`).set(bearer(f.manager.token)).send({}), 400, 'BAD_REQUEST');
    expectError(await t.api.put(`/teachers-app/write-to/${meeraThread.id}`).set(bearer(f.manager.token)).send({ status: 'archived' }), 400, 'BAD_REQUEST');
    const res = await t.api.put(`/teachers-app/write-to/${meeraThread.id}`).set(bearer(f.manager.token)).send({ assigned_staff_id: f.outsider.id });
    expect(res.status).toBe(200);
    expect(res.body.data.assigned_staff_id).toBe(f.outsider.id);
  });

  it('shows an assigned thread to its assignee, who can read, reply and resolve it', async () => {
    expect(await queueIds(f.outsider.token)).toEqual([meeraThread.id]);
    const detail = await t.api.get(`/teachers-app/write-to/${meeraThread.id}`).set(bearer(f.outsider.token));
    expect(detail.body.data).toMatchObject({ id: meeraThread.id, replies: [] });
    await t.api.post(`/teachers-app/write-to/${meeraThread.id}/reply`).set(bearer(f.outsider.token)).send({ message: 'Looking into it' }).expect(201);
    const resolved = await t.api.put(`/teachers-app/write-to/${meeraThread.id}`).set(bearer(f.outsider.token)).send({ status: 'resolved' });
    expect(resolved.status).toBe(200);
    expect(resolved.body.data.status).toBe('resolved');
    expect(await queueIds(f.outsider.token, '?status=resolved')).toEqual([meeraThread.id]);
  });

  it('does not let a teacher who only sees the student resolve the thread', async () => {
    expectError(await t.api.put(`/teachers-app/write-to/${ashaThread.id}`).set(bearer(f.assigned.token)).send({ status: 'resolved' }), 403, 'FORBIDDEN');
    expect((await WriteToRequest.findByPk(ashaThread.id))?.status).toBe('open');
  });

  it("answers 404 for another school's thread", async () => {
    const other = await create(f.pb.token, { student_id: f.otherSchoolChild, type: 'query', subject: 'B', message: 'b' });
    expectError(await t.api.put(`/teachers-app/write-to/${other.id}`).set(bearer(f.manager.token)).send({ status: 'resolved' }), 404, 'NOT_FOUND');
    expectError(await t.api.post(`/teachers-app/write-to/${other.id}/reply`).set(bearer(f.manager.token)).send({ message: 'x' }), 404, 'NOT_FOUND');
    expect(await queueIds(f.manager.token)).not.toContain(other.id);
  });
});

describe('resolving a leave request', () => {
  it("marks its dates excused for the student, leaving a teacher's mark alone", async () => {
    const req = await create(f.p1.token, leave(f.asha, '2026-11-10', '2026-11-12'));
    await Attendance.create({ school_id: a.schoolId, student_id: f.asha, date: '2026-11-11', status: 'present', marked_by_staff_id: f.assigned.id });
    await t.api.put(`/teachers-app/write-to/${req.id}`).set(bearer(f.manager.token)).send({ status: 'resolved' }).expect(200);
    const marks = await Attendance.findAll({ where: { school_id: a.schoolId, student_id: f.asha }, order: [['date', 'ASC']], raw: true });
    expect(marks.map((m) => [String(m.date).slice(0, 10), m.status])).toEqual([
      ['2026-11-10', 'excused'], ['2026-11-11', 'present'], ['2026-11-12', 'excused'],
    ]);
  });
});

describe('the API reference', () => {
  it('documents the write-to, notification and diagnostics routes from their schemas', async () => {
    const doc = (await t.api.get('/openapi.json')).body;
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining([
      '/parent-app/write-to', '/parent-app/write-to/{id}', '/parent-app/write-to/{id}/reply', '/teachers-app/write-to',
      '/teachers-app/write-to/{id}', '/teachers-app/write-to/{id}/reply', '/web-app/notifications', '/web-app/diagnostics/health',
      '/web-app/diagnostics/test-push',
    ]));
    const create = doc.paths['/parent-app/write-to'].post;
    const body = create.requestBody.content['application/json'];
    expect(body.schema.properties.type.enum).toEqual(['leave', 'complaint', 'query', 'feedback', 'other']);
    expect(body.schema.required).toEqual(expect.arrayContaining(['type', 'message']));
    expect(create.responses['201']).toBeDefined();
    expect(Object.keys(doc.paths['/teachers-app/write-to/{id}'].put.responses)).toEqual(expect.arrayContaining(['200', '403', '404', '409']));
  });
});
