import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Writable } from 'node:stream';
import pino from 'pino';
import twilio from 'twilio';
import { createApp } from '../../src/app.js';
import { createLogger } from '../../src/logger.js';
import { iso } from '../../src/db.js';
import { AuditEvent, Notification, Parent, Student } from '../../src/models/index.js';
import { closePushProvider } from '../../src/push/providers.js';
import { createTwilioProvider } from '../../src/push/twilio-provider.js';
import { deliverDue } from '../../src/push/worker.js';
import { twilioSignature } from '../../src/services/delivery/twilio-callbacks.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { checkedSupertest } from '../helpers/openapi-check.js';
import { bearer, expectError, parent, parentLogin, school, student, uniquePhone, type SchoolFixture } from '../helpers/fixtures.js';
import { startConnectProxy, startTwilioStub, throwawayCa, type ConnectProxy, type ThrowawayCa, type TwilioAnswer, type TwilioStub } from '../helpers/gateways.js';
import { csv, studentHeader } from '../helpers/roster.js';
import { TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, twilioCallback, twilioEnv } from '../helpers/twilio.js';

/**
 * SMS through Twilio's Messages API, as the service sends them: over HTTPS_PROXY (a CONNECT tunnel)
 * to api.twilio.com, here a local HTTPS endpoint with a certificate from a throwaway CA behind a
 * proxy that routes that name to it; and Twilio's signed status and inbound callbacks.
 */
const FROM = '+15005550006';
const PUBLIC = 'https://school.example';
let ca: ThrowawayCa;
let stub: TwilioStub;
let proxy: ConnectProxy;
let t: TestApp;
let a: SchoolFixture;

beforeAll(async () => {
  ca = throwawayCa(['api.twilio.com']);
  stub = await startTwilioStub(ca);
  proxy = await startConnectProxy({ 'api.twilio.com:443': stub.port });
  t = await startTestApp({ SMS_PROVIDER: 'twilio', ...twilioEnv, TWILIO_FROM: FROM, HTTPS_PROXY: proxy.url, PUBLIC_APP_URL: PUBLIC }, { trustedCa: ca.ca });
  a = await school(t);
});

afterAll(async () => {
  await closePushProvider(t.ctx);
  await t.close();
  await proxy.close();
  await stub.close();
});

/** A parent (no device, no e-mail: reached by SMS) with one child. */
async function family(schoolId = a.schoolId, phone = uniquePhone()) {
  const p = await parent(t.ctx, schoolId, { phone });
  const child = await student(schoolId, p.id);
  return { id: p.id, phone, pin: p.pin, child: child.id };
}

/** A notice for one child's family, posted by the school's admin. */
async function notice(admin: SchoolFixture, childId: number, title = 'Sports day on Friday') {
  const res = await t.api.post('/web-app/noticeboard').set(bearer(admin.adminToken)).send({ notice_title: title, notice_desc: 'Bring water.', audience: { student_ids: [childId] } });
  expect(res.status).toBe(201);
  return res.body.data.id as number;
}

const records = (entityId: number) => Notification.findAll({ where: { school_id: a.schoolId, event: 'notice_published', entity_id: entityId }, raw: true });

