import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { DateTime } from 'luxon';
import { Op } from 'sequelize';
import { Notification } from '../../src/models/index.js';
import { PIN_SETUP_EVENT, TEST_MESSAGE_EVENT } from '../../src/services/delivery/compose.js';
import { deliverDue } from '../../src/push/worker.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { bearer, parent, school, student, uniquePhone, type SchoolFixture } from '../helpers/fixtures.js';

/**
 * The SMS cost guard (CONTRACT section 24): a school's `sms_monthly_limit`, the SMS written towards
 * it this month (`sms_used_this_month`), and the records past it, `skipped` with `sms monthly limit`.
 * Families without a device or an e-mail are reached by SMS (the log provider here); each test has a
 * school of its own, so that its month's count is its own.
 */
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => t.close());
afterEach(() => {
  jest.useRealTimers();
});

const LIMIT_REACHED = 'sms monthly limit';

/** Only Date is faked: the database drivers keep their real timers. */
function freezeAt(iso: string) {
  jest.useFakeTimers({
    now: new Date(iso),
    doNotFake: ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'],
  });
}

/** A school whose super_admin has set its SMS monthly limit (and, when given, its time zone). */
async function smsSchool(limit: number, timezone?: string): Promise<SchoolFixture> {
  const s = await school(t);
  const res = await t.api.put('/web-app/school').set(bearer(s.adminToken)).send({ sms_monthly_limit: limit, ...(timezone ? { timezone } : {}) });
  expect(res.status).toBe(200);
  expect(res.body.data).toMatchObject({ sms_monthly_limit: limit, sms_used_this_month: 0 });
  return s;
}

/** Families reached by SMS: a parent with a valid phone, no device and no e-mail, and one child each. */
async function smsFamilies(s: SchoolFixture, n: number) {
  const out: Array<{ id: number; phone: string; pin: string; child: number }> = [];
  for (let i = 0; i < n; i++) {
    const p = await parent(t.ctx, s.schoolId);
    out.push({ ...p, child: (await student(s.schoolId, p.id)).id });
  }
  return out;
}

/** A family with a device (an active session with an FCM token): reached by push, not SMS. */
async function deviceFamily(s: SchoolFixture) {
  const p = await parent(t.ctx, s.schoolId);
  const child = (await student(s.schoolId, p.id)).id;
  const login = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: p.phone, pin: p.pin, school_id: s.schoolId, fcm_token: `device-${p.id}` });
  expect(login.status).toBe(200);
  return { ...p, child };
}

const postNotice = (s: SchoolFixture, children: number[], extra: Record<string, unknown> = {}) =>
  t.api.post('/web-app/noticeboard').set(bearer(s.adminToken)).send({ notice_title: 'Sports day on Friday', notice_desc: 'Bring water.', audience: { student_ids: children }, ...extra });

/** Publishes a notice for these children's families and answers its id. */
async function notice(s: SchoolFixture, children: number[], extra: Record<string, unknown> = {}): Promise<number> {
  const res = await postNotice(s, children, extra);
  expect(res.status).toBe(201);
  return res.body.data.id as number;
}

/** The SMS records a notice's publication wrote. */
const smsOf = (s: SchoolFixture, noticeId: number) =>
  Notification.findAll({ where: { school_id: s.schoolId, event: 'notice_published', entity_id: noticeId, channel: 'sms' }, order: [['id', 'ASC']], raw: true });

/** The school's settings as its admin reads them. */
async function settings(s: SchoolFixture): Promise<{ sms_monthly_limit: number; sms_used_this_month: number; timezone: string }> {
  const res = await t.api.get('/web-app/school').set(bearer(s.adminToken));
  expect(res.status).toBe(200);
  return res.body.data;
}

/**
 * What the contract counts as used, from the records themselves: the school's `sms` records written
 * since the 1st of the month in its time zone, without PIN set-up links, test messages and `skipped` records.
 */
