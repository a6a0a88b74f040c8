import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuditEvent } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { bearer, parent, parentLogin, school, student, type SchoolFixture } from '../helpers/fixtures.js';
import { twilioCallback, twilioEnv } from '../helpers/twilio.js';

/**
 * The words a parent can text back to the school's number (CONTRACT section 24): STOP and its
 * synonyms turn their SMS off, START and UNSTOP on, trimmed and in any case; anything else changes
 * nothing. Sent as Twilio sends them: form-encoded and signed over PUBLIC_APP_URL and the path.
 */
const PUBLIC = 'https://school.example';
let t: TestApp;
let a: SchoolFixture;

beforeAll(async () => {
  t = await startTestApp({ ...twilioEnv, PUBLIC_APP_URL: PUBLIC });
  a = await school(t);
});
afterAll(async () => t.close());

/** A parent of the school (phone stored national, read as +91 with the default country), signed in to the parent app. */
async function smsParent() {
  const p = await parent(t.ctx, a.schoolId);
  await student(a.schoolId, p.id);
  return { id: p.id, from: `+91${p.phone}`, token: await parentLogin(t, p.phone, p.pin, a.schoolId) };
}

/** The parent's channels as their app shows them. */
async function channels(token: string) {
  const res = await t.api.get('/parent-app/notification-preferences').set(bearer(token));
  expect(res.status).toBe(200);
  return res.body.data.channels as { push: boolean; email: boolean; sms: boolean };
}

/** A text message from that phone to the school's number. */
async function inbound(from: string, body: string) {
  const res = await twilioCallback(t, '/webhooks/twilio/inbound', { From: from, To: '+15005550006', Body: body, MessageSid: `SM${Math.random().toString(16).slice(2)}` });
  expect([res.status, res.type, res.text]).toEqual([200, 'text/xml', '<Response/>']);
}

const SMS_ON = { push: true, email: true, sms: true };
const SMS_OFF = { push: true, email: true, sms: false };

/** The channel changes audited for a parent, oldest first. */
const audited = async (parentId: number) =>
  (await AuditEvent.findAll({ where: { school_id: a.schoolId, action: 'preference.update', entity_id: String(parentId) }, order: [['id', 'ASC']] })).map((e) => e.get({ plain: true }).changes);

describe('inbound SMS keywords', () => {
  it.each([
    ['STOP', 'stop'],
    ['STOPALL', ' StopAll'],
    ['UNSUBSCRIBE', 'unsubscribe\n'],
    ['CANCEL', '\tCancel '],
    ['END', 'eNd'],
    ['QUIT', '  quit '],
  ])('%s (as %j too) turns SMS off for the parent whose phone sent it, and only SMS', async (word, messy) => {
    const p = await smsParent();
    const bystander = await smsParent();
    expect(await channels(p.token)).toEqual(SMS_ON);

    await inbound(p.from, messy);
    expect(await channels(p.token)).toEqual(SMS_OFF);
    expect(await channels(bystander.token)).toEqual(SMS_ON);

    await inbound(p.from, 'START');
    expect(await channels(p.token)).toEqual(SMS_ON);
    await inbound(p.from, word);
    expect(await channels(p.token)).toEqual(SMS_OFF);
    expect(await audited(p.id)).toEqual([{ 'channels.sms': [true, false] }, { 'channels.sms': [false, true] }, { 'channels.sms': [true, false] }]);
    expect(await channels(bystander.token)).toEqual(SMS_ON);
    expect(await audited(bystander.id)).toEqual([]);
  });

  it.each([
    ['START', ' start '],
    ['UNSTOP', 'Unstop\n'],
  ])('%s (as %j too) turns SMS on again', async (word, messy) => {
    const p = await smsParent();
    await inbound(p.from, 'STOP');
    expect(await channels(p.token)).toEqual(SMS_OFF);
    await inbound(p.from, messy);
    expect(await channels(p.token)).toEqual(SMS_ON);
    await inbound(p.from, 'QUIT');
    expect(await channels(p.token)).toEqual(SMS_OFF);
    await inbound(p.from, word);
    expect(await channels(p.token)).toEqual(SMS_ON);
  });

  it('leaves SMS as it was for any other message, on or off', async () => {
    const others = ['Thanks!', 'please stop', 'stop it', 'STOP.', 'S T O P', 'stopp', 'start now', 'restart', 'QUITE', ''];
    const on = await smsParent();
    for (const body of others) await inbound(on.from, body);
    expect(await channels(on.token)).toEqual(SMS_ON);
    expect(await audited(on.id)).toEqual([]);

    const off = await smsParent();
    await inbound(off.from, 'stop');
    for (const body of others) await inbound(off.from, body);
    expect(await channels(off.token)).toEqual(SMS_OFF);
    expect(await audited(off.id)).toEqual([{ 'channels.sms': [true, false] }]);
  });

  it('changes nothing for a phone that is no parent\'s', async () => {
    const p = await smsParent();
    const stranger = `+91${String(Number(p.from.slice(3)) + 1)}`;
    await inbound(stranger, 'STOP');
    expect(await channels(p.token)).toEqual(SMS_ON);
  });
});
