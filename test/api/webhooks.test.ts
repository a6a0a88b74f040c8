import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Webhook, WebhookDelivery } from '../../src/models/index.js';
import { webhookEvents } from '../../src/models/webhook.js';
import { RETRY_BACKOFF_MS } from '../../src/push/lease.js';
import { deliverDue } from '../../src/push/worker.js';
import { operatorPrincipal } from '../../src/services/access/guards.js';
import { createActivity } from '../../src/services/activities/activities.js';
import { publishDue } from '../../src/services/audiences/scheduled.js';
import { resolveWriteTo } from '../../src/services/write-to/write-to.js';
import { addressRefusal } from '../../src/services/webhooks/addresses.js';
import { createWebhook } from '../../src/services/webhooks/webhooks.js';
import type { AppContext } from '../../src/context.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { adminUser, bearer, expectError, parent, parentLogin, school, staffMember, student, uniquePhone, type SchoolFixture } from '../helpers/fixtures.js';
import { startReceiver, verifies, type Receiver } from '../helpers/receiver.js';

/** Signed webhooks (CONTRACT.md section 23): subscriptions, delivery through the outbox, and the address rules. */
let t: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  await t.close();
});

const web = (f: SchoolFixture) => bearer(f.adminToken);
const addWebhook = async (f: SchoolFixture, body: Record<string, unknown>) => {
  const res = await t.api.post('/web-app/webhooks').set(web(f)).send(body);
  expect(res.status).toBe(201);
  return res.body.data as { id: number; secret: string; url: string; events: string[]; active: boolean };
};
const postNotice = (f: SchoolFixture, title = 'Sports day') =>
  t.api.post('/web-app/noticeboard').set(web(f)).send({ notice_title: title, notice_desc: 'Friday, 9 am' }).then((r) => {
    expect(r.status).toBe(201);
    return r.body.data as { id: number };
  });
const pass = (now = new Date()) => deliverDue(t.ctx, { now });
const deliveriesOf = (webhookId: number) => WebhookDelivery.findAll({ where: { webhook_id: webhookId }, order: [['id', 'ASC']], raw: true });
const bodies = (r: Receiver, from = 0) => r.received.slice(from).map((x) => JSON.parse(x.body) as { id: string; event: string; school_id: string; data: Record<string, unknown> });
const withConfig = (changes: Partial<AppContext['config']>): AppContext => ({ ...t.ctx, config: { ...t.ctx.config, ...changes } });