async function countedRecords(s: SchoolFixture, timezone: string, now = new Date()): Promise<number> {
  const since = DateTime.fromJSDate(now, { zone: timezone }).startOf('month').toJSDate();
  return Notification.count({
    where: {
      school_id: s.schoolId, channel: 'sms', status: { [Op.ne]: 'skipped' }, event: { [Op.notIn]: [PIN_SETUP_EVENT, TEST_MESSAGE_EVENT] }, created_at: { [Op.gte]: since },
    },
  });
}

describe('the SMS monthly limit', () => {
  it('sends SMS while the school has some left this month, then records the rest skipped with "sms monthly limit", and sends none of those', async () => {
    const s = await smsSchool(3);
    const fams = await smsFamilies(s, 6);

    const first = await notice(s, [fams[0]!.child, fams[1]!.child]);
    expect((await smsOf(s, first)).map((r) => [r.status, r.last_error])).toEqual([['pending', null], ['pending', null]]);
    expect((await settings(s)).sms_used_this_month).toBe(2);

    // One SMS is left: one of the two families gets it, the other's record says why it got none.
    const second = await notice(s, [fams[2]!.child, fams[3]!.child]);
    const split = await smsOf(s, second);
    expect(split.map((r) => r.status).sort()).toEqual(['pending', 'skipped']);
    expect(split.find((r) => r.status === 'skipped')).toMatchObject({ last_error: LIMIT_REACHED, next_attempt_at: null });
    expect(split.find((r) => r.status === 'pending')!.last_error).toBeNull();
    expect((await settings(s)).sms_used_this_month).toBe(3);

    const third = await notice(s, [fams[4]!.child]);
    const [past] = await smsOf(s, third);
    expect(past).toMatchObject({ target_id: fams[4]!.id, status: 'skipped', last_error: LIMIT_REACHED });
    expect((await settings(s)).sms_used_this_month).toBe(3);
    // The office sees why in the records list.
    const listed = await t.api.get('/web-app/notifications').query({ channel: 'sms', limit: 100 }).set(bearer(s.adminToken));
    expect(listed.status).toBe(200);
    expect(listed.body.data.notifications.find((n: { id: number }) => n.id === past!.id)).toMatchObject({ channel: 'sms', status: 'skipped', last_error: LIMIT_REACHED });

    // The worker sends the three within the limit and never the skipped ones.
    while ((await deliverDue(t.ctx)).claimed > 0);
    const all = [...(await smsOf(s, first)), ...(await smsOf(s, second)), ...(await smsOf(s, third))];
    expect(all.map((r) => r.status).sort()).toEqual(['sent', 'sent', 'sent', 'skipped', 'skipped']);
    expect(all.filter((r) => r.status === 'skipped').map((r) => [r.attempts, r.sent_at, r.last_error])).toEqual([[0, null, LIMIT_REACHED], [0, null, LIMIT_REACHED]]);

    // An urgent notice passes preferences and quiet hours, not the limit: the push goes, the SMS is skipped.
    const device = await deviceFamily(s);
    const urgent = await notice(s, [device.child], { is_urgent: true });
    const urgentRecords = await Notification.findAll({ where: { school_id: s.schoolId, event: 'notice_published', entity_id: urgent }, raw: true });
    expect(urgentRecords.map((r) => [r.channel, r.status, r.last_error]).sort()).toEqual([['push', 'pending', null], ['sms', 'skipped', LIMIT_REACHED]]);

    // Raised by one, the limit lets exactly one more SMS go.
    expect((await t.api.put('/web-app/school').set(bearer(s.adminToken)).send({ sms_monthly_limit: 4 })).body.data).toMatchObject({ sms_monthly_limit: 4, sms_used_this_month: 3 });
    const fourth = await notice(s, [fams[5]!.child, fams[0]!.child]);
    expect((await smsOf(s, fourth)).map((r) => r.status).sort()).toEqual(['pending', 'skipped']);
    const after = await settings(s);
    expect(after.sms_used_this_month).toBe(4);
    expect(after.sms_used_this_month).toBe(await countedRecords(s, after.timezone));
  });

  it('counts exactly the SMS written this month that are not skipped, PIN set-up links or test messages: those take nothing from the limit', async () => {
    const s = await smsSchool(3, 'Asia/Kolkata');
    const fams = await smsFamilies(s, 4);
    const device = await deviceFamily(s);

    // Two SMS and a push: two used.
    const first = await notice(s, [fams[0]!.child, fams[1]!.child, device.child]);
    expect((await smsOf(s, first)).map((r) => r.status)).toEqual(['pending', 'pending']);
    expect((await settings(s)).sms_used_this_month).toBe(2);

    // A new parent's PIN set-up link goes by SMS, and is not counted.
    const enrolled = await t.api.post('/web-app/students').set(bearer(s.adminToken)).send({
      student: { student_full_name: 'Kiran Shah', grade: '5' }, parent: { father_name: 'Nikhil Shah', phone_no: uniquePhone() }, addresses: [],
    });
    expect(enrolled.status).toBe(201);
    const pinSetup = await Notification.findAll({ where: { school_id: s.schoolId, event: PIN_SETUP_EVENT }, raw: true });
    expect(pinSetup.map((r) => [r.channel, r.status])).toEqual([['sms', 'pending']]);
    expect((await settings(s)).sms_used_this_month).toBe(2);

    // A test message from the command line goes at once, and is not counted.
    const run = await runCli(cliEnv(t), ['notify', 'test', '--school', s.schoolId, '--channel', 'sms', '--to', uniquePhone(), '--json']);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ channel: 'sms', ok: true });
    expect((await Notification.findAll({ where: { school_id: s.schoolId, event: TEST_MESSAGE_EVENT }, raw: true })).map((r) => [r.channel, r.status])).toEqual([['sms', 'sent']]);
    expect((await settings(s)).sms_used_this_month).toBe(2);

    // Neither took the last SMS of the limit: the next notice has exactly one to give; its skipped record is not counted either.
    const second = await notice(s, [fams[2]!.child, fams[3]!.child]);
    expect((await smsOf(s, second)).map((r) => r.status).sort()).toEqual(['pending', 'skipped']);

    const now = await settings(s);
    expect(now.sms_used_this_month).toBe(3);
    expect(now.sms_used_this_month).toBe(await countedRecords(s, now.timezone));
    // Every kind left out is there to be left out: six SMS records in all.
    expect(await Notification.count({ where: { school_id: s.schoolId, channel: 'sms' } })).toBe(6);
  });

  it('counts an SMS written to a phone that is no number (recorded failed, not skipped) as the contract defines the count', async () => {
    const s = await smsSchool(5);
    const [valid] = await smsFamilies(s, 1);
    const bad = await parent(t.ctx, s.schoolId, { phone: '12345' });
    const badChild = (await student(s.schoolId, bad.id)).id;
    const id = await notice(s, [valid!.child, badChild]);
    const records = await smsOf(s, id);
    expect(records.map((r) => [r.target_id, r.status, r.last_error])).toEqual(expect.arrayContaining([[valid!.id, 'pending', null], [bad.id, 'failed', 'invalid phone number']]));
    const now = await settings(s);
    expect(now.sms_used_this_month).toBe(await countedRecords(s, now.timezone));
  });

  it('starts again on the 1st of the month in the school\'s time zone, not in UTC', async () => {
    const s = await smsSchool(1, 'Asia/Kolkata');
    const fams = await smsFamilies(s, 3);
    // 23:30 on 31 October in Kolkata (18:00 UTC).
    freezeAt('2026-10-31T18:00:00Z');
    expect((await smsOf(s, await notice(s, [fams[0]!.child]))).map((r) => r.status)).toEqual(['pending']);
    expect((await smsOf(s, await notice(s, [fams[1]!.child]))).map((r) => [r.status, r.last_error])).toEqual([['skipped', LIMIT_REACHED]]);
    expect((await settings(s)).sms_used_this_month).toBe(1);
    // 00:30 on 1 November in Kolkata, still 31 October in UTC: a new month for the school.
    freezeAt('2026-10-31T19:00:00Z');
    const fresh = await settings(s);
    expect(fresh.sms_used_this_month).toBe(0);
    expect(await countedRecords(s, fresh.timezone)).toBe(0);
    expect((await smsOf(s, await notice(s, [fams[2]!.child]))).map((r) => r.status)).toEqual(['pending']);
    const later = await settings(s);
    expect(later.sms_used_this_month).toBe(1);
    expect(later.sms_used_this_month).toBe(await countedRecords(s, later.timezone));
  });

  it('of 0 sends no SMS about a post, while PIN set-up links, test messages and pushes still go', async () => {
    const s = await smsSchool(0);
    const fams = await smsFamilies(s, 2);
    const device = await deviceFamily(s);
    const id = await notice(s, [fams[0]!.child, fams[1]!.child, device.child]);
    const records = await Notification.findAll({ where: { school_id: s.schoolId, event: 'notice_published', entity_id: id }, raw: true });
    expect(records.map((r) => [r.channel, r.status, r.last_error]).sort()).toEqual([['push', 'pending', null], ['sms', 'skipped', LIMIT_REACHED], ['sms', 'skipped', LIMIT_REACHED]]);
    expect((await settings(s)).sms_used_this_month).toBe(0);

    const enrolled = await t.api.post('/web-app/students').set(bearer(s.adminToken)).send({
      student: { student_full_name: 'Asha Rao', grade: '5' }, parent: { father_name: 'Ravi Rao', phone_no: uniquePhone() }, addresses: [],
    });
    expect(enrolled.status).toBe(201);
    expect((await Notification.findAll({ where: { school_id: s.schoolId, event: PIN_SETUP_EVENT }, raw: true })).map((r) => [r.channel, r.status, r.last_error])).toEqual([['sms', 'pending', null]]);
    const run = await runCli(cliEnv(t), ['notify', 'test', '--school', s.schoolId, '--channel', 'sms', '--to', uniquePhone(), '--json']);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ channel: 'sms', ok: true });

    while ((await deliverDue(t.ctx)).claimed > 0);
    const sms = await Notification.findAll({ where: { school_id: s.schoolId, channel: 'sms' }, raw: true });
    expect(sms.map((r) => [r.event, r.status]).sort()).toEqual([[PIN_SETUP_EVENT, 'sent'], ['notice_published', 'skipped'], ['notice_published', 'skipped'], [TEST_MESSAGE_EVENT, 'sent']].sort());
    const now = await settings(s);
    expect(now.sms_used_this_month).toBe(0);
    expect(await countedRecords(s, now.timezone)).toBe(0);
  });

  it('holds under notices published concurrently: never more SMS than the limit between them, and none of the limit lost', async () => {
    const limit = 5;
    const s = await smsSchool(limit);
    const fams = await smsFamilies(s, 12);
    // Six notices of two families each, posted at once: twelve SMS wanted, five to give.
    const answers = await Promise.all(
      [0, 1, 2, 3, 4, 5].map((i) => postNotice(s, [fams[2 * i]!.child, fams[2 * i + 1]!.child], { notice_title: `Notice ${i}` })),
    );
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
    const records = (await Promise.all(answers.map((r) => smsOf(s, r.body.data.id as number)))).flat();
    expect(records).toHaveLength(12);
    expect(new Set(records.map((r) => r.target_id)).size).toBe(12);
    expect(records.filter((r) => r.status !== 'skipped').map((r) => r.status)).toEqual(Array(limit).fill('pending'));
    expect(records.filter((r) => r.status === 'skipped').map((r) => r.last_error)).toEqual(Array(12 - limit).fill(LIMIT_REACHED));
    const now = await settings(s);
    expect(now.sms_used_this_month).toBe(limit);
    expect(await countedRecords(s, now.timezone)).toBe(limit);

    // And again at once, with the limit spent: nothing more.
    const more = await smsFamilies(s, 3);
    const again = await Promise.all(more.map((f) => postNotice(s, [f.child])));
    expect(again.map((r) => r.status)).toEqual([201, 201, 201]);
    const extra = (await Promise.all(again.map((r) => smsOf(s, r.body.data.id as number)))).flat();
    expect(extra.map((r) => [r.status, r.last_error])).toEqual(Array(3).fill(['skipped', LIMIT_REACHED]));
    expect((await settings(s)).sms_used_this_month).toBe(limit);
  });
});
