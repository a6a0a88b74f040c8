import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AdminUser, Designation, Grade, School, Session } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { bearer, parent, parentLogin, signIn } from '../helpers/fixtures.js';

let t: TestApp;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  t = await startTestApp();
  env = cliEnv(t);
});
afterAll(async () => t.close());

const create = (id: string, ...more: string[]) =>
  runCli(env, ['tenant', 'create', '--id', id, '--name', `School ${id}`, '--admin-email', `head@${id}.example.org`, ...more, '--json']);

describe('tenant create', () => {
  it('creates a school with its default grades and designations and a super_admin who can sign in', async () => {
    const run = await runCli(env, [
      'tenant', 'create', '--id', 'maple', '--name', 'Maple School', '--admin-email', 'Head@Maple.example.org',
      '--admin-name', 'Asha Head', '--admin-password', 'maple password', '--json',
    ]);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ school_id: 'maple', name: 'Maple School', status: 'active', admin: { email: 'head@maple.example.org', name: 'Asha Head', role: 'super_admin' } });
    expect(run.json.admin_password).toBeUndefined();
    expect(await Grade.count({ where: { school_id: 'maple' } })).toBe(15);
    expect((await Designation.findAll({ where: { school_id: 'maple' } })).map((d) => d.name).sort()).toEqual(['Class Teacher', 'Office Staff', 'Principal', 'Subject Teacher']);
    const signin = await t.api.post('/web-app/signin').send({ email: 'head@maple.example.org', password: 'maple password' });
    expect(signin.status).toBe(200);
    expect(signin.body.data.user).toMatchObject({ role: 'super_admin', school_id: 'maple' });
  });

  it('generates the first password when none is given and prints it once', async () => {
    const run = await create('birch');
    expect(run.code).toBe(0);
    expect(run.json.admin_password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const signin = await t.api.post('/web-app/signin').send({ email: 'head@birch.example.org', password: run.json.admin_password });
    expect(signin.status).toBe(200);
  });

  it('refuses a school id that exists with exit 1 and the reason, changing nothing', async () => {
    const run = await create('maple', '--admin-password', 'another password');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/School maple already exists/);
    expect(run.json.error).toMatchObject({ code: 'CONFLICT' });
    expect((await School.findByPk('maple'))!.name).toBe('Maple School');
    expect(await AdminUser.count({ where: { email: 'head@maple.example.org' } })).toBe(1);
  });

  it('fails with exit 2 naming the flag when a value is missing or malformed and there is no terminal', async () => {
    const missing = await runCli(env, ['tenant', 'create', '--id', 'cedar', '--name', 'Cedar']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--admin-email');
    const badId = await runCli(env, ['tenant', 'create', '--id', 'no spaces', '--name', 'X', '--admin-email', 'a@cedar.example.org']);
    expect(badId.code).toBe(2);
    expect(badId.stderr).toContain('--id');
    const shortPassword = await create('cedar', '--admin-password', 'short');
    expect(shortPassword.code).toBe(2);
    expect(shortPassword.stderr).toContain('--admin-password');
    expect(await School.findByPk('cedar')).toBeNull();
  });
});

describe('tenant list, suspend and resume', () => {
  it('lists every school with its status', async () => {
    const run = await runCli(env, ['tenant', 'list', '--json']);
    expect(run.code).toBe(0);
    expect(run.json).toEqual(expect.arrayContaining([
      { id: 'maple', name: 'Maple School', status: 'active', created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/) },
      expect.objectContaining({ id: 'birch', status: 'active' }),
    ]));
  });

  it('suspends a school, ending every session of it, and resumes it', async () => {
    const adminToken = await signIn(t, 'head@maple.example.org', 'maple password');
    const family = await parent(t.ctx, 'maple');
    const parentToken = await parentLogin(t, family.phone, family.pin, 'maple');
    const active = await Session.count({ where: { school_id: 'maple', active: true } });
    expect(active).toBeGreaterThanOrEqual(2);

    const suspend = await runCli(env, ['tenant', 'suspend', '--id', 'maple', '--yes', '--json']);
    expect(suspend.code).toBe(0);
    expect(suspend.json).toEqual({ school_id: 'maple', status: 'suspended', sessions_ended: active });
    expect((await School.findByPk('maple'))!.status).toBe('suspended');
    expect(await Session.count({ where: { school_id: 'maple', active: true } })).toBe(0);
    expect((await t.api.get('/web-app/sessions').set(bearer(adminToken))).status).toBe(403);
    expect((await t.api.get('/parent-app/sessions').set(bearer(parentToken))).status).toBe(403);
    expect((await t.api.post('/web-app/signin').send({ email: 'head@maple.example.org', password: 'maple password' })).status).toBe(403);

    const resume = await runCli(env, ['tenant', 'resume', '--id', 'maple', '--json']);
    expect(resume.code).toBe(0);
    expect(resume.json).toMatchObject({ school_id: 'maple', status: 'active' });
    expect((await t.api.post('/web-app/signin').send({ email: 'head@maple.example.org', password: 'maple password' })).status).toBe(200);
  });

  it('answers an unknown school with exit 1', async () => {
    const run = await runCli(env, ['tenant', 'suspend', '--id', 'nowhere', '--yes']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/not found/i);
  });
});

