import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuditEvent, Notice, Notification, Parent } from '../../src/models/index.js';
import { operatorPrincipal } from '../../src/services/access/guards.js';
import { remindUnread } from '../../src/services/audiences/reach.js';
import { deliverDue } from '../../src/push/worker.js';
import { consoleApi, signInConsole } from '../admin/console-client.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { assign, diaryEntry } from '../helpers/classroom.js';
import { bearer, expectError, parent, school, staffLogin, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';

/** Read receipts, reach and reminders, and the tenant boundary around them. */
let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;
const fams: Array<{ id: number; token: string; child: number }> = [];
let author: { id: number; token: string };
let other: { id: number; token: string };
let activityId: number;
let noticeId: number;

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  b = await school(t);
  for (const [i, grade] of ['5', '5', '5', '6'].entries()) {
    const p = await parent(t.ctx, a.schoolId, { father_name: `Father ${i}` });
    const child = await student(a.schoolId, p.id, { grade, name: `Child ${i}` });
    const login = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: p.phone, pin: p.pin, school_id: a.schoolId, fcm_token: `phone-${i}` });
    fams.push({ id: p.id, token: login.body.data.access_token, child: child.id });
  }
  const s = await staffMember(a.schoolId, { rbac: { activities: 'create' } });
  author = { id: s.id, token: await staffLogin(t, s.phone, s.pin, a.schoolId) };
  const o = await staffMember(a.schoolId, { rbac: { activities: 'create' } });
  other = { id: o.id, token: await staffLogin(t, o.phone, o.pin, a.schoolId) };
  await assign(a.schoolId, s.id, fams[0]!.child);
  activityId = (await t.api.post('/teachers-app/activities').set(bearer(author.token)).send({ school_id: a.schoolId, title: 'Grade 5 trip', audience: { grades: ['5'] } })).body.data.id;
  noticeId = (await t.api.post('/web-app/noticeboard').set(bearer(a.adminToken)).send({ school_id: a.schoolId, notice_title: 'Fees due' })).body.data.id;
  await deliverDue(t.ctx);
});
afterAll(async () => t.close());

const read = (token: string, entity_type: string, entity_id: number) => t.api.post('/parent-app/engagement/read').set(bearer(token)).send({ entity_type, entity_id });

