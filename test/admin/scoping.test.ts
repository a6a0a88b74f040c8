import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import type { Model, ModelStatic } from 'sequelize';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { parent, school, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';
import {
  Activity, AdminUser, Attendance, AuditEvent, Comment, Designation, DiaryEntry, Grade, Notice, Notification, Parent, Reaction, School, Session, Staff, Student,
  WriteToReply, WriteToRequest,
} from '../../src/models/index.js';
import { consoleApi, expectNotFound, ids, signInConsole, type ConsoleApi } from './console-client.js';

/**
 * School A's super_admin against school B's records, through every door of the console: list, filters,
 * search (the reference pickers), show, edit, new, delete, bulk delete and the record actions.
 */
let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;
let api: ConsoleApi;

interface Target { resource: string; model: ModelStatic<Model>; id: number; search?: string }
const targets: Target[] = [];
const own: Record<string, number> = {};
let snapshotBefore: string;

async function schoolBRows(): Promise<string> {
  const rows: unknown[] = [];
  for (const target of targets) rows.push(await target.model.findByPk(target.id, { raw: true }));
  return JSON.stringify(rows);
}

beforeAll(async () => {
  t = await startTestApp({ ADMIN_CONSOLE_ENABLED: 'true' });
  a = await school(t, 'alpha-school');
  b = await school(t, 'beta-school');

  const pb = await parent(t.ctx, b.schoolId, { father_name: 'Beta Father' });
  const sb = await student(b.schoolId, pb.id, { name: 'Beta Student' });
  const stb = await staffMember(b.schoolId, { name: 'Beta Teacher' });
  const designation = (await Designation.findOne({ where: { school_id: b.schoolId } }))!;
  const grade = (await Grade.findOne({ where: { school_id: b.schoolId } }))!;
  const notice = await Notice.create({ school_id: b.schoolId, notice_title: 'Beta notice' });
  const activity = await Activity.create({ school_id: b.schoolId, title: 'Beta activity', staff_id: stb.id, status: 'published' });
  const thread = await WriteToRequest.create({ school_id: b.schoolId, parent_id: pb.id, student_id: sb.id, type: 'query', subject: 'Beta question', message: 'Hello' });
  const reply = await WriteToReply.create({ school_id: b.schoolId, write_to_id: thread.id, author_type: 'parent', author_id: pb.id, author_name: 'Beta Father', message: 'Beta reply' });
  const comment = await Comment.create({ school_id: b.schoolId, entity_type: 'activity', entity_id: activity.id, parent_id: pb.id, content: 'Beta comment' });
  const reaction = await Reaction.create({ school_id: b.schoolId, entity_type: 'activity', entity_id: activity.id, parent_id: pb.id, reaction_type: 'like' });
  const diary = await DiaryEntry.create({ school_id: b.schoolId, staff_id: stb.id, grade: '5', title: 'Beta homework' });
  const mark = await Attendance.create({ school_id: b.schoolId, student_id: sb.id, date: '2026-01-05', status: 'present' });
  const session = (await Session.findOne({ where: { school_id: b.schoolId } }))!;
  const notification = await Notification.create({ school_id: b.schoolId, event: 'test_push', target_type: 'token', address: 'device-token-b', title: 'Beta push', body: 'x', status: 'failed' });

  targets.push(
    { resource: 'students', model: Student, id: sb.id, search: 'Beta Student' },
    { resource: 'parents', model: Parent, id: pb.id, search: 'Beta Father' },
    { resource: 'staff', model: Staff, id: stb.id, search: 'Beta Teacher' },
    { resource: 'designations', model: Designation, id: designation.id, search: designation.name },
    { resource: 'grades', model: Grade, id: grade.id, search: grade.name },
    { resource: 'notices', model: Notice, id: notice.id, search: 'Beta notice' },
    { resource: 'activities', model: Activity, id: activity.id, search: 'Beta activity' },
    { resource: 'write_to_requests', model: WriteToRequest, id: thread.id, search: 'Beta question' },
    { resource: 'write_to_replies', model: WriteToReply, id: reply.id },
    { resource: 'comments', model: Comment, id: comment.id },
    { resource: 'reactions', model: Reaction, id: reaction.id },
    { resource: 'diary_entries', model: DiaryEntry, id: diary.id, search: 'Beta homework' },
    { resource: 'attendance', model: Attendance, id: mark.id },
    { resource: 'admin_users', model: AdminUser, id: b.adminId, search: 'Head Admin' },
    { resource: 'sessions', model: Session, id: session.id },
    { resource: 'notifications', model: Notification, id: notification.id },
  );

  const pa = await parent(t.ctx, a.schoolId, { father_name: 'Alpha Father' });
  own.students = (await student(a.schoolId, pa.id, { name: 'Alpha Student' })).id;
  own.staff = (await staffMember(a.schoolId, { name: 'Alpha Teacher' })).id;
  own.parents = pa.id;
  api = consoleApi(await signInConsole(t, a.adminEmail));
  snapshotBefore = await schoolBRows();
  // AdminJS's start-up (seconds, more on a loaded machine) is paid once per file, here.
}, 180_000);
afterAll(async () => t.close());

describe("school A's super_admin never reaches school B's records", () => {
  it('lists only its own school, with or without filters naming the other school or its ids', async () => {
    for (const target of targets) {
      const all = await api.list(target.resource, { perPage: 500 });
      expect({ resource: target.resource, status: all.status }).toEqual({ resource: target.resource, status: 200 });
      expect(ids(all)).not.toContain(target.id);
      for (const row of all.body.records) expect(row.params.school_id).toBe(a.schoolId);

      for (const filters of [{ 'filters.id': target.id }, { 'filters.school_id': b.schoolId }] as Array<Record<string, string | number>>) {
        const res = await api.list(target.resource, filters);
        expect({ resource: target.resource, found: ids(res).filter((id) => id === target.id) }).toEqual({ resource: target.resource, found: [] });
        expect(res.body.records.every((r: { params: { school_id: string } }) => r.params.school_id === a.schoolId)).toBe(true);
      }
    }
    const students = await api.list('students');
    expect(ids(students)).toEqual([own.students]);
    expect(students.body.meta.total).toBe(1);
  });

  it('search (what reference pickers call) finds only its own school', async () => {
    for (const target of targets.filter((x) => x.search)) {
      const res = await api.search(target.resource, target.search!);
      expect({ resource: target.resource, found: ids(res).includes(target.id) }).toEqual({ resource: target.resource, found: false });
    }
    expect(ids(await api.search('parents', 'Father'))).toEqual([own.parents]);
    expect(ids(await api.search('staff', 'Teacher'))).toEqual([own.staff]);
  });

  it('show, edit and delete answer as not found, and record actions do not run', async () => {
    for (const target of targets) {
      expectNotFound(await api.show(target.resource, target.id));
      expectNotFound(await api.editForm(target.resource, target.id));
      expectNotFound(await api.edit(target.resource, target.id, { name: 'Taken over', notice_title: 'Taken over', title: 'Taken over', student_full_name: 'Taken over' }));
      expectNotFound(await api.remove(target.resource, target.id));
    }
    for (const [resource, action] of [['staff', 'archive'], ['staff', 'resetPin'], ['students', 'archive'], ['students', 'resetParentPin'], ['write_to_requests', 'resolve'], ['sessions', 'revoke'], ['parents', 'testPush']]) {
      const target = targets.find((x) => x.resource === resource)!;
      expectNotFound(await api.act(resource, target.id, action!));
    }
  });

  it('bulk delete of the other school ids is refused, and with mixed ids touches its own only', async () => {
    const notice = targets.find((x) => x.resource === 'notices')!;
    const onlyB = await api.bulkDelete('notices', [notice.id]);
    expect(onlyB.status).toBe(404);
    const mine = await Notice.create({ school_id: a.schoolId, notice_title: 'Alpha notice' });
    const mixed = await api.bulkDelete('notices', [mine.id, notice.id]);
    expect(mixed.status).toBe(200);
    expect((await Notice.findByPk(mine.id))!.notice_deleted).toBe(1);
    expect((await Notice.findByPk(notice.id))!.notice_deleted).toBe(0);
  });

  it('a new record is always of its own school, whatever school_id the form carries', async () => {
    const res = await api.create('notices', { notice_title: 'Planted notice', notice_type: 'general', school_id: b.schoolId });
    expect(res.body.notice).toMatchObject({ type: 'success' });
    const created = await Notice.findOne({ where: { notice_title: 'Planted notice' } });
    expect(created!.school_id).toBe(a.schoolId);
  });

  it("does not show the other school's record through a reference of its own record", async () => {
    const pb = targets.find((x) => x.resource === 'parents')!;
    const crossLinked = await student(a.schoolId, pb.id, { name: 'Cross Linked' });
    const res = await api.show('students', crossLinked.id);
    expect(res.body.record.params.parent_id).toBe(pb.id);
    expect(res.body.record.populated.parent_id ?? null).toBeNull();
    const filtered = await api.list('students', { 'filters.parent_id': pb.id });
    expect(ids(filtered)).toEqual([crossLinked.id]);
    expect(JSON.stringify(filtered.body)).not.toContain('Beta Father');
  });

  it("does not name the other school through an audit event of its own that points at it", async () => {
    await School.update({ name: 'Beta Academy' }, { where: { id: b.schoolId } });
    const event = await AuditEvent.create({ school_id: a.schoolId, at: new Date(), actor_type: 'system', actor_id: null, actor_name: 'test', door: 'job', action: 'school.update', entity_type: 'school', entity_id: b.schoolId, changes: null, ip: null, request_id: null });
    const own = await AuditEvent.create({ school_id: a.schoolId, at: new Date(), actor_type: 'system', actor_id: null, actor_name: 'test', door: 'job', action: 'school.update', entity_type: 'school', entity_id: a.schoolId, changes: null, ip: null, request_id: null });
    const listed = await api.list('audit_events', { 'filters.action': 'school.update' });
    const items = Object.fromEntries(listed.body.records.map((r: { id: string; params: Record<string, unknown> }) => [r.id, r.params]));
    expect(items[String(own.id)]?.['item.label']).toBe(`School ${a.schoolId}`);
    expect(items[String(own.id)]?.['item.href']).toBe(`/admin/resources/school_settings/records/${a.schoolId}/show`);
    expect(items[String(event.id)]?.['item.label']).toBe(`School ${b.schoolId}`);
    expect(items[String(event.id)]?.['item.href']).toBeNull();
    expect(JSON.stringify(listed.body)).not.toContain('Beta Academy');
  });

  it("left every record of school B as it was", async () => {
    expect(await schoolBRows()).toBe(snapshotBefore);
  });

  it('an unknown resource or action answers 404, not 500', async () => {
    expect((await api.list('no_such_table')).status).toBe(404);
    expect((await api.act('staff', own.staff!, 'noSuchAction')).status).toBe(404);
  });
});

describe('hashes, tokens and device addresses', () => {
  it('are never in what the console sends, nor usable as filters or sort keys', async () => {
    const secrets = ['pin_hash', 'password_hash', 'token_hash', 'pin_setup_token_hash', 'fcm_token', 'address'];
    for (const resource of ['staff', 'parents', 'admin_users', 'sessions', 'notifications']) {
      const res = await api.list(resource, { perPage: 500 });
      for (const row of res.body.records) for (const key of secrets) expect(Object.keys(row.params)).not.toContain(key);
    }
    const page = await api.list('staff', { 'filters.pin_hash': 'x', sortBy: 'pin_hash' });
    expect(page.status).toBe(200);
    expect(ids(page)).toEqual([own.staff]);
    const html = await (await signInConsole(t, a.adminEmail)).get('/admin/resources/staff');
    expect(html.text).not.toMatch(/pin_hash|password_hash|token_hash|fcm_token/);
  });
});

describe('the operator (platform_admin)', () => {
  it('sees every school', async () => {
    await AdminUser.create({
      school_id: null, name: 'Operator', email: 'operator@platform.example', role: 'platform_admin',
      password_hash: (await AdminUser.findByPk(a.adminId, { attributes: ['password_hash'], raw: true }))!.password_hash,
    });
    const operator = consoleApi(await signInConsole(t, 'operator@platform.example'));
    const students = await operator.list('students', { perPage: 500 });
    const schools = new Set(students.body.records.map((r: { params: { school_id: string } }) => r.params.school_id));
    expect(schools).toEqual(new Set([a.schoolId, b.schoolId]));
    const listed = (await operator.list('schools')).body.records.map((r: { id: string }) => r.id);
    expect(listed).toEqual(expect.arrayContaining([a.schoolId, b.schoolId]));
    const staffB = targets.find((x) => x.resource === 'staff')!;
    const shown = await operator.show('staff', staffB.id);
    expect(shown.body.record.params.name).toBe('Beta Teacher');
  });
});
