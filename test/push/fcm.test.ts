import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import nock from 'nock';
import { iso } from '../../src/db.js';
import { Grade, Notification, Session } from '../../src/models/index.js';
import { enqueue } from '../../src/push/outbox.js';
import { closePushProvider } from '../../src/push/providers.js';
import { deliverDue } from '../../src/push/worker.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { assign } from '../helpers/classroom.js';
import { adminUser, bearer, parent, school, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';

const PROJECT = 'school-platform-test';
const CLIENT_EMAIL = `push@${PROJECT}.iam.gserviceaccount.com`;
const TOKEN_URL = 'https://oauth2.googleapis.com';
const FCM_URL = 'https://fcm.googleapis.com';
const SEND_PATH = `/v1/projects/${PROJECT}/messages:send`;
const ACCESS_TOKEN = 'ya29.test-access-token';

/** A throwaway service account: a fresh RSA key, so the OAuth grant's signature can be checked. */
const keys = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const accountDir = mkdtempSync(path.join(tmpdir(), 'sp-fcm-'));
const account = JSON.stringify({
  type: 'service_account', project_id: PROJECT, private_key_id: 'test-key', private_key: keys.privateKey, client_email: CLIENT_EMAIL,
  client_id: '1', token_uri: `${TOKEN_URL}/token`,
});
const accountFile = path.join(accountDir, 'service-account.json');
/** firebase-admin keeps one credential (agent and token) per file path in a process: the proxied app gets its own path. */
const proxiedAccountFile = path.join(accountDir, 'service-account-proxied.json');
writeFileSync(accountFile, account);
writeFileSync(proxiedAccountFile, account);

interface SentRequest {
  authorization: string | undefined;
  body: { message: { token: string; notification: { title: string; body: string }; data: Record<string, unknown> } };
}

const grants: URLSearchParams[] = [];
const sent: SentRequest[] = [];

function oauth() {
  return nock(TOKEN_URL).post('/token').reply((_uri, body) => {
    grants.push(new URLSearchParams(String(body)));
    return [200, { access_token: ACCESS_TOKEN, expires_in: 3600, token_type: 'Bearer' }];
  });
}

function fcm(status: number, answer: unknown, times = 1) {
  return nock(FCM_URL).post(SEND_PATH).times(times).reply(function (_uri, body) {
    sent.push({ authorization: this.req.headers.authorization as string | undefined, body: body as SentRequest['body'] });
    return [status, answer];
  });
}

const fcmError = (code: number, status: string, errorCode?: string) => ({
  error: {
    code, status, message: `${status} from the test`,
    ...(errorCode ? { details: [{ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode }] } : {}),
  },
});

let t: TestApp;
let a: SchoolFixture;
let family: { parentId: number; parentToken: string; studentId: number };
let teacher: { id: number; token: string };

async function signedIn(kind: 'parent' | 'staff', schoolId: string, fcm_token: string) {
  if (kind === 'parent') {
    const p = await parent(t.ctx, schoolId);
    const res = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: p.phone, pin: p.pin, school_id: schoolId, fcm_token });
    expect(res.status).toBe(200);
    return { id: p.id, token: res.body.data.access_token as string };
  }
  const s = await staffMember(schoolId);
  const res = await t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: s.phone, pin: s.pin, school_id: schoolId, fcm_token });
  expect(res.status).toBe(200);
  return { id: s.id, token: res.body.data.access_token as string };
}

async function replyFromTeacher(parentToken: string, studentId: number, message: string) {
  const thread = await t.api.post('/parent-app/write-to').set(bearer(parentToken)).send({ student_id: studentId, type: 'query', subject: 'Bus', message: 'When?' });
  expect(thread.status).toBe(201);
  await t.api.post(`/teachers-app/write-to/${thread.body.data.id}/reply`).set(bearer(teacher.token)).send({ message }).expect(201);
  return thread.body.data.id as number;
}

beforeAll(async () => {
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
  t = await startTestApp({ PUSH_PROVIDER: 'fcm', FCM_SERVICE_ACCOUNT_FILE: accountFile });
  a = await school(t);
  const p = await signedIn('parent', a.schoolId, 'parent-device-token');
  family = { parentId: p.id, parentToken: p.token, studentId: (await student(a.schoolId, p.id, { grade: '5' })).id };
  teacher = await signedIn('staff', a.schoolId, 'teacher-device-token');
  await Grade.update({ class_teacher_id: teacher.id }, { where: { school_id: a.schoolId, name: '5' } });
  await assign(a.schoolId, teacher.id, family.studentId);
});

