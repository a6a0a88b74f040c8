import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Notice, Notification } from '../../src/models/index.js';
import { publishDue } from '../../src/services/audiences/scheduled.js';
import { consoleApi, signInConsole } from '../admin/console-client.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { bearer, expectError, parent, school, staffLogin, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';

/**
 * Scheduled activities and notices, published by the due-item check with an explicit clock (no real
 * waiting): nothing before the time, published and pushed once at or after it (two checks at once
 * included), moved by editing the time, stopped by a draft, a cancel or a delete; and urgent notices.
 */
let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;
let family: { id: number; token: string };
let teacher: string;
let manager: string;

const inMinutes = (m: number) => new Date(Date.now() + m * 60_000);

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  b = await school(t);
  const p = await parent(t.ctx, a.schoolId);
  await student(a.schoolId, p.id, { grade: '5' });
  const login = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: p.phone, pin: p.pin, school_id: a.schoolId, fcm_token: 'night-stand-phone' });
  family = { id: p.id, token: login.body.data.access_token };
  const s = await staffMember(a.schoolId, { rbac: { activities: 'create', noticeboard: 'create' } });
  teacher = await staffLogin(t, s.phone, s.pin, a.schoolId);
  const m = await staffMember(a.schoolId, { rbac: { noticeboard: 'manage' } });
  manager = await staffLogin(t, m.phone, m.pin, a.schoolId);
});
afterAll(async () => t.close());

const pushes = (event: string, id: number) => Notification.count({ where: { school_id: a.schoolId, event, entity_id: id } });
const feedIds = async () => ((await t.api.get('/parent-app/activities').set(bearer(family.token))).body.data as Array<{ id: number }>).map((x) => x.id);
const boardIds = async () => ((await t.api.get('/parent-app/noticeboard').set(bearer(family.token))).body.data as Array<{ id: number }>).map((x) => x.id);

describe('scheduled activities', () => {
  it('stay hidden and unpushed before their time, publish once at it (two checks at once), keeping created_at', async () => {
    const at = inMinutes(60);
    const res = await t.api.post('/teachers-app/activities').set(bearer(teacher)).send({ school_id: a.schoolId, title: 'Exam results', publish_at: at.toISOString() });
    expect(res.status).toBe(201);
    const item = res.body.data;
    expect(item).toMatchObject({ status: 'scheduled', publish_at: at.toISOString(), published_at: null });
    expect(await feedIds()).not.toContain(item.id);
    expectError(await t.api.post('/parent-app/engagement/read').set(bearer(family.token)).send({ entity_type: 'activity', entity_id: item.id }), 404, 'NOT_FOUND');
    const mine = (await t.api.get('/teachers-app/activities').query({ school_id: a.schoolId }).set(bearer(teacher))).body.data;
    expect(mine.find((x: { id: number }) => x.id === item.id)).toMatchObject({ status: 'scheduled' });

    expect((await publishDue(t.ctx, new Date(at.getTime() - 1000))).activities).toBe(0);
    expect(await pushes('activity_published', item.id)).toBe(0);
    const [one, two] = await Promise.all([publishDue(t.ctx, at), publishDue(t.ctx, at)]);
    expect(one.activities + two.activities).toBe(1);
    expect(await pushes('activity_published', item.id)).toBe(1);
    expect(await feedIds()).toContain(item.id);
    const published = (await t.api.get('/parent-app/activities').set(bearer(family.token))).body.data.find((x: { id: number }) => x.id === item.id);
    expect(published).toMatchObject({ status: 'published', created_at: item.created_at, published_at: expect.any(String) });
    expect((await publishDue(t.ctx, inMinutes(120))).activities).toBe(0);
    expect(await pushes('activity_published', item.id)).toBe(1);
  });

  it('move with publish_at, and stop when set to draft or cancelled', async () => {
    const moved = (await t.api.post('/teachers-app/activities').set(bearer(teacher)).send({ school_id: a.schoolId, title: 'Moved', publish_at: inMinutes(30).toISOString() })).body.data;
    const later = inMinutes(300);
    expect((await t.api.put(`/teachers-app/activities/${moved.id}`).set(bearer(teacher)).send({ publish_at: later.toISOString() })).body.data.publish_at).toBe(later.toISOString());
    const stopped = (await t.api.post('/teachers-app/activities').set(bearer(teacher)).send({ school_id: a.schoolId, title: 'Stopped', publish_at: inMinutes(30).toISOString() })).body.data;
    expect((await t.api.put(`/teachers-app/activities/${stopped.id}`).set(bearer(teacher)).send({ status: 'cancelled' })).body.data.status).toBe('cancelled');
    await publishDue(t.ctx, inMinutes(60));
    expect(await feedIds()).not.toContain(moved.id);
    expect(await feedIds()).not.toContain(stopped.id);
    await publishDue(t.ctx, inMinutes(301));
    expect(await feedIds()).toContain(moved.id);
    expect(await feedIds()).not.toContain(stopped.id);
  });

  it('refuses a time in the past, scheduled without a time, and a time with another status (400)', async () => {
    const post = (body: Record<string, unknown>) => t.api.post('/teachers-app/activities').set(bearer(teacher)).send({ school_id: a.schoolId, title: 'X', ...body });
    for (const body of [{ publish_at: inMinutes(-5).toISOString() }, { status: 'scheduled' }, { status: 'published', publish_at: inMinutes(5).toISOString() }, { publish_at: 'tomorrow' }]) {
      const res = await post(body);
      expectError(res, 400, 'BAD_REQUEST');
      expect(res.body.error.details[0].field).toBe('publish_at');
    }
  });
});

