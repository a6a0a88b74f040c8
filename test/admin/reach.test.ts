import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Notification, Parent, School } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { adminUser, bearer, parent, school, student, type SchoolFixture } from '../helpers/fixtures.js';
import { consoleApi, ids, noticeOf, signInConsole, type ConsoleApi } from './console-client.js';

/** The console's side of reaching every family: channels and delivery of records, the SMS settings, a parent's e-mail. */
let t: TestApp;
let a: SchoolFixture;
let sa: ConsoleApi;

beforeAll(async () => {
  t = await startTestApp({ ADMIN_CONSOLE_ENABLED: 'true', SMS_DEFAULT_COUNTRY: 'IN' });
  a = await school(t);
  sa = consoleApi(await signInConsole(t, a.adminEmail));
});
afterAll(async () => t.close());

/** A family reached by SMS (no device, no e-mail) told about a notice through the API, as the office posts it. */
async function smsNotice(title: string) {
  const p = await parent(t.ctx, a.schoolId);
  const child = await student(a.schoolId, p.id);
  const res = await t.api.post('/web-app/noticeboard').set(bearer(a.adminToken)).send({ notice_title: title, notice_desc: 'Text', audience: { student_ids: [child.id] } });
  expect(res.status).toBe(201);
  return { parentId: p.id, noticeId: res.body.data.id as number };
}

describe('Notifications in the console', () => {
  it('filters by channel and shows each record\'s channel, status and delivery time', async () => {
    const { parentId, noticeId } = await smsNotice('Bus late today');
    const sms = (await Notification.findOne({ where: { school_id: a.schoolId, entity_id: noticeId, channel: 'sms' } }))!;
    const deliveredAt = new Date('2026-03-02T08:15:00Z');
    await sms.update({ status: 'sent', sent_at: new Date('2026-03-02T08:14:58Z'), delivered_at: deliveredAt });
    const push = await Notification.create({
      school_id: a.schoolId, event: 'notice_published', channel: 'push', entity_type: 'noticeboard', entity_id: noticeId, target_type: 'parent', target_id: parentId,
      title: 'Bus late today', body: 'Text', status: 'sent', next_attempt_at: null,
    });

    const bySms = ids(await sa.list('notifications', { 'filters.channel': 'sms', perPage: 100 }));
    expect(bySms).toContain(sms.id);
    expect(bySms).not.toContain(push.id);
    expect(ids(await sa.list('notifications', { 'filters.channel': 'push', perPage: 100 }))).toContain(push.id);

    const shown = (await sa.show('notifications', sms.id)).body.record.params as Record<string, unknown>;
    expect(shown).toMatchObject({ channel: 'sms', status: 'sent', event: 'notice_published' });
    expect(new Date(String(shown.delivered_at)).toISOString()).toBe(deliveredAt.toISOString());
    // The phone it went to is not the console's to show.
    expect(shown.address).toBeUndefined();
    expect((await sa.show('notifications', push.id)).body.record.params.delivered_at).toBeNull();
  });
});

describe('School settings in the console', () => {
  it('shows the country (the default until set), the SMS limit and this month\'s use; the super_admin edits country and limit', async () => {
    const used = async () => Number((await sa.show('school_settings', a.schoolId)).body.record.params.sms_used_this_month);
    const start = await used();
    await smsNotice('Sports day');
    const before = (await sa.show('school_settings', a.schoolId)).body.record.params as Record<string, unknown>;
    expect(before).toMatchObject({ country: 'IN', sms_monthly_limit: 1000, sms_used_this_month: start + 1 });

    expect(noticeOf(await sa.edit('school_settings', a.schoolId, { country: 'gb', sms_monthly_limit: '250' }))).toMatchObject({ type: 'success' });
    expect(await School.findByPk(a.schoolId, { attributes: ['country', 'sms_monthly_limit'], raw: true })).toEqual({ country: 'GB', sms_monthly_limit: 250 });
    expect((await sa.show('school_settings', a.schoolId)).body.record.params).toMatchObject({ country: 'GB', sms_monthly_limit: 250, sms_used_this_month: start + 1 });
    // The REST door reads the same.
    expect((await t.api.get('/web-app/school').set(bearer(a.adminToken))).body.data).toMatchObject({ country: 'GB', sms_monthly_limit: 250, sms_used_this_month: start + 1 });
  });

  it('refuses a code that is not a country and a negative limit, on their fields, changing nothing; an admin cannot edit', async () => {
    const bad = await sa.edit('school_settings', a.schoolId, { country: 'XX' });
    expect(bad.body.record.errors.country.message).toMatch(/"XX" is not an ISO 3166-1 alpha-2 country code/);
    expect(noticeOf(bad)).toMatchObject({ type: 'error' });
    const negative = await sa.edit('school_settings', a.schoolId, { sms_monthly_limit: '-1' });
    expect(noticeOf(negative)).toMatchObject({ type: 'error' });
    expect(Object.keys(negative.body.record.errors)).toEqual(['sms_monthly_limit']);
    const admin = await adminUser(t, a.schoolId, 'admin');
    await consoleApi(await signInConsole(t, admin.email)).edit('school_settings', a.schoolId, { country: 'US', sms_monthly_limit: '5' });
    expect(await School.findByPk(a.schoolId, { attributes: ['country', 'sms_monthly_limit'], raw: true })).toEqual({ country: 'GB', sms_monthly_limit: 250 });
  });
});

describe("A parent's e-mail in the console", () => {
  it('is edited by the office and then counts as verified; one the parent gave in the app shows unverified', async () => {
    const p = await parent(t.ctx, a.schoolId);
    await Parent.update({ email: 'own@example.org', unverified_email: 'own@example.org' }, { where: { id: p.id } });
    expect((await sa.show('parents', p.id)).body.record.params).toMatchObject({ email: 'own@example.org', email_verified: 0 });

    expect(noticeOf(await sa.edit('parents', p.id, { email: 'Family.Rao@Example.org' }))).toEqual({ type: 'success', message: 'Parent saved' });
    const shown = (await sa.show('parents', p.id)).body.record.params as Record<string, unknown>;
    expect(shown).toMatchObject({ email: 'family.rao@example.org', email_verified: 1 });
    expect(shown.unverified_email).toBeUndefined();
    // The API's view agrees: the parent's own profile reads verified.
    expect(await Parent.findByPk(p.id, { attributes: ['email', 'unverified_email'], raw: true })).toEqual({ email: 'family.rao@example.org', unverified_email: null });

    const bad = await sa.edit('parents', p.id, { email: 'not an address' });
    expect(noticeOf(bad)).toMatchObject({ type: 'error' });
    expect((await Parent.findByPk(p.id, { raw: true }))!.email).toBe('family.rao@example.org');
  });
});