describe('sending through Twilio', () => {
  it('sends a family without a device or an e-mail its notice by SMS: the form, the auth, the link, the tunnel, the sid', async () => {
    const fam = await family();
    const id = await notice(a, fam.child);
    const [before] = await records(id);
    expect(before).toMatchObject({ channel: 'sms', status: 'pending', target_type: 'parent', target_id: fam.id, address: `+91${fam.phone}`, title: 'Sports day on Friday', body: 'Bring water.' });
    stub.answers.push({ status: 201, body: { sid: 'SM00000000000000000000000000000001', status: 'queued' } });

    expect(await deliverDue(t.ctx)).toMatchObject({ claimed: 1, sent: 1 });
    const sent = stub.requests.at(-1)!;
    expect(sent.path).toBe(`/2010-04-01/Accounts/${TWILIO_ACCOUNT_SID}/Messages.json`);
    expect(sent.authorization).toBe(`Basic ${Buffer.from(`${TWILIO_ACCOUNT_SID}:${TWILIO_AUTH_TOKEN}`).toString('base64')}`);
    expect(sent.form).toEqual({ To: `+91${fam.phone}`, From: FROM, Body: expect.any(String), StatusCallback: `${PUBLIC}/webhooks/twilio/status` });
    const body = sent.form.Body!;
    expect(body).toMatch(new RegExp(`^School ${a.schoolId}: Sports day on Friday ${PUBLIC}/v/[A-Za-z0-9_-]{22,} Reply STOP to opt out\\.$`));
    expect(proxy.targets).toContain('api.twilio.com:443');
    const after = (await Notification.findByPk(before!.id, { raw: true }))!;
    expect(after).toMatchObject({ status: 'sent', attempts: 1, provider_id: 'SM00000000000000000000000000000001', last_error: null, delivered_at: null });
    // The record keeps what a push would, never the message with its link.
    expect(JSON.stringify(after)).not.toContain('/v/');

    const page = await t.api.get(new URL(body.split(' ').find((w) => w.includes('/v/'))!).pathname);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Sports day on Friday');
  });

  it('cuts the title so that the whole SMS is 320 characters, ending it with an ellipsis', async () => {
    const other = await school(t);
    await t.api.put('/web-app/school').set(bearer(other.adminToken)).send({ name: `The Very Long Name of a School ${'that goes on '.repeat(8)}`.trim() }).expect(200);
    const fam = await family(other.schoolId);
    const title = `${'Annual day rehearsal and costume fitting '.repeat(4)}end`.slice(0, 200);
    await notice(other, fam.child, title);
    await deliverDue(t.ctx);
    const body = stub.requests.at(-1)!.form.Body!;
    expect([...body].length).toBe(320);
    expect(body).toMatch(/\u2026 https:\/\/school\.example\/v\/[A-Za-z0-9_-]{22,} Reply STOP to opt out\.$/);
    const cutTitle = body.slice(body.indexOf(': ') + 2, body.indexOf('\u2026'));
    expect(title.startsWith(cutTitle)).toBe(true);
  });

  it('fails the record of a number libphonenumber finds invalid, without calling Twilio', async () => {
    const fam = await family(a.schoolId, '12345');
    const calls = stub.requests.length;
    const id = await notice(a, fam.child);
    expect((await records(id)).map((r) => [r.channel, r.status, r.last_error])).toEqual([['sms', 'failed', 'invalid phone number']]);
    expect(await deliverDue(t.ctx)).toMatchObject({ claimed: 0 });
    expect(stub.requests.length).toBe(calls);
  });

  it('fails a message Twilio refuses (4xx) with its error code, and does not retry it', async () => {
    const fam = await family();
    const id = await notice(a, fam.child);
    stub.answers.push({ status: 400, body: { code: 21211, message: "The 'To' number is not a valid phone number.", status: 400 } });
    expect(await deliverDue(t.ctx)).toMatchObject({ failed: 1 });
    expect(await records(id)).toEqual([expect.objectContaining({ status: 'failed', attempts: 1, last_error: 'twilio 21211', next_attempt_at: null })]);
  });

  it.each([
    ['a 503', { status: 503, body: { code: 20500, message: 'Service unavailable' } }, 'twilio 20500'],
    ['a 429', { status: 429, body: { code: 20429, message: 'Too many requests' } }, 'twilio 20429'],
    ['no answer', 'hang up', 'twilio unreachable'],
  ] as Array<[string, TwilioAnswer, string]>)('retries %s with the outbox back-off, then sends it', async (_case, answer, error) => {
    const fam = await family();
    const id = await notice(a, fam.child);
    stub.answers.push(answer);
    const started = Date.now();
    expect(await deliverDue(t.ctx)).toMatchObject({ retry: 1 });
    const [waiting] = await records(id);
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1 });
    expect(waiting!.last_error).toContain(error);
    const delay = Date.parse(iso(waiting!.next_attempt_at)!) - started;
    expect(delay).toBeGreaterThanOrEqual(4_000);
    expect(delay).toBeLessThan(5_000 + (Date.now() - started) + 1_000);
    expect(await deliverDue(t.ctx, { now: new Date(Date.now() + 6_000) })).toMatchObject({ sent: 1 });
    expect(await records(id)).toEqual([expect.objectContaining({ status: 'sent', attempts: 2, last_error: null })]);
  });

  it('turns SMS off for the parent when Twilio answers 21610 (they replied STOP to the sender)', async () => {
    const fam = await family();
    const id = await notice(a, fam.child);
    stub.answers.push({ status: 400, body: { code: 21610, message: 'Attempt to send to unsubscribed recipient' } });
    expect(await deliverDue(t.ctx)).toMatchObject({ failed: 1 });
    expect(await records(id)).toEqual([expect.objectContaining({ status: 'failed', last_error: 'twilio 21610' })]);
    const token = await parentLogin(t, fam.phone, fam.pin, a.schoolId);
    expect((await t.api.get('/parent-app/notification-preferences').set(bearer(token))).body.data.channels).toEqual({ push: true, email: true, sms: false });
    const event = (await AuditEvent.findOne({ where: { school_id: a.schoolId, action: 'preference.update', entity_id: String(fam.id) } }))!.get({ plain: true });
    expect(event).toMatchObject({ entity_type: 'preference', actor_type: 'system', changes: { 'channels.sms': [true, false] } });
    // With SMS off and no other channel, the next notice reaches nobody: recorded, not dropped.
    const next = await notice(a, fam.child, 'Second notice');
    expect((await records(next)).map((r) => [r.channel, r.status, r.last_error])).toEqual([['push', 'skipped', 'no channel']]);
  });

  it('names a Messaging Service instead of a number when one is configured', async () => {
    const provider = createTwilioProvider({
      accountSid: TWILIO_ACCOUNT_SID, authToken: TWILIO_AUTH_TOKEN, messagingServiceSid: `MG${'ab'.repeat(16)}`, statusCallback: `${PUBLIC}/webhooks/twilio/status`,
      httpsProxy: proxy.url, ca: ca.ca,
    }, pino({ level: 'silent' }));
    try {
      expect(await provider.send({ channel: 'sms', to: '+919876543210', body: 'Hello', data: {} })).toMatchObject({ ok: true, id: expect.stringMatching(/^SM/) });
      expect(stub.requests.at(-1)!.form).toEqual({ To: '+919876543210', MessagingServiceSid: `MG${'ab'.repeat(16)}`, Body: 'Hello', StatusCallback: `${PUBLIC}/webhooks/twilio/status` });
    } finally {
      await provider.close();
    }
  });
});