describe('/web-app/webhooks', () => {
  it('creates a webhook answering its secret once, then lists, shows, changes and deletes it', async () => {
    const a = await school(t);
    const res = await t.api.post('/web-app/webhooks').set(web(a)).send({ url: receiver.url, events: ['notice.published', 'notice.published', 'student.archived'] });
    expect(res.status).toBe(201);
    const created = res.body.data;
    expect(created).toEqual({
      id: expect.any(Number), url: receiver.url, events: ['notice.published', 'student.archived'], active: true, disabled_reason: null,
      secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), created_at: expect.any(String), updated_at: expect.any(String),
    });
    expect(Buffer.from(created.secret, 'base64url')).toHaveLength(32);
    const list = await t.api.get('/web-app/webhooks').set(web(a));
    expect(list.body.data).toEqual([{ ...created, secret: undefined }].map(({ secret: _s, ...rest }) => rest));
    expect(JSON.stringify(list.body)).not.toContain(created.secret);
    const one = await t.api.get(`/web-app/webhooks/${created.id}`).set(web(a));
    expect(one.body.data).not.toHaveProperty('secret');
    const changed = await t.api.put(`/web-app/webhooks/${created.id}`).set(web(a)).send({ events: ['*'] });
    expect(changed.body.data).toMatchObject({ events: ['*'], active: true });
    expect((await t.api.delete(`/web-app/webhooks/${created.id}`).set(web(a))).status).toBe(200);
    expectError(await t.api.get(`/web-app/webhooks/${created.id}`).set(web(a)), 404, 'NOT_FOUND');
    expect((await t.api.get('/web-app/webhooks').set(web(a))).body.data).toEqual([]);
  });

  it('refuses malformed input with 400 naming the field', async () => {
    const a = await school(t);
    // 2,000 characters as sent, 12,000 once percent-encoded as the URL is stored.
    const long = `${receiver.url}/${'é'.repeat(2000)}`;
    for (const body of [{}, { url: 'not a url' }, { url: 'ftp://127.0.0.1/x' }, { url: long }, { url: receiver.url, events: ['nope'] }, { url: receiver.url, events: [] }]) {
      const res = await t.api.post('/web-app/webhooks').set(web(a)).send(body);
      expectError(res, 400, 'BAD_REQUEST');
      expect(res.body.error.details.map((d: { field: string }) => d.field.split('.')[0])).toContain(body.url && body.url === receiver.url ? 'events' : 'url');
    }
    const mine = (await t.api.post('/web-app/webhooks').set(web(a)).send({ url: receiver.url, events: ['*'] })).body.data.id as number;
    expectError(await t.api.put(`/web-app/webhooks/${mine}`).set(web(a)).send({}), 400, 'BAD_REQUEST');
    // An unknown webhook is 404 before its body is judged.
    expectError(await t.api.put('/web-app/webhooks/2000000000').set(web(a)).send({ url: 'not a url' }), 404, 'NOT_FOUND');
  });

  it("is for the school's super_admin: another school's gets 404, an admin 403", async () => {
    const a = await school(t);
    const b = await school(t);
    const hook = await addWebhook(a, { url: receiver.url });
    for (const res of [
      await t.api.get(`/web-app/webhooks/${hook.id}`).set(web(b)),
      await t.api.put(`/web-app/webhooks/${hook.id}`).set(web(b)).send({ active: false }),
      await t.api.delete(`/web-app/webhooks/${hook.id}`).set(web(b)),
      await t.api.get(`/web-app/webhooks/${hook.id}/deliveries`).set(web(b)),
    ]) expectError(res, 404, 'NOT_FOUND');
    expect((await t.api.get('/web-app/webhooks').set(web(b))).body.data).toEqual([]);
    const admin = await adminUser(t, a.schoolId, 'admin');
    expectError(await t.api.get('/web-app/webhooks').set(bearer(admin.token)), 403, 'FORBIDDEN');
    expectError(await t.api.post('/web-app/webhooks').set(bearer(admin.token)).send({ url: receiver.url }), 403, 'FORBIDDEN');
    expectError(await t.api.get('/web-app/webhooks').set(web(a)).query({ school_id: b.schoolId }), 403, 'FORBIDDEN');
    expect((await Webhook.findByPk(hook.id))!.active).toBe(true);
  });
});

