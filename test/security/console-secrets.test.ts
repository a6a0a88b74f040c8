import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import jwt from 'jsonwebtoken';
import { consoleResources } from '../../src/admin/resources/index.js';
import type { ScopedResource } from '../../src/admin/scoped-resource.js';
import { AdminUser, allModels } from '../../src/models/index.js';
import { hashSecretValue } from '../../src/services/auth/passwords.js';
import { consoleApi, signInConsole } from '../admin/console-client.js';
import { startTestApp, TEST_JWT_SECRET, type TestApp } from '../helpers/app.js';
import { ADMIN_PASSWORD, bearer, school, staffMember, uniquePhone, type SchoolFixture } from '../helpers/fixtures.js';

/**
 * The console never shows a secret: every resource it offers (read from its own resource list, so a
 * resource added later is walked too), listed and then each record shown, as the school's
 * super_admin and as the operator, is scanned for bcrypt hashes, stored token hashes, raw session
 * tokens, device tokens, the signing secrets (webhooks' included), admission tokens and the PIN set-up link an admission
 * sends by SMS (kept in the outbox so the worker can send it).
 */
let t: TestApp;
let a: SchoolFixture;
const secrets: string[] = [];
let setupLink: string;
const walked: Array<{ what: string; text: string }> = [];

async function storedHashes(): Promise<string[]> {
  const values: string[] = [];
  for (const model of allModels as unknown as Array<{ getAttributes(): object; findAll(o: object): Promise<Array<Record<string, unknown>>> }>) {
    const columns = Object.keys(model.getAttributes()).filter((c) => c.endsWith('_hash'));
    if (!columns.length) continue;
    for (const row of await model.findAll({ attributes: columns, raw: true })) for (const c of columns) if (typeof row[c] === 'string' && row[c]) values.push(row[c] as string);
  }
  return values;
}

beforeAll(async () => {
  t = await startTestApp({ ADMIN_CONSOLE_ENABLED: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
  a = await school(t, 'secretive');
  // Never called: no event is delivered in this file.
  const webhook = await t.api.post('/web-app/webhooks').set(bearer(a.adminToken)).send({ url: 'http://127.0.0.1:9/hooks' });
  expect(webhook.status).toBe(201);
  const staff = await staffMember(a.schoolId, { pin: '4321' });
  const admission = await t.api.post('/web-app/admission-form').send({
    school_id: a.schoolId,
    student: { student_full_name: 'Asha Rao', gender: 'female', grade: '5', date_of_birth: '2016-04-12', blood_group: 'B+', roll_no: null },
    parent: { father_name: 'Ravi Rao', mother_name: 'Meena Rao', phone_no: uniquePhone(), email: 'ravi@example.com' },
    addresses: [{ address_type: 'current', address: '12 Lake Rd', city: 'Pune', pincode: 411001 }],
  });
  expect(admission.status).toBe(201);
  setupLink = admission.body.data.pin_setup.url;
  const setupToken = new URL(setupLink).searchParams.get('token')!;
  const admissionToken = admission.body.data.admission_token as string;

  const deviceToken = 'fcm-staff-device-token-5550001112';
  const staffLogin = await t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: staff.phone, pin: '4321', school_id: a.schoolId, fcm_token: deviceToken });
  expect(staffLogin.status).toBe(200);
  expect((await t.api.post('/web-app/diagnostics/test-push').set(bearer(a.adminToken)).send({ staff_id: staff.id, title: 'Test', body: 'Hello' })).status).toBe(200);

  await AdminUser.create({ school_id: null, name: 'Operator', email: 'operator@secretive.example', role: 'platform_admin', password_hash: await hashSecretValue(ADMIN_PASSWORD) });

  const sessionTokens = [a.adminToken, staffLogin.body.data.access_token as string].map((token) => (jwt.decode(token) as { session_token: string }).session_token);
  secrets.push(...(await storedHashes()), ...sessionTokens, deviceToken, setupToken, admissionToken, webhook.body.data.secret as string, TEST_JWT_SECRET, t.ctx.config.adminCookieSecret);

  for (const email of [a.adminEmail, 'operator@secretive.example']) {
    const api = consoleApi(await signInConsole(t, email));
    for (const { resource } of consoleResources(t.ctx)) {
      const id = (resource as ScopedResource).id();
      const list = await api.list(id, { perPage: 500 });
      walked.push({ what: `${email} list ${id}`, text: list.text });
      for (const record of (list.body.records ?? []) as Array<{ id: string }>) {
        walked.push({ what: `${email} show ${id} #${record.id}`, text: (await api.show(id, record.id)).text });
      }
    }
  }
}, 180_000);
afterAll(async () => t?.close());

describe('the console shows no secret', () => {
  it('walks every resource, with records in those that hold secrets', () => {
    const resources = consoleResources(t.ctx).map(({ resource }) => (resource as ScopedResource).id());
    expect(resources.length).toBeGreaterThan(10);
    for (const id of ['notifications', 'sessions', 'parents', 'staff', 'admin_users', 'webhooks']) {
      expect(walked.some((w) => w.what.includes(`show ${id} #`))).toBe(true);
    }
    expect(secrets.length).toBeGreaterThan(8);
  });

  it('never carries a hash, a token, a signing secret or a set-up link', () => {
    const leaks = walked.flatMap(({ what, text }) => [
      ...(/\$2[aby]\$\d\d\$/.test(text) ? [`${what}: bcrypt hash`] : []),
      ...(text.includes('set-pin?token') ? [`${what}: set-up link`] : []),
      ...secrets.filter((s) => text.includes(s)).map((s) => `${what}: ${s.slice(0, 12)}…`),
    ]);
    expect(leaks).toEqual([]);
  });

  it('shows of the SMS record only its existence, channel, event and status, and cannot be searched by its text', async () => {
    const api = consoleApi(await signInConsole(t, a.adminEmail));
    const sms = (await api.list('notifications', { perPage: 500, 'filters.channel': 'sms' })).body.records as Array<{ id: string; params: Record<string, unknown> }>;
    expect(sms).toHaveLength(1);
    const shown = (await api.show('notifications', sms[0]!.id)).body.record.params as Record<string, unknown>;
    expect(shown).toMatchObject({ channel: 'sms', event: 'admission_pin_setup', title: '[hidden]', body: '[hidden]' });
    // A filter on the hidden text would tell whether a guessed link exists: it is ignored.
    const all = (await api.list('notifications', { perPage: 500 })).body.records.length;
    const guessed = await api.list('notifications', { perPage: 500, 'filters.body': 'set-pin?token=' + a.schoolId });
    expect(guessed.body.records.length).toBe(all);
    const rest = await t.api.get('/web-app/notifications').query({ event: 'admission_pin_setup' }).set(bearer(a.adminToken));
    expect(rest.body.data.notifications).toEqual([expect.objectContaining({ channel: 'sms', title: '[hidden]', body: '[hidden]' })]);
    expect(rest.text).not.toContain(setupLink);
  });
});
