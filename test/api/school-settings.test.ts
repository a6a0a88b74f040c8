import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { School } from '../../src/models/index.js';
import { consoleApi, expectNotFound, signInConsole } from '../admin/console-client.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { adminUser, bearer, expectError, parent, parentLogin, school, staffLogin, staffMember, type SchoolFixture } from '../helpers/fixtures.js';

/** A school's settings (name, IANA time zone) through the three doors: REST, the console, the command line. */
let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;

beforeAll(async () => {
  t = await startTestApp({ ADMIN_CONSOLE_ENABLED: 'true' });
  a = await school(t);
  b = await school(t);
});
afterAll(async () => t.close());

/** Until the school sets them: SMS_DEFAULT_COUNTRY (IN in tests), 1000 SMS a month, none used. */
const smsDefaults = { country: 'IN', sms_monthly_limit: 1000, sms_used_this_month: 0 };

describe('GET and PUT /web-app/school', () => {
  it('shows the school to any of its admins, UTC until set', async () => {
    for (const role of ['admin', 'it_contact'] as const) {
      const user = await adminUser(t, a.schoolId, role);
      const res = await t.api.get('/web-app/school').set(bearer(user.token));
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ id: a.schoolId, name: `School ${a.schoolId}`, status: 'active', timezone: 'UTC', storage_limit_mb: 5120, storage_used_mb: 0, ...smsDefaults });
    }
  });

  it('lets the super_admin rename the school and set its time zone', async () => {
    const spelled = await t.api.put('/web-app/school').set(bearer(a.adminToken)).send({ timezone: 'europe/london' });
    expect(spelled.body.data.timezone).toBe('Europe/London');
    const res = await t.api.put('/web-app/school').set(bearer(a.adminToken)).send({ name: 'Greenwood High', timezone: 'Asia/Kolkata' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: a.schoolId, name: 'Greenwood High', status: 'active', timezone: 'Asia/Kolkata', storage_limit_mb: 5120, storage_used_mb: 0, ...smsDefaults });
    expect((await School.findByPk(a.schoolId, { raw: true }))!.timezone).toBe('Asia/Kolkata');
    // The other school is untouched.
    expect((await t.api.get('/web-app/school').set(bearer(b.adminToken))).body.data.timezone).toBe('UTC');
  });

  it('refuses an unknown time zone with 400 naming the field and the value, changing nothing', async () => {
    for (const timezone of ['Mars/Olympus_Mons', 'UTC+5', '', 'x'.repeat(65)]) {
      const res = await t.api.put('/web-app/school').set(bearer(a.adminToken)).send({ timezone });
      expectError(res, 400, 'BAD_REQUEST');
      expect(res.body.error.details[0].field).toBe('timezone');
    }
    const named = await t.api.put('/web-app/school').set(bearer(a.adminToken)).send({ timezone: 'Mars/Olympus_Mons' });
    expect(named.body.error.details[0].message).toContain('Mars/Olympus_Mons');
    expect((await School.findByPk(a.schoolId, { raw: true }))!.timezone).toBe('Asia/Kolkata');
  });

  it('lets the super_admin set the country (any case) and the SMS monthly limit; anything else is a 400 naming the field', async () => {
    const res = await t.api.put('/web-app/school').set(bearer(b.adminToken)).send({ country: 'us', sms_monthly_limit: 0 });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ country: 'US', sms_monthly_limit: 0, sms_used_this_month: 0 });
    expect((await t.api.get('/web-app/school').set(bearer(b.adminToken))).body.data).toMatchObject({ country: 'US', sms_monthly_limit: 0 });
    // A large district's month: any whole number the database holds.
    expect((await t.api.put('/web-app/school').set(bearer(b.adminToken)).send({ sms_monthly_limit: 20_000_000 })).body.data.sms_monthly_limit).toBe(20_000_000);
    await t.api.put('/web-app/school').set(bearer(b.adminToken)).send({ sms_monthly_limit: 0 }).expect(200);
    for (const [body, field] of [
      [{ country: 'XX' }, 'country'], [{ country: 'USA' }, 'country'], [{ country: 7 }, 'country'], [{ country: '' }, 'country'],
      [{ sms_monthly_limit: -1 }, 'sms_monthly_limit'], [{ sms_monthly_limit: 2.5 }, 'sms_monthly_limit'], [{ sms_monthly_limit: '10' }, 'sms_monthly_limit'],
      [{ sms_monthly_limit: 2_147_483_648 }, 'sms_monthly_limit'],
    ] as const) {
      const bad = await t.api.put('/web-app/school').set(bearer(b.adminToken)).send(body);
      expectError(bad, 400, 'BAD_REQUEST');
      expect({ body, field: bad.body.error.details[0].field }).toEqual({ body, field });
    }
    expect(await School.findByPk(b.schoolId, { attributes: ['country', 'sms_monthly_limit'], raw: true })).toEqual({ country: 'US', sms_monthly_limit: 0 });
    const admin = await adminUser(t, b.schoolId, 'admin');
    expectError(await t.api.put('/web-app/school').set(bearer(admin.token)).send({ country: 'IN' }), 403, 'FORBIDDEN');
    await t.api.put('/web-app/school').set(bearer(b.adminToken)).send({ country: 'IN', sms_monthly_limit: 1000 });
  });

  it('is the super_admin\'s to change: admin and it_contact get 403, staff and parents 403, no token 401', async () => {
    for (const role of ['admin', 'it_contact'] as const) {
      const user = await adminUser(t, a.schoolId, role);
      expectError(await t.api.put('/web-app/school').set(bearer(user.token)).send({ timezone: 'Europe/London' }), 403, 'FORBIDDEN');
    }
    const s = await staffMember(a.schoolId);
    expectError(await t.api.get('/web-app/school').set(bearer(await staffLogin(t, s.phone, s.pin, a.schoolId))), 403, 'FORBIDDEN');
    const p = await parent(t.ctx, a.schoolId);
    expectError(await t.api.get('/web-app/school').set(bearer(await parentLogin(t, p.phone, p.pin, a.schoolId))), 403, 'FORBIDDEN');
    expectError(await t.api.get('/web-app/school'), 401, 'UNAUTHORIZED');
    // Another school's id in the body is the tenant guard's 403.
    expectError(await t.api.put('/web-app/school').set(bearer(a.adminToken)).send({ school_id: b.schoolId, timezone: 'Europe/London' }), 403, 'FORBIDDEN');
    expect((await School.findByPk(a.schoolId, { raw: true }))!.timezone).toBe('Asia/Kolkata');
  });
});