describe("Twilio's callbacks", () => {
  /** A family sent one SMS whose record keeps the sid Twilio gave it. */
  async function sentSms(sid: string) {
    const fam = await family();
    const id = await notice(a, fam.child);
    stub.answers.push({ status: 201, body: { sid } });
    await deliverDue(t.ctx);
    const [record] = await records(id);
    expect(record).toMatchObject({ status: 'sent', provider_id: sid });
    return { fam, record: record! };
  }

  it('signs as Twilio does: twilio.validateRequest accepts the signature the service checks', () => {
    const url = `${PUBLIC}/webhooks/twilio/status`;
    const params = { MessageSid: 'SM1', MessageStatus: 'delivered', AccountSid: TWILIO_ACCOUNT_SID, To: '+919876543210', Body: 'A & B = "c"' };
    const ours = twilioSignature(TWILIO_AUTH_TOKEN, url, params);
    expect(ours).toBe(twilio.getExpectedTwilioSignature(TWILIO_AUTH_TOKEN, url, params));
    expect(twilio.validateRequest(TWILIO_AUTH_TOKEN, ours, url, params)).toBe(true);
    expect(twilio.validateRequest(TWILIO_AUTH_TOKEN, ours, url, { ...params, MessageStatus: 'failed' })).toBe(false);
  });

  it('finds a message by its sid while slower sends of the same pass are still out', async () => {
    const fast = await family();
    const slow = await family();
    const posted = await t.api.post('/web-app/noticeboard').set(bearer(a.adminToken)).send({ notice_title: 'Sports day', audience: { student_ids: [fast.child, slow.child] } });
    const sid = 'SM0000000000000000000000000000f001';
    const fallback = stub.fallback;
    // Twilio takes the first at once and keeps the second waiting 3 s.
    stub.fallback = (req) => (req.form.To === `+91${fast.phone}` ? { status: 201, body: { sid, status: 'queued' } } : { status: 201, body: { sid: 'SM0000000000000000000000000000f002' }, delayMs: 3_000 });
    try {
      const pass = deliverDue(t.ctx);
      for (let i = 0; i < 250 && !stub.requests.some((r) => r.form.To === `+91${fast.phone}`); i++) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 1_000));
      await twilioCallback(t, '/webhooks/twilio/status', { MessageSid: sid, MessageStatus: 'delivered' }).expect(200);
      expect(await pass).toMatchObject({ sent: 2 });
    } finally {
      stub.fallback = fallback;
    }
    const [record] = await Notification.findAll({ where: { school_id: a.schoolId, entity_id: posted.body.data.id, address: `+91${fast.phone}` }, raw: true });
    expect(record).toMatchObject({ status: 'sent', provider_id: sid });
    expect(iso(record!.delivered_at)).toEqual(expect.any(String));
  });

  it('marks an SMS delivered, with its time, as the records and the list show it', async () => {
    const { record } = await sentSms('SM00000000000000000000000000000002');
    const res = await twilioCallback(t, '/webhooks/twilio/status', { MessageSid: 'SM00000000000000000000000000000002', MessageStatus: 'delivered', AccountSid: TWILIO_ACCOUNT_SID });
    expect(res.status).toBe(200);
    expect(res.type).toBe('text/xml');
    expect(res.text).toBe('<Response/>');
    const after = (await Notification.findByPk(record.id, { raw: true }))!;
    expect(after.status).toBe('sent');
    expect(iso(after.delivered_at)).toEqual(expect.any(String));
    const listed = await t.api.get('/web-app/notifications').query({ channel: 'sms', event: 'notice_published' }).set(bearer(a.adminToken));
    expect(listed.body.data.notifications.find((n: { id: number }) => n.id === record.id)).toMatchObject({ channel: 'sms', status: 'sent', delivered_at: iso(after.delivered_at) });
    expect(await AuditEvent.count({ where: { school_id: a.schoolId, action: 'notification.update', entity_id: String(record.id) } })).toBe(1);
  });

  it('fails an SMS Twilio reports undelivered, naming its error code; other statuses and unknown sids change nothing', async () => {
    const { record } = await sentSms('SM00000000000000000000000000000003');
    for (const status of ['queued', 'sent', 'sending']) {
      expect((await twilioCallback(t, '/webhooks/twilio/status', { MessageSid: 'SM00000000000000000000000000000003', MessageStatus: status })).status).toBe(200);
    }
    expect(await Notification.findByPk(record.id, { raw: true })).toMatchObject({ status: 'sent', last_error: null });
    expect((await twilioCallback(t, '/webhooks/twilio/status', { MessageSid: 'SMunknown', MessageStatus: 'delivered' })).text).toBe('<Response/>');
    await twilioCallback(t, '/webhooks/twilio/status', { MessageSid: 'SM00000000000000000000000000000003', MessageStatus: 'undelivered', ErrorCode: '30003' }).expect(200);
    expect(await Notification.findByPk(record.id, { raw: true })).toMatchObject({ status: 'failed', last_error: 'twilio 30003', delivered_at: null });
  });

  it('refuses an unsigned or wrongly signed callback (403, the JSON error body) and changes nothing', async () => {
    const { record } = await sentSms('SM00000000000000000000000000000004');
    const params = { MessageSid: 'SM00000000000000000000000000000004', MessageStatus: 'undelivered', ErrorCode: '30005' };
    expectError(await t.api.post('/webhooks/twilio/status').type('form').send(params), 403, 'FORBIDDEN');
    expectError(await twilioCallback(t, '/webhooks/twilio/status', params, 'another-account-token'), 403, 'FORBIDDEN');
    // Signed over the address the request reached rather than PUBLIC_APP_URL, as a proxy would see it.
    const local = twilio.getExpectedTwilioSignature(TWILIO_AUTH_TOKEN, 'http://127.0.0.1/webhooks/twilio/status', params);
    expectError(await t.api.post('/webhooks/twilio/status').type('form').set('X-Twilio-Signature', local).send(params), 403, 'FORBIDDEN');
    // A signature of other parameters.
    const other = twilio.getExpectedTwilioSignature(TWILIO_AUTH_TOKEN, `${PUBLIC}/webhooks/twilio/status`, { ...params, ErrorCode: '1' });
    expectError(await t.api.post('/webhooks/twilio/status').type('form').set('X-Twilio-Signature', other).send(params), 403, 'FORBIDDEN');
    const fam = await family();
    const stop = { From: `+91${fam.phone}`, Body: 'STOP' };
    expectError(await t.api.post('/webhooks/twilio/inbound').type('form').send(stop), 403, 'FORBIDDEN');
    expectError(await twilioCallback(t, '/webhooks/twilio/inbound', stop, 'another-account-token'), 403, 'FORBIDDEN');
    // A body Twilio never sends, even one that is no JSON at all, is refused by its signature like any other.
    for (const path of ['/webhooks/twilio/inbound', '/webhooks/twilio/status']) {
      expectError(await t.api.post(path).set('Content-Type', 'application/json').set('X-Twilio-Signature', 'x').send('{not json'), 403, 'FORBIDDEN');
    }
    expect(await Notification.findByPk(record.id, { raw: true })).toMatchObject({ status: 'sent', last_error: null });
    const token = await parentLogin(t, fam.phone, fam.pin, a.schoolId);
    expect((await t.api.get('/parent-app/notification-preferences').set(bearer(token))).body.data.channels).toEqual({ push: true, email: true, sms: true });
  });

  it('turns SMS off for every parent with the phone, in every school, on STOP (any case, trimmed), and on again on START', async () => {
    const b = await school(t);
    const phone = uniquePhone();
    const here = await family(a.schoolId, phone);
    const there = await family(b.schoolId, `+91${phone}`);
    const other = await family();
    const sms = async (parentId: number) => ((await Parent.findByPk(parentId)) ? (await t.ctx.db.select<{ channel_sms: unknown }>('SELECT channel_sms FROM notification_preferences WHERE parent_id = :id', { id: parentId }))[0]?.channel_sms : null);
    await twilioCallback(t, '/webhooks/twilio/inbound', { From: `+91${phone}`, To: FROM, Body: '  stop ', MessageSid: 'SMin1' }).expect(200);
    expect([Number(await sms(here.id)), Number(await sms(there.id)), await sms(other.id)]).toEqual([0, 0, undefined]);
    for (const [schoolId, parentId] of [[a.schoolId, here.id], [b.schoolId, there.id]] as const) {
      expect((await AuditEvent.findOne({ where: { school_id: schoolId, action: 'preference.update', entity_id: String(parentId) } }))!.get({ plain: true }))
        .toMatchObject({ actor_type: 'parent', actor_id: String(parentId), changes: { 'channels.sms': [true, false] } });
    }
    const id = await notice(a, here.child, 'While stopped');
    expect((await records(id)).map((r) => r.last_error)).toEqual(['no channel']);
    await twilioCallback(t, '/webhooks/twilio/inbound', { From: `+91${phone}`, Body: 'Thanks!' }).expect(200);
    expect(Number(await sms(here.id))).toBe(0);
    await twilioCallback(t, '/webhooks/twilio/inbound', { From: `+91${phone}`, Body: 'START' }).expect(200);
    expect([Number(await sms(here.id)), Number(await sms(there.id))]).toEqual([1, 1]);
  });

  it.each([
    // A school's country, the phone as a parent gave it (the trunk 0 kept after the country code, a dialling prefix), the number texted.
    ['IN', (n: string) => `+910${n}`, (n: string) => `+91${n}`],
    ['AU', () => '+610412345678', () => '+61412345678'],
    ['JP', (n: string) => `01091${n}`, (n: string) => `+91${n}`],
  ])('in a school of %s, finds on STOP a phone written in any form sending reads as that number', async (country, given, texted) => {
    const s = await school(t);
    await t.api.put('/web-app/school').set(bearer(s.adminToken)).send({ country }).expect(200);
    const n = uniquePhone();
    const fam = await family(s.schoolId, given(n));
    const [record] = await Notification.findAll({ where: { school_id: s.schoolId, event: 'notice_published', entity_id: await notice(s, fam.child) }, raw: true });
    expect(record).toMatchObject({ channel: 'sms', address: texted(n) });
    await twilioCallback(t, '/webhooks/twilio/inbound', { From: texted(n), To: FROM, Body: 'STOP', MessageSid: `SMstop${country}` }).expect(200);
    const token = await parentLogin(t, fam.phone, fam.pin, s.schoolId);
    expect((await t.api.get('/parent-app/notification-preferences').set(bearer(token))).body.data.channels).toEqual({ push: true, email: true, sms: false });
  });
});