describe('admin create', () => {
  it('creates a platform_admin that belongs to no school and is kept out of the web app', async () => {
    const run = await runCli(env, ['admin', 'create', '--email', 'Ops@Platform.example.org', '--name', 'Operator', '--password', 'operator password', '--role', 'platform_admin', '--json']);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ email: 'ops@platform.example.org', role: 'platform_admin', school_id: null, id: expect.any(Number) });
    expect(await AdminUser.findOne({ where: { email: 'ops@platform.example.org', school_id: null, role: 'platform_admin' } })).not.toBeNull();
    expect((await t.api.post('/web-app/signin').send({ email: 'ops@platform.example.org', password: 'operator password' })).status).toBe(403);
  });

  it('creates an admin user of a school who can sign in with that role', async () => {
    const run = await runCli(env, ['admin', 'create', '--email', 'it@maple.example.org', '--name', 'IT Desk', '--password', 'it desk password', '--role', 'it_contact', '--school', 'maple', '--json']);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ role: 'it_contact', school_id: 'maple' });
    const signin = await t.api.post('/web-app/signin').send({ email: 'it@maple.example.org', password: 'it desk password' });
    expect(signin.body.data.user).toMatchObject({ role: 'it_contact', school_id: 'maple' });
  });

  it('refuses a duplicate e-mail or an unknown school (1), and a school for platform_admin or an unknown role (2)', async () => {
    const base = ['admin', 'create', '--name', 'X', '--password', 'long enough'];
    const duplicate = await runCli(env, [...base, '--email', 'IT@maple.example.org', '--role', 'admin', '--school', 'maple', '--json']);
    expect(duplicate.code).toBe(1);
    expect(duplicate.json.error.code).toBe('CONFLICT');
    const unknownSchool = await runCli(env, [...base, '--email', 'x@nowhere.example.org', '--role', 'admin', '--school', 'nowhere']);
    expect(unknownSchool.code).toBe(1);
    expect(unknownSchool.stderr).toMatch(/School nowhere not found/);
    const platformWithSchool = await runCli(env, [...base, '--email', 'p@x.example.org', '--role', 'platform_admin', '--school', 'maple']);
    expect(platformWithSchool.code).toBe(2);
    expect(platformWithSchool.stderr).toContain('--school');
    const badRole = await runCli(env, [...base, '--email', 'r@x.example.org', '--role', 'root', '--school', 'maple']);
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain('--role');
    expect(await AdminUser.count({ where: { email: ['x@nowhere.example.org', 'p@x.example.org', 'r@x.example.org'] } })).toBe(0);
  });
});

describe('tenant update --country --sms-monthly-limit', () => {
  it('sets the school\'s country and SMS limit as PUT /web-app/school does; an invalid one exits 2 with the API\'s message, changing nothing', async () => {
    const token = await signIn(t, 'head@maple.example.org', 'maple password');
    const run = await runCli(env, ['tenant', 'update', '--id', 'maple', '--country', 'gb', '--sms-monthly-limit', '250', '--json']);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ id: 'maple', country: 'GB', sms_monthly_limit: 250, sms_used_this_month: 0 });
    expect((await t.api.get('/web-app/school').set(bearer(token))).body.data).toMatchObject({ country: 'GB', sms_monthly_limit: 250 });
    const text = await runCli(env, ['tenant', 'update', '--id', 'maple', '--sms-monthly-limit', '0']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('country GB, SMS 0 of 0 this month');

    for (const [flag, value, field, body] of [
      ['--country', 'XX', 'country', { country: 'XX' }], ['--country', 'USA', 'country', { country: 'USA' }],
      ['--sms-monthly-limit', '-1', 'sms_monthly_limit', { sms_monthly_limit: -1 }], ['--sms-monthly-limit', '2.5', 'sms_monthly_limit', { sms_monthly_limit: 2.5 }],
    ] as const) {
      const api = await t.api.put('/web-app/school').set(bearer(token)).send(body);
      expect(api.status).toBe(400);
      const detail = (api.body.error.details as Array<{ field: string; message: string }>)[0]!;
      expect(detail.field).toBe(field);
      const bad = await runCli(env, ['tenant', 'update', '--id', 'maple', flag, value]);
      expect({ value, code: bad.code }).toEqual({ value, code: 2 });
      expect(bad.stderr).toContain(`Invalid ${flag}: ${detail.message}`);
    }
    for (const value of ['', 'ten']) {
      const bad = await runCli(env, ['tenant', 'update', '--id', 'maple', '--sms-monthly-limit', value]);
      expect({ value, code: bad.code }).toEqual({ value, code: 2 });
      expect(bad.stderr).toContain('--sms-monthly-limit');
    }
    expect(await School.findByPk('maple', { attributes: ['country', 'sms_monthly_limit'], raw: true })).toEqual({ country: 'GB', sms_monthly_limit: 0 });
  });
});

describe('help', () => {
  it('lists the command groups from the installed binary, and each command\'s flags', async () => {
    const root = await runCli(env, ['--help'], { viaBin: true });
    expect(root.code).toBe(0);
    for (const group of ['tenant', 'admin', 'pin', 'sessions', 'push', 'db']) expect(root.stdout).toContain(group);
    const command = await runCli(env, ['pin', 'reset', '--help']);
    expect(command.code).toBe(0);
    for (const flag of ['--school', '--type', '--phone', '--pin', '--json', '--yes']) expect(command.stdout).toContain(flag);
  });

  it('treats an unknown command or option as a usage error', async () => {
    expect((await runCli(env, ['tenant', 'destroy'])).code).toBe(2);
    expect((await runCli(env, ['tenant', 'list', '--colour'])).code).toBe(2);
  });
});