describe('delivery', () => {
  it('POSTs the event signed with the secret, with the event id as X-Webhook-Id, from the worker and not the request', async () => {
    const a = await school(t);
    const hook = await addWebhook(a, { url: receiver.url, events: ['notice.published'] });
    const from = receiver.received.length;
    const notice = await postNotice(a);
    expect(receiver.received.length).toBe(from);
    expect((await pass()).webhooks).toMatchObject({ claimed: 1, delivered: 1 });
    const [got] = receiver.received.slice(from);
    expect(got!.path).toBe('/hooks');
    expect(got!.headers['content-type']).toBe('application/json');
    expect(verifies(hook.secret, got!)).toBe(true);
    expect(verifies(`${hook.secret}x`, got!)).toBe(false);
    const timestamp = Number(got!.headers['x-webhook-timestamp']);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(60);
    const body = JSON.parse(got!.body);
    expect(body).toEqual({
      id: got!.headers['x-webhook-id'], event: 'notice.published', school_id: a.schoolId, occurred_at: expect.any(String),
      data: expect.objectContaining({ entity_type: 'noticeboard', entity_id: notice.id, notice_title: 'Sports day', notice_desc: 'Friday, 9 am' }),
    });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    const log = await t.api.get(`/web-app/webhooks/${hook.id}/deliveries`).set(web(a));
    expect(log.body.data).toEqual({
      deliveries: [{
        id: expect.any(Number), event_id: body.id, event: 'notice.published', status: 'delivered', attempts: 1, response_status: 200, last_error: null,
        created_at: expect.any(String), delivered_at: expect.any(String),
      }],
      pagination: { total: 1, page: 1, limit: 20, pages: 1 },
    });
  });

  it('retries after a 500 with the same id and body, after the back-off', async () => {
    const a = await school(t);
    const hook = await addWebhook(a, { url: receiver.url });
    await postNotice(a);
    const from = receiver.received.length;
    receiver.answers.push({ status: 500 });
    const start = new Date();
    expect((await pass(start)).webhooks).toMatchObject({ claimed: 1, retry: 1 });
    const [row] = await deliveriesOf(hook.id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, response_status: 500, last_error: 'HTTP 500' });
    expect((await pass(new Date(start.getTime() + 1000))).webhooks.claimed).toBe(0);
    expect((await pass(new Date(start.getTime() + RETRY_BACKOFF_MS[0]! + 1000))).webhooks).toMatchObject({ claimed: 1, delivered: 1 });
    const [first, second] = receiver.received.slice(from);
    expect(second!.headers['x-webhook-id']).toBe(first!.headers['x-webhook-id']);
    expect(second!.body).toBe(first!.body);
    expect(verifies(hook.secret, second!)).toBe(true);
    expect((await deliveriesOf(hook.id))[0]).toMatchObject({ status: 'delivered', attempts: 2, response_status: 200, last_error: null });
  });

  it('sends a delivery once when two workers drain at the same time', async () => {
    const a = await school(t);
    const hook = await addWebhook(a, { url: receiver.url });
    const from = receiver.received.length;
    await postNotice(a, 'One');
    await postNotice(a, 'Two');
    const now = new Date(Date.now() + 1);
    const [one, two] = await Promise.all([pass(now), pass(now)]);
    expect(one.webhooks.claimed + two.webhooks.claimed).toBe(2);
    expect(bodies(receiver, from).map((b) => b.data.notice_title).sort()).toEqual(['One', 'Two']);
    expect((await deliveriesOf(hook.id)).map((d) => [d.status, d.attempts])).toEqual([['delivered', 1], ['delivered', 1]]);
  });

  it('does not follow a redirect: a 3xx is a failure, retried', async () => {
    const a = await school(t);
    const hook = await addWebhook(a, { url: receiver.url });
    const from = receiver.received.length;
    receiver.answers.push({ status: 302, headers: { Location: `${receiver.url}/elsewhere` } });
    await postNotice(a);
    expect((await pass()).webhooks).toMatchObject({ retry: 1 });
    expect(receiver.received.slice(from).map((r) => r.path)).toEqual(['/hooks']);
    expect((await deliveriesOf(hook.id))[0]).toMatchObject({ status: 'pending', response_status: 302, last_error: expect.stringContaining('redirect') });
    await WebhookDelivery.update({ status: 'failed', next_attempt_at: null }, { where: { webhook_id: hook.id } });
  });

  it('sends each school only its own events, and each webhook only the events it took', async () => {
    const a = await school(t);
    const b = await school(t);
    const archivedOnly = await addWebhook(a, { url: receiver.url, events: ['student.archived'] });
    const everything = await addWebhook(b, { url: receiver.url, events: ['*'] });
    const kid = await student(a.schoolId, null);
    await postNotice(a);
    expect((await t.api.post(`/web-app/students/${kid.id}/archive`).set(web(a))).status).toBe(200);
    // Archiving again is no new event.
    expect((await t.api.post(`/web-app/students/${kid.id}/archive`).set(web(a))).status).toBe(200);
    expect((await deliveriesOf(archivedOnly.id)).map((d) => d.event)).toEqual(['student.archived']);
    expect(await deliveriesOf(everything.id)).toEqual([]);
    const from = receiver.received.length;
    await pass();
    const [body] = bodies(receiver, from);
    expect(body).toMatchObject({ event: 'student.archived', school_id: a.schoolId, data: { entity_type: 'student', entity_id: kid.id, status: 'archived' } });
  });

  it('sends every kind of event, each with its entity', async () => {
    const a = await school(t);
    const hook = await addWebhook(a, { url: receiver.url, events: ['*'] });
    const op = operatorPrincipal(a.schoolId);
    const teacher = await staffMember(a.schoolId);
    const activity = await createActivity(t.ctx, op, { title: 'Science fair', staff_id: teacher.id });
    const notice = await postNotice(a);
    const p = await parent(t.ctx, a.schoolId);
    const kid = await student(a.schoolId, p.id);
    const request = await t.api.post('/parent-app/write-to').set(bearer(await parentLogin(t, p.phone, p.pin, a.schoolId)))
      .send({ student_id: kid.id, type: 'query', subject: 'Bus timing', message: 'When does the bus leave?' });
    expect(request.status).toBe(201);
    await resolveWriteTo(t.ctx, op, request.body.data.id);
    const admission = await t.api.post('/web-app/admission-form').send({
      school_id: a.schoolId, student: { student_full_name: 'Asha Rao', grade: '5' }, parent: { father_name: 'Ravi Rao', phone_no: uniquePhone() }, addresses: [],
    });
    expect(admission.status).toBe(201);
    const archivedKid = await t.api.post(`/web-app/students/${kid.id}/archive`).set(web(a));
    expect((await t.api.post(`/web-app/staff/${teacher.id}/archive`).set(web(a))).status).toBe(201);
    const from = receiver.received.length;
    while ((await pass()).webhooks.claimed > 0);
    // Sent a few at a time, so in no set order.
    const got = bodies(receiver, from).sort((x, y) => webhookEvents.indexOf(x.event as never) - webhookEvents.indexOf(y.event as never));
    expect(got.map((b) => [b.event, b.data.entity_type, b.data.entity_id])).toEqual([
      ['activity.published', 'activity', activity.id],
      ['notice.published', 'noticeboard', notice.id],
      ['write_to.created', 'write_to', request.body.data.id],
      ['write_to.resolved', 'write_to', request.body.data.id],
      ['admission.submitted', 'admission', expect.any(Number)],
      ['student.archived', 'student', kid.id],
      ['staff.archived', 'staff', teacher.id],
    ]);
    expect(got.every((b) => b.school_id === a.schoolId)).toBe(true);
    // Each event's data is the entity as the API shows it, with its type and id.
    const shown = async (path: string, query: Record<string, unknown> = {}, headers: Record<string, string> = web(a)) =>
      (await t.api.get(path).set(headers).query(query)).body.data;
    const withId = (id: number) => (r: { id: number }) => r.id === id;
    const { records: activities } = await shown('/web-app/activities', { school_id: a.schoolId });
    const { notices } = await shown('/web-app/noticeboard', { school_id: a.schoolId });
    const { replies: _replies, ...resolved } = await shown(`/parent-app/write-to/${request.body.data.id}`, {}, bearer(await parentLogin(t, p.phone, p.pin, a.schoolId)));
    const application = await shown('/web-app/student-info', { school_id: a.schoolId, admission_token: admission.body.data.admission_token }, {});
    expect(got.map((b) => b.data)).toEqual([
      { entity_type: 'activity', entity_id: activity.id, ...activities.find(withId(activity.id)) },
      { entity_type: 'noticeboard', entity_id: notice.id, ...notices.find(withId(notice.id)) },
      { entity_type: 'write_to', entity_id: request.body.data.id, ...request.body.data },
      { entity_type: 'write_to', entity_id: request.body.data.id, ...resolved },
      { entity_type: 'admission', entity_id: expect.any(Number), ...application },
      { entity_type: 'student', entity_id: kid.id, ...archivedKid.body.data },
      { entity_type: 'staff', entity_id: teacher.id, ...(await shown(`/web-app/staff/${teacher.id}`)) },
    ]);
    expect(resolved.status).toBe('resolved');
    expect(got[4]!.data).toMatchObject({ student_id: admission.body.data.student_id, student: { student_full_name: 'Asha Rao' } });
    expect(JSON.stringify(got)).not.toContain(admission.body.data.admission_token);
    expect(JSON.stringify(got)).not.toMatch(/pin_hash|admission_token|set-pin/);
    expect(receiver.received.slice(from).every((r) => verifies(hook.secret, r))).toBe(true);
  });

  it('sends a scheduled notice\'s event when it is published, once, and not when it is posted', async () => {
    const a = await school(t);
    const hook = await addWebhook(a, { url: receiver.url, events: ['notice.published'] });
    const at = new Date(Date.now() + 60_000);
    const res = await t.api.post('/web-app/noticeboard').set(web(a)).send({ notice_title: 'Later', publish_at: at.toISOString() });
    expect(res.status).toBe(201);
    expect(await deliveriesOf(hook.id)).toEqual([]);
    await Promise.all([publishDue(t.ctx, at), publishDue(t.ctx, at)]);
    const rows = await deliveriesOf(hook.id);
    expect(rows).toHaveLength(1);
    expect(JSON.parse(rows[0]!.payload)).toMatchObject({ event: 'notice.published', data: { entity_id: res.body.data.id, notice_title: 'Later' } });
    await pass();
    expect((await deliveriesOf(hook.id))[0]!.status).toBe('delivered');
  });

  it('writes no delivery when the change does not commit', async () => {
    const a = await school(t);
    const hook = await addWebhook(a, { url: receiver.url, events: ['admission.submitted'] });
    const res = await t.api.post('/web-app/admission-form').send({
      school_id: a.schoolId, student: { student_full_name: 'No Grade', grade: 'no-such-grade' }, parent: { phone_no: uniquePhone() }, addresses: [],
    });
    expect(res.status).toBe(400);
    expect(await deliveriesOf(hook.id)).toEqual([]);
  });
});