describe('scheduled notices', () => {
  it('stay off the parents\' board until their time, are listed as scheduled to admins, and stop when deleted', async () => {
    const at = inMinutes(45);
    const notice = (await t.api.post('/web-app/noticeboard').set(bearer(a.adminToken)).send({ school_id: a.schoolId, notice_title: 'Fees due', publish_at: at.toISOString() })).body.data;
    expect(notice).toMatchObject({ scheduled: true, published_at: null });
    const gone = (await t.api.post('/web-app/noticeboard').set(bearer(a.adminToken)).send({ school_id: a.schoolId, notice_title: 'Gone', publish_at: at.toISOString() })).body.data;
    await t.api.delete(`/web-app/noticeboard/${gone.id}`).set(bearer(a.adminToken));
    expect(await boardIds()).not.toContain(notice.id);
    expect(await pushes('notice_published', notice.id)).toBe(0);
    const web = (await t.api.get('/web-app/noticeboard').query({ school_id: a.schoolId }).set(bearer(a.adminToken))).body.data.notices;
    expect(web.find((n: { id: number }) => n.id === notice.id)).toMatchObject({ scheduled: true });
    expect((await publishDue(t.ctx, inMinutes(50))).notices).toBe(1);
    expect(await boardIds()).toContain(notice.id);
    expect(await boardIds()).not.toContain(gone.id);
    expect(await pushes('notice_published', notice.id)).toBe(1);
    expect(await pushes('notice_published', gone.id)).toBe(0);
    expectError(await t.api.put(`/web-app/noticeboard/${notice.id}`).set(bearer(a.adminToken)).send({ publish_at: inMinutes(90).toISOString() }), 409, 'CONFLICT');
  });
});