describe('POST /parent-app/engagement/read', () => {
  it('keeps the first read and answers its time every time; the feeds show read_at', async () => {
    const first = await read(fams[0]!.token, 'activity', activityId);
    expect(first.status).toBe(200);
    expect(first.body.data.read_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    await new Promise((r) => setTimeout(r, 20));
    expect((await read(fams[0]!.token, 'activity', activityId)).body.data.read_at).toBe(first.body.data.read_at);
    const feed = (await t.api.get('/parent-app/activities').set(bearer(fams[0]!.token))).body.data;
    expect(feed.find((x: { id: number }) => x.id === activityId).read_at).toBe(first.body.data.read_at);
    const unreadFeed = (await t.api.get('/parent-app/activities').set(bearer(fams[1]!.token))).body.data;
    expect(unreadFeed.find((x: { id: number }) => x.id === activityId).read_at).toBeNull();
    expect((await read(fams[1]!.token, 'noticeboard', noticeId)).status).toBe(200);
    const board = (await t.api.get('/parent-app/noticeboard').set(bearer(fams[1]!.token))).body.data;
    expect(board.find((n: { id: number }) => n.id === noticeId).read_at).toEqual(expect.any(String));
    const diary = await diaryEntry(a.schoolId, author.id, { grade: '5' });
    expect((await read(fams[2]!.token, 'diary', diary)).status).toBe(200);
    const entries = (await t.api.get('/parent-app/diary').set(bearer(fams[2]!.token))).body.data;
    expect(entries.find((d: { id: number }) => d.id === diary).read_at).toEqual(expect.any(String));
  });

  it('answers 404 for what the parent cannot see, 400 for a bad type', async () => {
    expectError(await read(fams[3]!.token, 'activity', activityId), 404, 'NOT_FOUND');
    const foreign = (await t.api.post('/web-app/noticeboard').set(bearer(b.adminToken)).send({ school_id: b.schoolId, notice_title: 'B only' })).body.data.id;
    expectError(await read(fams[0]!.token, 'noticeboard', foreign), 404, 'NOT_FOUND');
    expectError(await read(fams[0]!.token, 'write_to', 1), 400, 'BAD_REQUEST');
  });
});

describe('reach', () => {
  it('counts the families, who read it and who was pushed it, and names the unread a page at a time', async () => {
    const res = await t.api.get(`/teachers-app/activities/${activityId}/reach`).query({ limit: 1 }).set(bearer(author.token));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ families: 3, read: 1, unread: 2, pushed: 3, pagination: { total: 2, page: 1, limit: 1, pages: 2 } });
    expect(res.body.data.unread_families).toEqual([{ parent_id: fams[1]!.id, father_name: 'Father 1', phone_no: expect.any(String), children: [{ id: fams[1]!.child, student_full_name: 'Child 1', grade: '5' }] }]);
    const page2 = await t.api.get(`/web-app/activities/${activityId}/reach`).query({ limit: 1, page: 2 }).set(bearer(a.adminToken));
    expect(page2.body.data.unread_families.map((f: { parent_id: number }) => f.parent_id)).toEqual([fams[2]!.id]);
    const notice = await t.api.get(`/web-app/noticeboard/${noticeId}/reach`).set(bearer(a.adminToken));
    expect(notice.body.data).toMatchObject({ families: 4, read: 1, unread: 3 });
  });

  it('is the author\'s, a manager\'s or an admin\'s; another school\'s item is 404', async () => {
    expectError(await t.api.get(`/teachers-app/activities/${activityId}/reach`).set(bearer(other.token)), 403, 'FORBIDDEN');
    expectError(await t.api.get(`/web-app/activities/${activityId}/reach`).set(bearer(b.adminToken)), 404, 'NOT_FOUND');
    expectError(await t.api.get(`/web-app/noticeboard/${noticeId}/reach`).set(bearer(b.adminToken)), 404, 'NOT_FOUND');
    expectError(await t.api.post(`/web-app/noticeboard/${noticeId}/remind`).set(bearer(b.adminToken)), 404, 'NOT_FOUND');
  });
});

describe('reminders', () => {
  it('push the unread families only, at most once an hour (429 with Retry-After)', async () => {
    const res = await t.api.post(`/teachers-app/activities/${activityId}/remind`).set(bearer(author.token));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ queued: 2 });
    const reminders = await Notification.findAll({ where: { school_id: a.schoolId, event: 'reminder', entity_id: activityId }, raw: true });
    expect(reminders.map((n) => n.target_id).sort()).toEqual([fams[1]!.id, fams[2]!.id].sort());
    const again = await t.api.post(`/web-app/activities/${activityId}/remind`).set(bearer(a.adminToken));
    expectError(again, 429, 'TOO_MANY_REQUESTS');
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(3000);
    expect(await Notification.count({ where: { school_id: a.schoolId, event: 'reminder', entity_id: activityId } })).toBe(2);
  });

  it('only for published items (409), and from the command line', async () => {
    const draft = (await t.api.post('/teachers-app/activities').set(bearer(author.token)).send({ school_id: a.schoolId, title: 'Draft', status: 'draft' })).body.data.id;
    expectError(await t.api.post(`/teachers-app/activities/${draft}/remind`).set(bearer(author.token)), 409, 'CONFLICT');
    const env = cliEnv(t);
    const run = await runCli(env, ['remind', '--school', a.schoolId, '--notice', String(noticeId), '--json']);
    expect(run.code).toBe(0);
    expect(run.json).toEqual({ queued: 3 });
    const twice = await runCli(env, ['remind', '--school', a.schoolId, '--notice', String(noticeId)]);
    expect(twice.code).toBe(1);
    const both = await runCli(env, ['remind', '--school', a.schoolId, '--notice', '1', '--activity', '2']);
    expect(both.code).toBe(2);
  });
});