describe('School settings in the console', () => {
  it('lets the super_admin edit its own school and no other', async () => {
    const api = consoleApi(await signInConsole(t, b.adminEmail));
    const list = await api.list('school_settings');
    expect(list.body.records.map((r: { id: string }) => r.id)).toEqual([b.schoolId]);
    const edited = await api.edit('school_settings', b.schoolId, { name: `School ${b.schoolId}`, timezone: 'Europe/London' });
    expect(edited.body.notice).toMatchObject({ type: 'success' });
    expect((await School.findByPk(b.schoolId, { raw: true }))!.timezone).toBe('Europe/London');
    const refused = await api.edit('school_settings', b.schoolId, { timezone: 'Nowhere/Land' });
    expect(JSON.stringify(refused.body)).toMatch(/Nowhere\/Land/);
    expect((await School.findByPk(b.schoolId, { raw: true }))!.timezone).toBe('Europe/London');
    expectNotFound(await api.show('school_settings', a.schoolId));
    await api.edit('school_settings', a.schoolId, { timezone: 'Europe/Paris' });
    expect((await School.findByPk(a.schoolId, { raw: true }))!.timezone).toBe('Asia/Kolkata');
  });

  it('shows the settings to an admin, who cannot change them', async () => {
    const user = await adminUser(t, b.schoolId, 'admin');
    const api = consoleApi(await signInConsole(t, user.email));
    expect((await api.show('school_settings', b.schoolId)).body.record.params.timezone).toBe('Europe/London');
    await api.edit('school_settings', b.schoolId, { timezone: 'Asia/Tokyo' });
    expect((await School.findByPk(b.schoolId, { raw: true }))!.timezone).toBe('Europe/London');
  });
});

describe('school-platform tenant update', () => {
  it('sets a school\'s time zone and name; refuses an unknown zone (exit 2), an unknown school (exit 1) and nothing to change (exit 2)', async () => {
    const env = cliEnv(t);
    const run = await runCli(env, ['tenant', 'update', '--id', a.schoolId, '--timezone', 'America/New_York', '--name', 'Greenwood Academy', '--json']);
    expect(run.code).toBe(0);
    expect(run.json).toEqual({ id: a.schoolId, name: 'Greenwood Academy', status: 'active', timezone: 'America/New_York', storage_limit_mb: 5120, storage_used_mb: 0, ...smsDefaults });
    const bad = await runCli(env, ['tenant', 'update', '--id', a.schoolId, '--timezone', 'Mars/Base']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--timezone');
    const unknown = await runCli(env, ['tenant', 'update', '--id', 'no-such-school', '--timezone', 'UTC']);
    expect(unknown.code).toBe(1);
    const nothing = await runCli(env, ['tenant', 'update', '--id', a.schoolId]);
    expect(nothing.code).toBe(2);
    expect((await School.findByPk(a.schoolId, { raw: true }))!.timezone).toBe('America/New_York');
  });
});
