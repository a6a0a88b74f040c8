import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Principal } from '../../src/context.js';
import { operatorPrincipal } from '../../src/services/access/guards.js';
import { createActivity, deleteActivity, listWebActivities, updateActivity } from '../../src/services/activities/activities.js';
import { createNotice, deleteNotice, listWebNotices, updateNotice } from '../../src/services/notices/notices.js';
import { Form } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { school, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';

/** The services as the console and the command line call them: with an admin or operator principal and unchecked input. */
let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;
let admin: Principal;
let teacherId: number;
let foreignStaffId: number;

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  b = await school(t);
  admin = { type: 'admin', userId: a.adminId, schoolId: a.schoolId, sessionId: 0, role: 'admin' };
  teacherId = (await staffMember(a.schoolId)).id;
  foreignStaffId = (await staffMember(b.schoolId)).id;
});
afterAll(async () => t.close());

const status = (p: Promise<unknown>) => p.then(() => 200, (e: { status?: number }) => e.status);

describe('activities from the console and the command line', () => {
  it('needs an author of the school when an admin creates one', async () => {
    expect(await status(createActivity(t.ctx, admin, { title: 'No author' }))).toBe(400);
    expect(await status(createActivity(t.ctx, admin, { title: 'Foreign author', staff_id: foreignStaffId }))).toBe(404);
    const made = await createActivity(t.ctx, admin, { title: 'Assembly', staff_id: teacherId, status: 'draft' });
    expect(made).toMatchObject({ title: 'Assembly', author_id: teacherId, status: 'draft', school_id: a.schoolId });
  });

  it("targets any student of the school; another school's is a bad audience value (400)", async () => {
    const own = await student(a.schoolId, null);
    const foreign = await student(b.schoolId, null);
    expect((await createActivity(t.ctx, admin, { title: 'Own', staff_id: teacherId, student_id: own.id })).student_id).toBe(own.id);
    expect(await status(createActivity(t.ctx, admin, { title: 'Foreign', staff_id: teacherId, student_id: foreign.id }))).toBe(400);
  });

  it('validates the input the route would have checked', async () => {
    expect(await status(createActivity(t.ctx, admin, { title: 'x'.repeat(201), staff_id: teacherId }))).toBe(400);
    expect(await status(createActivity(t.ctx, admin, { title: 'Bad', staff_id: teacherId, status: 'gone' as never }))).toBe(400);
    expect(await status(listWebActivities(t.ctx, admin, { limit: 1000 }))).toBe(400);
  });

  it("lets the operator edit and delete anyone's activity, within the school it acts for", async () => {
    const made = await createActivity(t.ctx, admin, { title: 'To moderate', staff_id: teacherId });
    const operator = operatorPrincipal(a.schoolId);
    expect((await updateActivity(t.ctx, operator, made.id, { status: 'cancelled' })).status).toBe('cancelled');
    expect(await status(updateActivity(t.ctx, operatorPrincipal(b.schoolId), made.id, { title: 'x' }))).toBe(404);
    await deleteActivity(t.ctx, operator, made.id);
    const listed = await listWebActivities(t.ctx, admin, { limit: 100 });
    expect(listed.records.map((r) => r.id)).not.toContain(made.id);
  });
});

describe('notices from the console and the command line', () => {
  it('creates, edits and soft-deletes with the same rules', async () => {
    const operator = operatorPrincipal(a.schoolId);
    expect(await status(createNotice(t.ctx, operator, { notice_title: '' }))).toBe(400);
    const made = await createNotice(t.ctx, operator, { notice_title: 'Sports week', is_important: true });
    expect(made).toMatchObject({ notice_type: 'general', is_important: true, created_by_type: 'admin', created_by_id: null });
    expect((await updateNotice(t.ctx, admin, made.id, { notice_desc: 'All week' })).notice_desc).toBe('All week');
    await deleteNotice(t.ctx, admin, made.id);
    expect(await status(deleteNotice(t.ctx, admin, made.id))).toBe(404);
    expect((await listWebNotices(t.ctx, admin)).notices.map((n) => n.id)).not.toContain(made.id);
  });

  it("answers 404 for another school's notice and writes nothing for it, its form included", async () => {
    const theirs = await createNotice(t.ctx, operatorPrincipal(b.schoolId), { notice_title: 'Their notice' });
    const form = { questions: [{ id: 'ok', type: 'consent' as const, label: 'Allowed' }] };
    expect(await status(updateNotice(t.ctx, admin, theirs.id, { form }))).toBe(404);
    expect(await status(updateNotice(t.ctx, admin, theirs.id, { publish_at: new Date(Date.now() + 3_600_000).toISOString() }))).toBe(404);
    expect(await Form.count({ where: { entity_type: 'noticeboard', entity_id: theirs.id } })).toBe(0);
  });

  it('refuses an it_contact', async () => {
    const itContact: Principal = { ...admin, role: 'it_contact' };
    expect(await status(createNotice(t.ctx, itContact, { notice_title: 'IT notice' }))).toBe(403);
    expect(await status(listWebNotices(t.ctx, itContact))).toBe(403);
  });
});