describe('a reminder that would queue nothing', () => {
  /** A school of its own, so its reminders' events and records are the test's alone. */
  async function setting(devices: boolean[]) {
    const s = await school(t);
    const families: Array<{ id: number; phone: string; pin: string; token: string }> = [];
    for (const [i, device] of devices.entries()) {
      const p = await parent(t.ctx, s.schoolId);
      await student(s.schoolId, p.id, { grade: '5' });
      const login = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: p.phone, pin: p.pin, school_id: s.schoolId, ...(device ? { fcm_token: `quiet-${i}` } : {}) });
      families.push({ ...p, token: login.body.data.access_token });
    }
    const notice = (await t.api.post('/web-app/noticeboard').set(bearer(s.adminToken)).send({ school_id: s.schoolId, notice_title: 'Sports day kit' })).body.data.id as number;
    await Notification.destroy({ where: { school_id: s.schoolId } });
    return { s, families, notice };
  }
  const remind = (s: SchoolFixture, notice: number) => t.api.post(`/web-app/noticeboard/${notice}/remind`).set(bearer(s.adminToken));
  const nothingWritten = async (s: SchoolFixture, notice: number) => {
    expect(await Notification.count({ where: { school_id: s.schoolId } })).toBe(0);
    expect(await AuditEvent.count({ where: { school_id: s.schoolId, action: 'noticeboard.remind' } })).toBe(0);
    expect((await Notice.findByPk(notice))!.reminded_at).toBeNull();
  };

  it('when every family has read it: 200 {queued: 0}, nothing written, and the hour not started', async () => {
    const { s, families, notice } = await setting([true, true]);
    for (const f of families) await read(f.token, 'noticeboard', notice);
    const res = await remind(s, notice);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Every family has read it: no reminder sent', data: { queued: 0 } });
    await nothingWritten(s, notice);
    expect((await remindUnread(t.ctx, operatorPrincipal(s.schoolId), 'noticeboard', notice))).toEqual({ queued: 0, reason: 'all_read' });
    // A family joins the audience unread: the first reminder that reaches someone is not held back.
    const p = await parent(t.ctx, s.schoolId);
    await student(s.schoolId, p.id, { grade: '5' });
    await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: p.phone, pin: p.pin, school_id: s.schoolId, fcm_token: 'late-joiner' });
    const real = await remind(s, notice);
    expect(real.body.data).toEqual({ queued: 1 });
    expect((await Notice.findByPk(notice))!.reminded_at).not.toBeNull();
  });

  it('when none of the unread can be reached (no channel left, or notices turned off): 200 {queued: 0}, nothing written, the hour not started', async () => {
    const { s, families, notice } = await setting([false, true]);
    // No device and no e-mail: SMS is the family's last channel, and it is off.
    await t.api.put('/parent-app/notification-preferences').set(bearer(families[0]!.token)).send({ channels: { sms: false } });
    await t.api.put('/parent-app/notification-preferences').set(bearer(families[1]!.token)).send({ categories: { notices: false } });
    const res = await remind(s, notice);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ queued: 0 });
    await nothingWritten(s, notice);
    await t.api.put('/parent-app/notification-preferences').set(bearer(families[1]!.token)).send({ categories: { notices: true } });
    // Once one family can be reached, the other's `no channel` record is written with its push: two records.
    expect((await remind(s, notice)).body.data).toEqual({ queued: 2 });
    expectError(await remind(s, notice), 429, 'TOO_MANY_REQUESTS');
  });

  it("when the only channel left is an SMS to a phone that is no number: 200 {queued: 0}, nothing written, the hour not started", async () => {
    const { s, families, notice } = await setting([false]);
    await Parent.update({ phone_no: '0000000' }, { where: { id: families[0]!.id } });
    const res = await remind(s, notice);
    expect(res.body).toEqual({ success: true, message: 'No family in the audience can be reached: no reminder sent', data: { queued: 0 } });
    await nothingWritten(s, notice);
  });

  it('when the audience has no family in it: 200 {queued: 0} with the reason unreachable, not "every family has read it"', async () => {
    const { s, notice } = await setting([]);
    const res = await remind(s, notice);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'No family in the audience can be reached: no reminder sent', data: { queued: 0 } });
    await nothingWritten(s, notice);
  });

  it('from the command line: prints 0 queued and why, exit 0', async () => {
    const { s, families, notice } = await setting([true]);
    const env = cliEnv(t);
    const outcome = async () => {
      const run = await runCli(env, ['remind', '--school', s.schoolId, '--notice', String(notice)]);
      const json = await runCli(env, ['remind', '--school', s.schoolId, '--notice', String(notice), '--json']);
      return { code: run.code, out: run.stdout.trim().split('\n'), jsonCode: json.code, json: json.json };
    };
    // The only family has turned notices off: nobody can be reached.
    await t.api.put('/parent-app/notification-preferences').set(bearer(families[0]!.token)).send({ categories: { notices: false } });
    expect(await outcome()).toEqual({
      code: 0, out: ['0 queued', 'No family in the audience can be reached: no reminder sent'], jsonCode: 0, json: { queued: 0, reason: 'unreachable' },
    });
    await read(families[0]!.token, 'noticeboard', notice);
    expect(await outcome()).toEqual({ code: 0, out: ['0 queued', 'Every family has read it: no reminder sent'], jsonCode: 0, json: { queued: 0, reason: 'all_read' } });
    await nothingWritten(s, notice);
    // A notice for a group with no member yet: its audience has no family at all.
    const group = (await t.api.post('/web-app/groups').set(bearer(s.adminToken)).send({ name: 'Chess club' })).body.data.id as number;
    const empty = (await t.api.post('/web-app/noticeboard').set(bearer(s.adminToken)).send({ school_id: s.schoolId, notice_title: 'Chess on Friday', audience: { group_ids: [group] } })).body.data.id as number;
    await Notification.destroy({ where: { school_id: s.schoolId } });
    const run = await runCli(env, ['remind', '--school', s.schoolId, '--notice', String(empty)]);
    expect({ code: run.code, out: run.stdout.trim().split('\n') }).toEqual({ code: 0, out: ['0 queued', 'No family in the audience can be reached: no reminder sent'] });
    await nothingWritten(s, empty);
  });
});