describe('addresses', () => {
  let s: SchoolFixture;
  beforeAll(async () => {
    s = await school(t);
  });

  it('classifies public unicast addresses as callable', () => {
    for (const ip of ['8.8.8.8', '2606:4700:4700::1111']) expect(addressRefusal(ip)).toBeNull();
    for (const ip of ['198.18.0.1', '192.0.2.1', '::', '2001:db8::1', 'ff02::1']) expect(addressRefusal(ip)).not.toBeNull();
  });

  it('takes only https under production', async () => {
    const production = withConfig({ production: true });
    await expect(createWebhook(production, operatorPrincipal(s.schoolId), { url: receiver.url })).rejects.toMatchObject({
      status: 400, details: [{ field: 'url', message: 'must be an https URL' }],
    });
  });

  it('checks again at delivery: a delivery to an address no longer allowed fails with the reason, without a request', async () => {
    const a = await school(t);
    const hook = await addWebhook(a, { url: receiver.url });
    await postNotice(a);
    const from = receiver.received.length;
    expect((await deliverDue(withConfig({ webhookAllowPrivate: false }))).webhooks).toMatchObject({ failed: 1 });
    expect(receiver.received.length).toBe(from);
    expect((await deliveriesOf(hook.id))[0]).toMatchObject({ status: 'failed', attempts: 0, last_error: expect.stringMatching(/Not sent.*loopback/) });
    await postNotice(a);
    expect((await deliverDue(withConfig({ production: true }))).webhooks).toMatchObject({ failed: 1 });
    expect((await deliveriesOf(hook.id))[1]).toMatchObject({ status: 'failed', last_error: expect.stringContaining('https') });
    expect(receiver.received.length).toBe(from);
  });

  it('retries a delivery whose host does not resolve, with the back-off, and refuses such a host when the webhook is saved', async () => {
    const a = await school(t);
    // .invalid never resolves (RFC 6761): nothing is called.
    const nowhere = 'https://does-not-exist.invalid/hook';
    const saved = await t.api.post('/web-app/webhooks').set(web(a)).send({ url: nowhere });
    expectError(saved, 400, 'BAD_REQUEST');
    expect(saved.body.error.details).toEqual([{ field: 'url', message: expect.stringMatching(/^is refused: does-not-exist\.invalid does not resolve/) }]);
    // A name that resolved when the webhook was saved and no longer does.
    const hook = await addWebhook(a, { url: receiver.url });
    await Webhook.update({ url: nowhere }, { where: { id: hook.id } });
    await postNotice(a);
    let at = new Date(Date.now() + 1);
    // No refusal: the same without WEBHOOK_ALLOW_PRIVATE.
    expect((await deliverDue(withConfig({ webhookAllowPrivate: false }), { now: at })).webhooks).toMatchObject({ claimed: 1, retry: 1 });
    expect((await deliveriesOf(hook.id))[0]).toMatchObject({
      status: 'pending', attempts: 1, response_status: null, last_error: expect.stringMatching(/^does-not-exist\.invalid does not resolve \(E[A-Z_]+\)$/),
    });
    for (const [i, wait] of RETRY_BACKOFF_MS.entries()) {
      at = new Date(at.getTime() + wait + 1000);
      expect((await pass(at)).webhooks).toMatchObject({ claimed: 1, [i < RETRY_BACKOFF_MS.length - 1 ? 'retry' : 'failed']: 1 });
    }
    expect((await deliveriesOf(hook.id))[0]).toMatchObject({ status: 'failed', attempts: RETRY_BACKOFF_MS.length + 1, last_error: expect.stringContaining('does not resolve') });
  });
});