describe('link tokens sent by SMS', () => {
  it('appear in no log line, record, audit event or export: PIN set-up links and post pages, queued, sent, retried after a 5xx, failed after a 4xx', async () => {
    const lines: string[] = [];
    const logged = { ...t.ctx, log: pino({ level: 'trace' }, new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } })) };
    const api = checkedSupertest(createApp(logged).app);
    // What earlier tests left to send goes first, so that the answers planned below meet these messages.
    while ((await deliverDue(t.ctx, { now: new Date(Date.now() + 86_400_000) })).claimed > 0);
    // Twilio's answers, in order, for each number: a 5xx is retried, a 4xx fails the message for good.
    const busy: TwilioAnswer = { status: 503, body: { code: 20500, message: 'Service unavailable' } };
    const refused: TwilioAnswer = { status: 400, body: { code: 21211, message: "The 'To' number is not a valid phone number." } };
    const plan = new Map<string, TwilioAnswer[]>();
    const planned = (answers: TwilioAnswer[], phone = uniquePhone()) => {
      plan.set(`+91${phone}`, answers);
      return phone;
    };
    const fallback = stub.fallback;
    stub.fallback = (req) => plan.get(req.form.To!)?.shift() ?? fallback(req);
    const shown: string[] = [];
    // The records as the office's list shows them, at each step.
    const listed = async () => shown.push(JSON.stringify((await api.get('/web-app/notifications').query({ channel: 'sms', limit: 100 }).set(bearer(a.adminToken)).expect(200)).body));
    const children: number[] = [];
    try {
      // Queued: a new parent by the admission form, by the office's New student and by a roster import; two families' notices.
      const applied = await api.post('/web-app/admission-form').send({
        school_id: a.schoolId, student: { student_full_name: 'Asha Rao', grade: '5' }, parent: { father_name: 'Ravi Rao', phone_no: planned([busy]) }, addresses: [],
      });
      expect(applied.status).toBe(201);
      const enrolled = await api.post('/web-app/students').set(bearer(a.adminToken)).send({
        student: { student_full_name: 'Kiran Shah', grade: '5' }, parent: { father_name: 'Nikhil Shah', phone_no: planned([refused]) }, addresses: [],
      });
      expect(enrolled.status).toBe(201);
      const roll = `LOG-${Math.random().toString(36).slice(2, 8)}`;
      const imported = await api.post('/web-app/imports').query({ kind: 'students' }).set(bearer(a.adminToken)).set('Content-Type', 'text/csv').send(csv(studentHeader, [
        [`${roll}-1`, 'Dev Rao', null, '5', null, null, planned([]), 'Arun Rao', null, null, null, null, null, null],
        [`${roll}-2`, 'Mira Das', null, '5', null, null, planned([busy, refused]), 'Sunil Das', null, null, null, null, null, null],
      ]));
      expect(imported.body.data).toMatchObject({ created: 2, guardians_created: 2, applied: true });
      const retried = await family(a.schoolId, planned([busy]));
      const failing = await family(a.schoolId, planned([refused]));
      for (const fam of [retried, failing]) {
        await api.post('/web-app/noticeboard').set(bearer(a.adminToken)).send({ notice_title: 'Logged notice', notice_desc: 'Read it.', audience: { student_ids: [fam.child] } }).expect(201);
      }
      children.push(applied.body.data.student_id, enrolled.body.data.student_id, ...(await Student.findAll({ where: { school_id: a.schoolId, roll_no: [`${roll}-1`, `${roll}-2`] }, raw: true })).map((s) => s.id), retried.child, failing.child);
      await listed();

      expect(await deliverDue(logged)).toMatchObject({ claimed: 6, sent: 1, retry: 3, failed: 2 });
      await listed();
      expect(await deliverDue(logged, { now: new Date(Date.now() + 6_000) })).toMatchObject({ claimed: 3, sent: 2, failed: 1 });
      await listed();
    } finally {
      stub.fallback = fallback;
      await closePushProvider(logged);
    }
    // Every message Twilio was asked to send, retries included, and the tokens of their links.
    const bodies = stub.requests.filter((r) => plan.has(r.form.To!)).map((r) => r.form.Body!);
    expect(bodies).toHaveLength(9);
    const pinTokens = [...new Set(bodies.flatMap((b) => [...b.matchAll(/\/set-pin\?token=([^\s]+)/g)].map((m) => m[1]!)))];
    const viewTokens = [...new Set(bodies.flatMap((b) => [...b.matchAll(/\/v\/([A-Za-z0-9_-]+)/g)].map((m) => m[1]!)))];
    expect([pinTokens.length, viewTokens.length]).toEqual([4, 3]);
    // They work: the links are the real ones, and opening them is logged too.
    await api.get(`/v/${viewTokens.at(-1)}`).expect(200);
    await api.post('/parent-app/set-pin').send({ token: pinTokens[0], pin: '482913' }).expect(200);

    const log = lines.join('');
    expect(log).toContain('twilio refused a message');
    expect(log).toContain('/v/[REDACTED]');
    // A PIN set-up SMS keeps its link in the outbox only while it may still go (it is the message): every one has now gone or failed.
    const exports = [];
    for (const id of children) exports.push((await t.api.get(`/web-app/students/${id}/export`).set(bearer(a.adminToken)).expect(200)).body);
    const stored = JSON.stringify([
      await Notification.findAll({ where: { school_id: a.schoolId }, raw: true }),
      await AuditEvent.findAll({ where: { school_id: a.schoolId }, raw: true }),
      exports,
    ]);
    for (const token of [...pinTokens.map((p) => p.slice(p.indexOf('.') + 1)), ...viewTokens]) {
      for (const [where, text] of [['log', log], ['stored', stored], ['shown', shown.join('')]] as const) {
        expect({ where, found: text.includes(token.slice(0, 22)) }).toEqual({ where, found: false });
      }
    }
  });

  it('appear in no log line when writing the message fails: the error logged does not carry the statement that held the link', async () => {
    const lines: string[] = [];
    const logged = { ...t.ctx, log: createLogger('trace', new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } })) };
    const api = checkedSupertest(createApp(logged).app);
    // The database refuses the set-up SMS, as it would a write it cannot make (a lock wait, a full disk).
    const refuse = t.ctx.db.dialect === 'mysql'
      ? "CREATE TRIGGER refuse_pin_sms BEFORE INSERT ON notifications FOR EACH ROW BEGIN IF NEW.event = 'admission_pin_setup' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'refused'; END IF; END"
      : "CREATE TRIGGER refuse_pin_sms BEFORE INSERT ON notifications WHEN NEW.event = 'admission_pin_setup' BEGIN INSERT INTO refused VALUES (1); END";
    await t.ctx.db.sequelize.query(refuse);
    try {
      const res = await api.post('/web-app/admission-form').send({
        school_id: a.schoolId, student: { student_full_name: 'Asha Rao', grade: '5' }, parent: { father_name: 'Ravi Rao', phone_no: uniquePhone() }, addresses: [],
      });
      expectError(res, 500, 'SERVER_ERROR');
    } finally {
      await t.ctx.db.sequelize.query('DROP TRIGGER refuse_pin_sms');
    }
    const log = lines.join('');
    expect(log).toContain('request failed');
    expect(log).toContain('refused');
    expect(log).not.toContain('set-pin?token=');
  });
});