afterAll(async () => {
  await closePushProvider(t.ctx);
  await t.close();
  nock.cleanAll();
  nock.enableNetConnect();
  nock.restore();
});

describe('the fcm provider', () => {
  it("gets an OAuth token with a signed service-account grant and pushes a leave request to the class teacher's device", async () => {
    const token = oauth();
    const send = fcm(200, { name: `projects/${PROJECT}/messages/1` });
    const leave = await t.api.post('/parent-app/write-to').set(bearer(family.parentToken)).send({
      student_id: family.studentId, type: 'leave', subject: 'Wedding', message: 'Away two days', leave_from: '2026-12-03', leave_to: '2026-12-04',
    });
    expect(leave.status).toBe(201);

    expect(await deliverDue(t.ctx)).toMatchObject({ claimed: 1, sent: 1 });
    expect(token.isDone() && send.isDone()).toBe(true);

    const grant = grants.at(-1)!;
    expect(grant.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const claims = jwt.verify(grant.get('assertion')!, keys.publicKey, { algorithms: ['RS256'] }) as Record<string, string>;
    expect(claims).toMatchObject({ iss: CLIENT_EMAIL, aud: `${TOKEN_URL}/token` });
    expect(claims.scope).toContain('https://www.googleapis.com/auth/firebase.messaging');

    const request = sent.at(-1)!;
    expect(request.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
    expect(request.body.message).toEqual({
      token: 'teacher-device-token',
      notification: { title: expect.stringMatching(/^Leave request/), body: '2026-12-03 to 2026-12-04: Wedding' },
      data: { event: 'write_to_leave', entity_type: 'write_to', entity_id: String(leave.body.data.id), school_id: a.schoolId },
    });
    expect(Object.values(request.body.message.data).every((v) => typeof v === 'string')).toBe(true);
    const record = await Notification.findOne({ where: { event: 'write_to_leave', entity_id: leave.body.data.id }, raw: true });
    expect(record).toMatchObject({ status: 'sent', attempts: 1, target_type: 'staff', target_id: teacher.id });
  });

  it("pushes a staff reply to the parent's device", async () => {
    const send = fcm(200, { name: `projects/${PROJECT}/messages/2` });
    const threadId = await replyFromTeacher(family.parentToken, family.studentId, 'The bus leaves at 7:40.');
    expect(await deliverDue(t.ctx)).toMatchObject({ sent: 1 });
    expect(send.isDone()).toBe(true);
    expect(sent.at(-1)!.body.message).toEqual({
      token: 'parent-device-token',
      notification: { title: 'Reply to "Bus"', body: 'The bus leaves at 7:40.' },
      data: { event: 'write_to_reply', entity_type: 'write_to', entity_id: String(threadId), school_id: a.schoolId },
    });
  });

  it("clears the session's token when FCM answers that it is unregistered", async () => {
    const p = await signedIn('parent', a.schoolId, 'dead-device-token');
    const studentId = (await student(a.schoolId, p.id)).id;
    await assign(a.schoolId, teacher.id, studentId);
    const send = fcm(404, fcmError(404, 'NOT_FOUND', 'UNREGISTERED'));
    const threadId = await replyFromTeacher(p.token, studentId, 'Noted.');
    expect(await deliverDue(t.ctx)).toMatchObject({ failed: 1 });
    expect(send.isDone()).toBe(true);
    expect(sent.at(-1)!.body.message.token).toBe('dead-device-token');
    const record = await Notification.findOne({ where: { event: 'write_to_reply', entity_id: threadId }, raw: true });
    expect(record?.status).toBe('failed');
    expect(record?.last_error).toContain('registration-token-not-registered');
    const sessions = await Session.findAll({ where: { user_type: 'parent', user_id: p.id }, raw: true });
    expect(sessions.map((s) => s.fcm_token)).toEqual([null]);
  });

  it('retries a 503 after the back-off and sends it then', async () => {
    const unavailable = fcm(503, fcmError(503, 'UNAVAILABLE'), 5); // firebase-admin itself retries a 503 four times
    const threadId = await replyFromTeacher(family.parentToken, family.studentId, 'Retry me');
    const started = Date.now();
    expect(await deliverDue(t.ctx)).toMatchObject({ retry: 1 });
    expect(unavailable.isDone()).toBe(true);
    const waiting = await Notification.findOne({ where: { event: 'write_to_reply', entity_id: threadId }, raw: true });
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1, sent_at: null });
    expect(waiting?.last_error).toContain('server-unavailable');
    const delay = Date.parse(iso(waiting!.next_attempt_at)!) - started;
    expect(delay).toBeGreaterThanOrEqual(4_000);
    expect(delay).toBeLessThan(5_000 + (Date.now() - started) + 1_000);

    expect(await deliverDue(t.ctx)).toMatchObject({ claimed: 0 }); // not due yet
    const send = fcm(200, { name: `projects/${PROJECT}/messages/3` });
    expect(await deliverDue(t.ctx, { now: new Date(Date.now() + 6_000) })).toMatchObject({ sent: 1 });
    expect(send.isDone()).toBe(true);
    expect(await Notification.findOne({ where: { id: waiting!.id }, raw: true })).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
  });

  it('retries a 429 and gives up as failed after the last back-off step', async () => {
    const [id] = await enqueue([{ school_id: a.schoolId, event: 'write_to_reply', target_type: 'parent', target_id: family.parentId, address: 'busy-device', title: 't', body: 'b' }]);
    const limited = fcm(429, fcmError(429, 'RESOURCE_EXHAUSTED', 'QUOTA_EXCEEDED'), 6);
    let now = Date.now();
    for (let attempt = 1; attempt <= 6; attempt++) {
      await deliverDue(t.ctx, { now: new Date(now) });
      const row = (await Notification.findByPk(id, { raw: true }))!;
      expect(row).toMatchObject({ attempts: attempt, status: attempt < 6 ? 'pending' : 'failed' });
      now = (row.next_attempt_at ? Date.parse(iso(row.next_attempt_at)!) : now) + 1;
    }
    expect(limited.isDone()).toBe(true);
  });

  it('sends a diagnostics test push at once through FCM', async () => {
    const it_contact = await adminUser(t, a.schoolId, 'it_contact');
    const send = fcm(200, { name: `projects/${PROJECT}/messages/4` });
    const res = await t.api.post('/web-app/diagnostics/test-push').set(bearer(it_contact.token)).send({ fcm_token: 'diagnostic-device', title: 'Ping' });
    expect(res.body.data).toEqual({ sent: 1, failed: 0, results: [{ target: 'token', ok: true }] });
    expect(send.isDone()).toBe(true);
    expect(sent.at(-1)!.body.message).toMatchObject({ token: 'diagnostic-device', notification: { title: 'Ping' }, data: { event: 'test_push' } });
  });
});