describe('switching off', () => {
  it('switches a webhook off once every delivery has failed for 3 days, and on again with active: true', async () => {
    const a = await school(t);
    const hook = await addWebhook(a, { url: receiver.url });
    receiver.answers.push({ status: 503 });
    await postNotice(a, 'First');
    const start = new Date(Date.now() + 1);
    expect((await pass(start)).webhooks).toMatchObject({ retry: 1 });
    expect((await Webhook.findByPk(hook.id))!.failing_since).toEqual(start);
    // A day later the retry fails again: still on.
    receiver.answers.push({ status: 503 });
    expect((await pass(new Date(start.getTime() + 24 * 3_600_000))).webhooks).toMatchObject({ retry: 1 });
    expect((await t.api.get(`/web-app/webhooks/${hook.id}`).set(web(a))).body.data.active).toBe(true);
    receiver.answers.push({ status: 503 }, { status: 503 });
    await postNotice(a, 'Second');
    const later = new Date(start.getTime() + 3 * 24 * 3_600_000 + 60_000);
    await pass(later);
    const off = (await t.api.get(`/web-app/webhooks/${hook.id}`).set(web(a))).body.data;
    expect(off).toMatchObject({ active: false, disabled_reason: expect.stringMatching(/3 days/) });
    expect((await deliveriesOf(hook.id)).map((d) => d.status)).toEqual(['failed', 'failed']);
    // Switched off, it takes no new events.
    await postNotice(a, 'Third');
    expect(await deliveriesOf(hook.id)).toHaveLength(2);
    const on = await t.api.put(`/web-app/webhooks/${hook.id}`).set(web(a)).send({ active: true });
    expect(on.body.data).toMatchObject({ active: true, disabled_reason: null });
    expect((await Webhook.findByPk(hook.id))!.failing_since).toBeNull();
    await postNotice(a, 'Fourth');
    const from = receiver.received.length;
    expect((await pass(new Date(later.getTime() + 1000))).webhooks).toMatchObject({ delivered: 1 });
    expect(bodies(receiver, from).map((b) => b.data.notice_title)).toEqual(['Fourth']);
  });

  it('keeps a webhook on while some deliveries succeed', async () => {
    const a = await school(t);
    const hook = await addWebhook(a, { url: receiver.url });
    receiver.answers.push({ status: 500 });
    await postNotice(a, 'Fails');
    const start = new Date(Date.now() + 1);
    await pass(start);
    await postNotice(a, 'Works');
    await pass(new Date(start.getTime() + RETRY_BACKOFF_MS[0]! + 1000));
    expect((await Webhook.findByPk(hook.id))!.failing_since).toBeNull();
    receiver.answers.push({ status: 500 });
    await postNotice(a, 'Fails later');
    await pass(new Date(start.getTime() + 3 * 24 * 3_600_000 + 60_000));
    expect((await Webhook.findByPk(hook.id))!.active).toBe(true);
  });
});

