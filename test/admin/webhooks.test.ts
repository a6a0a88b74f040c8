import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Webhook, WebhookDelivery } from '../../src/models/index.js';
import { deliverDue } from '../../src/push/worker.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { adminUser, bearer, school, type SchoolFixture } from '../helpers/fixtures.js';
import { startReceiver, verifies, type Receiver } from '../helpers/receiver.js';
import { consoleApi, expectNotFound, ids, noticeOf, signInConsole } from './console-client.js';

/** Webhooks and their delivery log in the console: through the same service as the API, for the school's super_admin only. */
let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;
let receiver: Receiver;

beforeAll(async () => {
  t = await startTestApp({ ADMIN_CONSOLE_ENABLED: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
  receiver = await startReceiver();
  a = await school(t);
  b = await school(t);
}, 60_000);
afterAll(async () => {
  await receiver.close();
  await t.close();
});

describe('webhooks in the console', () => {
  let hookId: number;
  let secret: string;

  it('creates a webhook through the service, showing its secret once as a one-time secret and never in a notice or the record', async () => {
    const api = consoleApi(await signInConsole(t, a.adminEmail));
    const created = await api.create('webhooks', { url: receiver.url, 'events.0': 'notice.published', 'events.1': 'student.archived' });
    expect(noticeOf(created)).toEqual({ type: 'success', message: 'Webhook created' });
    expect(created.body.secret.label).toMatch(/signing secret/);
    secret = created.body.secret.value;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(created.body.record)).not.toContain(secret);
    const row = (await Webhook.findOne({ where: { school_id: a.schoolId }, raw: true }))!;
    hookId = row.id;
    expect(row.secret).toBe(secret);
    expect(JSON.parse(row.events as unknown as string)).toEqual(['notice.published', 'student.archived']);
    const shown = await api.show('webhooks', hookId);
    expect(shown.body.record.params).toMatchObject({ url: receiver.url, 'events.0': 'notice.published', 'events.1': 'student.archived' });
    expect(shown.text).not.toContain(secret);
    expect(Object.keys(shown.body.record.params)).not.toContain('secret');
    expect((await api.list('webhooks')).text).not.toContain(secret);
    // The secret is neither a filter nor a sort key.
    expect(ids(await api.list('webhooks', { 'filters.secret': secret }))).toEqual([hookId]);
    const refused = await api.create('webhooks', { url: 'http://[::1]:9/x', 'events.0': 'nope' });
    expect(JSON.stringify(refused.body)).toMatch(/events/);
    expect(await Webhook.count({ where: { school_id: a.schoolId } })).toBe(1);
  });

  it('edits a webhook and switches it off and on through the service', async () => {
    const api = consoleApi(await signInConsole(t, a.adminEmail));
    expect(noticeOf(await api.edit('webhooks', hookId, { 'events.0': '*', active: 'false' }))).toMatchObject({ type: 'success' });
    expect((await Webhook.findByPk(hookId))!).toMatchObject({ events: ['*'], active: false, disabled_reason: 'Switched off by an administrator' });
    expect(noticeOf(await api.edit('webhooks', hookId, { active: 'true' }))).toMatchObject({ type: 'success' });
    expect((await Webhook.findByPk(hookId))!).toMatchObject({ active: true, disabled_reason: null });
  });

  it('shows the delivery log of its school, read only', async () => {
    const res = await t.api.post('/web-app/noticeboard').set(bearer(a.adminToken)).send({ notice_title: 'Console notice' });
    expect(res.status).toBe(201);
    const from = receiver.received.length;
    await deliverDue(t.ctx);
    expect(verifies(secret, receiver.received[from]!)).toBe(true);
    const api = consoleApi(await signInConsole(t, a.adminEmail));
    const delivery = (await WebhookDelivery.findOne({ where: { webhook_id: hookId }, raw: true }))!;
    const log = await api.list('webhook_deliveries', { 'filters.webhook_id': String(hookId) });
    expect(ids(log)).toEqual([delivery.id]);
    const shown = await api.show('webhook_deliveries', delivery.id);
    expect(shown.body.record.params).toMatchObject({ event: 'notice.published', status: 'delivered', attempts: 1, response_status: 200 });
    expect(shown.text).not.toContain(secret);
    const editActions = (shown.body.record.recordActions as Array<{ name: string }>).map((x) => x.name);
    expect(editActions).not.toContain('edit');
    expect(editActions).not.toContain('delete');
  });

  it("is another school's and an admin's not found or refused", async () => {
    const other = consoleApi(await signInConsole(t, b.adminEmail));
    expectNotFound(await other.show('webhooks', hookId));
    expect(ids(await other.list('webhooks'))).toEqual([]);
    expect(ids(await other.list('webhook_deliveries'))).toEqual([]);
    await other.edit('webhooks', hookId, { active: 'false' });
    await other.remove('webhooks', hookId);
    expect((await Webhook.findByPk(hookId))!).toMatchObject({ active: true, deleted_status: 0 });
    const admin = await adminUser(t, a.schoolId, 'admin');
    const asAdmin = consoleApi(await signInConsole(t, admin.email));
    for (const resource of ['webhooks', 'webhook_deliveries']) {
      const res = await asAdmin.list(resource);
      expect({ resource, notice: res.body.notice?.type, records: res.body.records }).toEqual({ resource, notice: 'error', records: [] });
    }
  });

  it('deletes a webhook softly, keeping its log', async () => {
    const api = consoleApi(await signInConsole(t, a.adminEmail));
    expect(noticeOf(await api.remove('webhooks', hookId))).toMatchObject({ type: 'success' });
    expect((await Webhook.findByPk(hookId))!).toMatchObject({ deleted_status: 1, active: false });
    expect(ids(await api.list('webhooks'))).toEqual([]);
    expect(ids(await api.list('webhook_deliveries'))).toHaveLength(1);
  });
});