describe('behind HTTPS_PROXY', () => {
  let proxied: TestApp;
  let proxy: http.Server;
  const connects: string[] = [];

  beforeAll(async () => {
    // The network is closed: the proxy records each CONNECT and refuses it, as a proxy with no way out would.
    proxy = http.createServer();
    proxy.on('connect', (req: http.IncomingMessage, socket) => {
      connects.push(req.url ?? '');
      socket.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const { port } = proxy.address() as AddressInfo;
    proxied = await startTestApp({ PUSH_PROVIDER: 'fcm', FCM_SERVICE_ACCOUNT_FILE: proxiedAccountFile, HTTPS_PROXY: `http://127.0.0.1:${port}` });
  });

  afterAll(async () => {
    nock.activate();
    await closePushProvider(proxied.ctx);
    await proxied.close();
    await new Promise((resolve) => proxy.close(resolve));
  });

  const queued = async () => {
    const [id] = await enqueue([{ school_id: 'proxy-school', event: 'test_push', target_type: 'token', address: 'proxied-device', title: 't', body: 'b' }]);
    return id!;
  };

  it('sends the OAuth token request and the FCM send through the proxy, and retries when the proxy refuses', async () => {
    // Interception off: the only way out is the proxy, so a request that ignored it would not be seen there.
    nock.restore();
    const first = await queued();
    expect(await deliverDue(proxied.ctx)).toMatchObject({ retry: 1 });
    expect(connects).toContain('oauth2.googleapis.com:443');
    expect(connects).not.toContain('fcm.googleapis.com:443');
    expect(await Notification.findByPk(first, { raw: true })).toMatchObject({ status: 'pending', attempts: 1 });

    // With a token in hand (the token endpoint answered through interception), the send itself goes to the proxy.
    nock.activate();
    const token = oauth();
    const send = fcm(200, { name: `projects/${PROJECT}/messages/5` });
    expect(await deliverDue(proxied.ctx, { now: new Date(Date.now() + 6_000) })).toMatchObject({ sent: 1 });
    expect(token.isDone() && send.isDone()).toBe(true);
    nock.restore();
    const second = await queued();
    expect(await deliverDue(proxied.ctx)).toMatchObject({ retry: 1 });
    expect(connects).toContain('fcm.googleapis.com:443');
    const row = await Notification.findByPk(second, { raw: true });
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row?.last_error).toMatch(/502/);
  });
});
