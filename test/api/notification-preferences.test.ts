import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Notification, School } from '../../src/models/index.js';
import { enqueue } from '../../src/push/outbox.js';
import { deliverDue } from '../../src/push/worker.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { assign, writeTo } from '../helpers/classroom.js';
import { adminUser, bearer, expectError, parent, school, staffLogin, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';

/**
 * A parent's notification preferences: categories they can turn off (the push is recorded skipped,
 * naming the preference) and quiet hours in the school's time zone (the push is held until they end,
 * then sent once). Clock-dependent cases run on jest's fake Date, not on real waiting.
 */
let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;
const family = {} as { id: number; token: string; childId: number };
const teacher = {} as { id: number; token: string };

/** Only Date is faked: the database drivers keep their real timers. */
function freezeAt(iso: string) {
  jest.useFakeTimers({
    now: new Date(iso),
    doNotFake: ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
  });
}

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  b = await school(t);
  const p = await parent(t.ctx, a.schoolId);
  const login = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: p.phone, pin: p.pin, school_id: a.schoolId, fcm_token: 'parent-phone-token' });
  expect(login.status).toBe(200);
  family.id = p.id;
  family.token = login.body.data.access_token;
  family.childId = (await student(a.schoolId, p.id)).id;
  const s = await staffMember(a.schoolId, { rbac: { write_to: 'manage' } });
  teacher.id = s.id;
  teacher.token = await staffLogin(t, s.phone, s.pin, a.schoolId);
  await assign(a.schoolId, s.id, family.childId);
});
afterAll(async () => t.close());
afterEach(() => {
  jest.useRealTimers();
});

const prefs = (body: unknown) => t.api.put('/parent-app/notification-preferences').set(bearer(family.token)).send(body as object);

/** A staff reply to the family's thread: its push to the parent is what the preferences govern. */
async function staffReply(): Promise<Array<Pick<Notification, 'status' | 'last_error' | 'deliver_after' | 'next_attempt_at' | 'id'>>> {
  const thread = await writeTo(a.schoolId, family.id, family.childId);
  const res = await t.api.post(`/teachers-app/write-to/${thread}/reply`).set(bearer(teacher.token)).send({ message: 'Noted, thank you.' });
  expect(res.status).toBe(201);
  return Notification.findAll({
    where: { school_id: a.schoolId, event: 'write_to_reply', entity_id: thread }, attributes: ['id', 'status', 'last_error', 'deliver_after', 'next_attempt_at'], raw: true,
  });
}

describe('GET and PUT /parent-app/notification-preferences', () => {
  it('starts with every category on and no quiet hours, in the school time zone', async () => {
    const res = await t.api.get('/parent-app/notification-preferences').set(bearer(family.token));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      categories: { activities: true, notices: true, write_to: true, diary: true, attendance: true },
      quiet_hours: null,
      channels: { push: true, email: true, sms: true },
      timezone: 'UTC',
    });
  });

  it('changes only what is sent, and keeps it', async () => {
    expect((await prefs({ categories: { diary: false } })).status).toBe(200);
    const res = await prefs({ quiet_hours: { start: '21:30', end: '06:30' } });
    expect(res.body.data).toMatchObject({ categories: { diary: false, activities: true }, quiet_hours: { start: '21:30', end: '06:30' } });
    const again = await t.api.get('/parent-app/notification-preferences').set(bearer(family.token));
    expect(again.body.data).toMatchObject({ categories: { diary: false, notices: true }, quiet_hours: { start: '21:30', end: '06:30' } });
    expect((await prefs({ quiet_hours: null, categories: { diary: true } })).body.data).toMatchObject({ quiet_hours: null, categories: { diary: true } });
  });

  it('keeps both of two concurrent partial updates', async () => {
    const answers = await Promise.all([prefs({ categories: { attendance: false } }), prefs({ categories: { notices: false } }), prefs({ quiet_hours: { start: '23:00', end: '05:00' } })]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    const res = await t.api.get('/parent-app/notification-preferences').set(bearer(family.token));
    expect(res.body.data).toMatchObject({ categories: { attendance: false, notices: false, write_to: true }, quiet_hours: { start: '23:00', end: '05:00' } });
    await prefs({ categories: { attendance: true, notices: true }, quiet_hours: null });
  });

  it.each([
    [{ quiet_hours: { start: '25:00', end: '06:00' } }, 'quiet_hours.start'],
    [{ quiet_hours: { start: '7:00', end: '06:00' } }, 'quiet_hours.start'],
    [{ quiet_hours: { start: '22:00', end: '22:00' } }, 'quiet_hours.end'],
    [{ quiet_hours: { start: '22:00' } }, 'quiet_hours.end'],
    [{ categories: { notices: 'no' } }, 'categories.notices'],
    [{ categories: { sms: false } }, 'categories'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const res = await prefs(body);
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
  });

  it('is the parent app\'s alone', async () => {
    expectError(await t.api.get('/parent-app/notification-preferences').set(bearer(teacher.token)), 403, 'FORBIDDEN');
    expectError(await t.api.put('/parent-app/notification-preferences').set(bearer(a.adminToken)).send({}), 403, 'FORBIDDEN');
    expectError(await t.api.get('/parent-app/notification-preferences'), 401, 'UNAUTHORIZED');
  });
});