describe('reach and reminders in the console', () => {
  it('shows an item\'s reach and sends a reminder through the same services', async () => {
    const c = await startTestApp({ ADMIN_CONSOLE_ENABLED: 'true' });
    try {
      const s = await school(c);
      const p = await parent(c.ctx, s.schoolId);
      await student(s.schoolId, p.id, { grade: '5' });
      await c.api.post('/parent-app/parent-auth-verification').send({ phone_no: p.phone, pin: p.pin, school_id: s.schoolId, fcm_token: 'console-parent-phone' });
      const notice = (await c.api.post('/web-app/noticeboard').set(bearer(s.adminToken)).send({ school_id: s.schoolId, notice_title: 'Picnic' })).body.data.id;
      const agent = await signInConsole(c, s.adminEmail);
      const reach = await agent.get(`/admin/api/resources/notices/records/${notice}/reach`);
      expect(reach.body.reach).toMatchObject({ families: 1, read: 0, unread: 1 });
      const remind = await consoleApi(agent).act('notices', notice, 'remind');
      expect(remind.body.notice).toMatchObject({ type: 'success', message: expect.stringMatching(/Reminder queued/) });
      const again = await consoleApi(agent).act('notices', notice, 'remind');
      expect(again.body.notice).toMatchObject({ type: 'error' });
      const other = await signInConsole(c, (await school(c)).adminEmail);
      expect((await other.get(`/admin/api/resources/notices/records/${notice}/reach`)).body.reach).toBeUndefined();
    } finally {
      await c.close();
    }
  });
});