describe('the callbacks with the log SMS provider', () => {
  it('are verified with TWILIO_AUTH_TOKEN alone, no account configured', async () => {
    const logged = await startTestApp({ TWILIO_AUTH_TOKEN, PUBLIC_APP_URL: PUBLIC });
    try {
      const res = await twilioCallback(logged, '/webhooks/twilio/inbound', { From: '+15005550006', Body: 'hello' });
      expect([res.status, res.text]).toEqual([200, '<Response/>']);
      expectError(await twilioCallback(logged, '/webhooks/twilio/inbound', { From: '+15005550006', Body: 'hello' }, 'another-account-token'), 403, 'FORBIDDEN');
    } finally {
      await logged.close();
    }
  });
});

describe('the callbacks and the rate limit', () => {
  it('are not rate limited, unlike the public pages', async () => {
    const limited = await startTestApp({ ...twilioEnv, PUBLIC_APP_URL: PUBLIC, RATE_LIMIT_PUBLIC: '2' });
    try {
      for (let i = 0; i < 5; i++) expect((await twilioCallback(limited, '/webhooks/twilio/status', { MessageSid: `SMx${i}`, MessageStatus: 'sent' })).status).toBe(200);
      const pages = [];
      for (let i = 0; i < 3; i++) pages.push(await limited.api.get('/v/not-a-token'));
      expect(pages.map((p) => p.status)).toEqual([404, 404, 429]);
      // The limit's answer keeps the pages' headers.
      expect(pages[2]!.headers).toMatchObject({ 'cache-control': 'no-store', 'x-robots-tag': 'noindex', 'referrer-policy': 'no-referrer' });
      expect(pages[2]!.headers['content-security-policy']).toContain("script-src 'none'");
    } finally {
      await limited.close();
    }
  });
});