describe('school-platform webhook', () => {
  it('adds a webhook printing its secret once, lists it without the secret, and removes it', async () => {
    const a = await school(t);
    const env = cliEnv(t, { WEBHOOK_ALLOW_PRIVATE: 'true' });
    const added = await runCli(env, ['webhook', 'add', '--school', a.schoolId, '--url', receiver.url, '--events', 'notice.published,staff.archived', '--json']);
    expect(added.code).toBe(0);
    expect(added.json).toMatchObject({ url: receiver.url, events: ['notice.published', 'staff.archived'], active: true, secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    const secret = added.json.secret as string;
    const text = await runCli(env, ['webhook', 'add', '--school', a.schoolId, '--url', receiver.url, '--events', '*']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/Signing secret \(shown this once\): [A-Za-z0-9_-]{43}/);
    const list = await runCli(env, ['webhook', 'list', '--school', a.schoolId, '--json']);
    expect(list.json.map((w: { id: number; events: string[] }) => [w.id, w.events])).toEqual([[added.json.id, ['notice.published', 'staff.archived']], [expect.any(Number), ['*']]]);
    expect(list.stdout).not.toContain(secret);
    expect((await runCli(env, ['webhook', 'list', '--school', a.schoolId])).stdout).not.toContain(secret);
    // The secret signs what the API's events send.
    const from = receiver.received.length;
    await postNotice(a);
    await pass();
    expect(receiver.received.slice(from).filter((r) => verifies(secret, r))).toHaveLength(1);
    const removed = await runCli(env, ['webhook', 'remove', '--school', a.schoolId, '--id', String(added.json.id)]);
    expect(removed.code).toBe(0);
    expect((await runCli(env, ['webhook', 'list', '--school', a.schoolId, '--json'])).json).toHaveLength(1);
  });

  it('exits 2 on a missing or malformed flag and 1 on a refused URL, an unknown school or another school\'s webhook', async () => {
    const a = await school(t);
    const b = await school(t);
    const hook = await addWebhook(b, { url: receiver.url });
    const env = cliEnv(t);
    const add = (...flags: string[]) => runCli(env, ['webhook', 'add', '--school', a.schoolId, ...flags]);
    for (const [run, flag] of [
      [await add('--events', '*'), '--url'],
      [await add('--url', receiver.url), '--events'],
      [await add('--url', receiver.url, '--events', 'nope'), '--events'],
      [await add('--url', 'not a url', '--events', '*'), '--url'],
      [await add('--url', 'ftp://example.org/hooks', '--events', '*'), '--url'],
    ] as const) {
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(flag);
    }
    const refused = await runCli(env, ['webhook', 'add', '--school', a.schoolId, '--url', receiver.url, '--events', '*', '--json']);
    expect(refused.code).toBe(1);
    expect(refused.json.error).toMatchObject({ code: 'BAD_REQUEST', details: [{ field: 'url', message: expect.stringContaining('loopback') }] });
    expect((await runCli(env, ['webhook', 'list', '--school', 'no-such-school'])).code).toBe(1);
    expect((await runCli(env, ['webhook', 'remove', '--school', a.schoolId, '--id', String(hook.id)])).code).toBe(1);
    expect((await Webhook.findByPk(hook.id))!.deleted_status).toBe(0);
    expect(await Webhook.count({ where: { school_id: a.schoolId } })).toBe(0);
  });
});