describe('urgent notices', () => {
  it('need an admin or noticeboard.manage, list first, and push past opt-outs and quiet hours', async () => {
    expectError(await t.api.post('/teachers-app/noticeboard').set(bearer(teacher)).send({ school_id: a.schoolId, notice_title: 'Storm', is_urgent: true }), 403, 'FORBIDDEN');
    await t.api.put('/parent-app/notification-preferences').set(bearer(family.token)).send({ categories: { notices: false }, quiet_hours: { start: '00:00', end: '23:59' } });
    const plain = (await t.api.post('/web-app/noticeboard').set(bearer(a.adminToken)).send({ school_id: a.schoolId, notice_title: 'Plain', is_important: true })).body.data;
    const urgent = (await t.api.post('/teachers-app/noticeboard').set(bearer(manager)).send({ school_id: a.schoolId, notice_title: 'School closed: storm', is_urgent: true })).body.data;
    expect(urgent.is_urgent).toBe(true);
    const records = async (id: number) => Notification.findAll({ where: { school_id: a.schoolId, event: 'notice_published', entity_id: id }, raw: true });
    expect((await records(plain.id)).map((n) => n.status)).toEqual(['skipped']);
    // Urgent: by every channel the parent has (a device and a phone), past the category turned off and the quiet hours.
    expect((await records(urgent.id)).map((n) => [n.channel, n.status, n.deliver_after]).sort()).toEqual([['push', 'pending', null], ['sms', 'pending', null]]);
    expect((await boardIds())[0]).toBe(urgent.id);
    await t.api.put('/parent-app/notification-preferences').set(bearer(family.token)).send({ categories: { notices: true }, quiet_hours: null });
  });

  it('are a school\'s own: another school\'s admin cannot reach them', async () => {
    const urgent = (await t.api.post('/web-app/noticeboard').set(bearer(a.adminToken)).send({ school_id: a.schoolId, notice_title: 'Mine', is_urgent: true })).body.data;
    expectError(await t.api.put(`/web-app/noticeboard/${urgent.id}`).set(bearer(b.adminToken)).send({ is_urgent: false }), 404, 'NOT_FOUND');
  });
});

describe('a burst of scheduled notices due at one moment', () => {
  it('is published in one pass, whatever the batch, and one that fails stops none of the others', async () => {
    const due = inMinutes(600);
    const schools = [b, await school(t), await school(t)];
    await Notice.bulkCreate(schools.flatMap((s) => Array.from({ length: 150 }, (_, i) => ({ school_id: s.schoolId, notice_title: `Morning notice ${i}`, notice_type: 'general', publish_at: due }))));
    const stuck = (await Notice.findOne({ where: { school_id: schools[1]!.schoolId, notice_title: 'Morning notice 7' } }))!.id;
    // The database refuses that one notice's publication, as it would a row it cannot write.
    const mysql = t.ctx.db.dialect === 'mysql';
    await t.ctx.db.sequelize.query(mysql
      ? `CREATE TRIGGER refuse_one BEFORE UPDATE ON notices FOR EACH ROW BEGIN IF NEW.id = ${stuck} THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'refused'; END IF; END`
      : `CREATE TRIGGER refuse_one BEFORE UPDATE ON notices WHEN NEW.id = ${stuck} BEGIN SELECT RAISE(ABORT, 'refused'); END`);
    try {
      expect((await publishDue(t.ctx, due)).notices).toBe(449);
      expect(await Notice.count({ where: { published_at: null, notice_deleted: 0, school_id: schools.map((s) => s.schoolId) } })).toBe(1);
    } finally {
      await t.ctx.db.sequelize.query('DROP TRIGGER refuse_one');
    }
    // The next pass takes it again.
    expect((await publishDue(t.ctx, due)).notices).toBe(1);
    expect((await Notice.findByPk(stuck))!.published_at).not.toBeNull();
  });
});

describe('scheduling in the console', () => {
  it('schedules a notice and marks one urgent through the same service', async () => {
    const c = await startTestApp({ ADMIN_CONSOLE_ENABLED: 'true' });
    try {
      const s = await school(c);
      const api = consoleApi(await signInConsole(c, s.adminEmail));
      const at = inMinutes(90).toISOString();
      const created = await api.create('notices', { notice_title: 'Sports day', notice_type: 'event', publish_at: at, is_urgent: 'true' });
      expect(created.body.notice).toMatchObject({ type: 'success' });
      const row = (await c.api.get('/web-app/noticeboard').query({ school_id: s.schoolId }).set(bearer(s.adminToken))).body.data.notices[0];
      expect(row).toMatchObject({ notice_title: 'Sports day', scheduled: true, is_urgent: true, publish_at: at });
      const past = await api.create('notices', { notice_title: 'Too late', notice_type: 'event', publish_at: inMinutes(-5).toISOString() });
      expect(JSON.stringify(past.body)).toMatch(/must be in the future/);
    } finally {
      await c.close();
    }
  });
});