describe('what the preferences do to pushes', () => {
  it('records a push of a category turned off as skipped, naming the preference; turned on again, it goes', async () => {
    await prefs({ categories: { write_to: false } });
    const [off] = await staffReply();
    expect(off).toMatchObject({ status: 'skipped', next_attempt_at: null });
    expect(off!.last_error).toMatch(/write_to/);
    await prefs({ categories: { write_to: true } });
    const [on] = await staffReply();
    expect(on).toMatchObject({ status: 'pending', last_error: null, deliver_after: null });
  });

  it('holds a push in quiet hours across midnight until they end, in the school zone across a daylight-saving change, and sends it once', async () => {
    await School.update({ timezone: 'America/New_York' }, { where: { id: a.schoolId } });
    await prefs({ quiet_hours: { start: '22:00', end: '07:00' } });
    try {
      // 22:30 on 7 March in New York (EST); the clocks go forward at 02:00, so 07:00 next morning is 11:00 UTC (EDT).
      freezeAt('2026-03-08T03:30:00Z');
      const [held] = await staffReply();
      expect(held!.status).toBe('pending');
      expect(new Date(held!.deliver_after!).toISOString()).toBe('2026-03-08T11:00:00.000Z');

      const rows = await t.api.get('/web-app/notifications').query({ event: 'write_to_reply' }).set(bearer(a.adminToken));
      expect(rows.body.data.notifications.find((n: { id: number }) => n.id === held!.id)).toMatchObject({ status: 'pending', deliver_after: '2026-03-08T11:00:00.000Z' });

      // Before the end nothing goes; after it, two workers draining at once send it once.
      expect((await deliverDue(t.ctx, { now: new Date('2026-03-08T10:59:00Z') })).claimed).toBe(0);
      const after = new Date('2026-03-08T11:00:01Z');
      const [one, two] = await Promise.all([deliverDue(t.ctx, { now: after }), deliverDue(t.ctx, { now: after })]);
      expect(one.sent + two.sent).toBeGreaterThanOrEqual(1);
      const sent = await Notification.findByPk(held!.id, { raw: true });
      expect({ status: sent!.status, attempts: sent!.attempts }).toEqual({ status: 'sent', attempts: 1 });

      // Outside the quiet hours (09:00 local) a push is not held.
      freezeAt('2026-03-08T13:00:00Z');
      const [day] = await staffReply();
      expect(day).toMatchObject({ status: 'pending', deliver_after: null });
    } finally {
      jest.useRealTimers();
      await prefs({ quiet_hours: null });
      await School.update({ timezone: 'UTC' }, { where: { id: a.schoolId } });
    }
  });

  it('holds a push until the end of quiet hours that end after a clock change back, in the right hour', async () => {
    await School.update({ timezone: 'America/New_York' }, { where: { id: a.schoolId } });
    await prefs({ quiet_hours: { start: '23:00', end: '06:00' } });
    try {
      // 00:30 EDT on 1 November; the clocks go back at 02:00, so 06:00 that morning is EST, 11:00 UTC.
      freezeAt('2026-11-01T04:30:00Z');
      const [held] = await staffReply();
      expect(new Date(held!.deliver_after!).toISOString()).toBe('2026-11-01T11:00:00.000Z');
    } finally {
      jest.useRealTimers();
      await prefs({ quiet_hours: null });
      await School.update({ timezone: 'UTC' }, { where: { id: a.schoolId } });
    }
  });

  it('lets test pushes pass every preference', async () => {
    await prefs({ categories: { activities: false, notices: false, write_to: false, diary: false, attendance: false }, quiet_hours: { start: '00:00', end: '23:59' } });
    try {
      const res = await t.api.post('/web-app/diagnostics/test-push').set(bearer(a.adminToken)).send({ parent_id: family.id });
      expect(res.body.data).toMatchObject({ sent: 1, failed: 0 });
    } finally {
      await prefs({ categories: { activities: true, notices: true, write_to: true, diary: true, attendance: true }, quiet_hours: null });
    }
  });

  it('applies only to the parent\'s own pushes: another school\'s parent with the same preferences is unaffected', async () => {
    const other = await parent(t.ctx, b.schoolId);
    await enqueue([{ school_id: b.schoolId, event: 'write_to_reply', entity_type: 'write_to', entity_id: 1, target_type: 'parent', target_id: other.id, address: 'x', title: 't', body: 'b' }]);
    const rows = await Notification.findAll({ where: { school_id: b.schoolId, target_id: other.id }, raw: true });
    expect(rows.map((r) => r.status)).toEqual(['pending']);
    const it_contact = await adminUser(t, a.schoolId, 'it_contact');
    const listed = await t.api.get('/web-app/notifications').set(bearer(it_contact.token));
    expect(listed.body.data.notifications.every((n: { target_id: number | null }) => n.target_id !== other.id)).toBe(true);
  });
});
