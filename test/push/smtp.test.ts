import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { createApp } from '../../src/app.js';
import { AuditEvent, LinkToken, Notice, Notification, Parent, Read } from '../../src/models/index.js';
import { closePushProvider } from '../../src/push/providers.js';
import { createSmtpProvider } from '../../src/push/smtp-provider.js';
import { deliverDue } from '../../src/push/worker.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { checkedSupertest } from '../helpers/openapi-check.js';
import { adminUser, bearer, expectError, parent, parentLogin, school, student, type SchoolFixture } from '../helpers/fixtures.js';
import { startMailbox, throwawayCa, type Mailbox, type ReceivedMail, type ThrowawayCa } from '../helpers/gateways.js';

/**
 * E-mail through an SMTP relay (here an smtp-server started by the test, offering STARTTLS and
 * asking to sign in), read back with mailparser as a mail client would; and the pages its links
 * open: a post's web page, one-click unsubscribe, and the verification of a parent's own address.
 */
const PUBLIC = 'https://school.example';
const MAIL_FROM = 'news@school.example';
let ca: ThrowawayCa;
let mailbox: Mailbox;
let t: TestApp;
let a: SchoolFixture;

beforeAll(async () => {
  ca = throwawayCa(['localhost']);
  mailbox = await startMailbox(ca, { user: 'relay', pass: 's3cret word' });
  t = await startTestApp({ SMTP_URL: `smtp://relay:${encodeURIComponent('s3cret word')}@127.0.0.1:${mailbox.port}`, MAIL_FROM, PUBLIC_APP_URL: PUBLIC }, { trustedCa: ca.ca });
  a = await school(t);
});

afterAll(async () => {
  await closePushProvider(t.ctx);
  await t.close();
  await mailbox.close();
});

/** A parent with a verified address (set by the school) and no device, with one child. */
async function family(email: string | null = `family-${Math.random().toString(36).slice(2, 8)}@example.org`) {
  const p = await parent(t.ctx, a.schoolId);
  if (email) await Parent.update({ email }, { where: { id: p.id } });
  const child = await student(a.schoolId, p.id);
  return { id: p.id, phone: p.phone, pin: p.pin, email: email!, child: child.id };
}

async function notice(childId: number, title = 'Sports day on Friday', text = 'Bring water and a cap.') {
  const res = await t.api.post('/web-app/noticeboard').set(bearer(a.adminToken)).send({ notice_title: title, notice_desc: text, audience: { student_ids: [childId] } });
  expect(res.status).toBe(201);
  return res.body.data.id as number;
}

/** Sends what is due and answers the mail that arrived (the one to `to`, when others went too). */
async function delivered(to?: string): Promise<ReceivedMail> {
  const before = mailbox.mails.length;
  const { sent } = await deliverDue(t.ctx);
  expect(sent).toBeGreaterThanOrEqual(1);
  const mails = (await mailbox.waitFor(before + 1)).slice(before);
  return to ? mails.find((m) => m.envelope.to[0] === to)! : mails[0]!;
}

const linkIn = (mail: ReceivedMail, path: '/v/' | '/u/' | '/e/') => {
  const found = new RegExp(`${PUBLIC}${path}[A-Za-z0-9_-]+`).exec(mail.parsed.text ?? '')?.[0];
  expect(found).toEqual(expect.any(String));
  return new URL(found!).pathname;
};

const pageHeaders = (res: { headers: Record<string, string> }) => {
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['x-robots-tag']).toBe('noindex');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
  const csp = res.headers['content-security-policy']!;
  expect(csp).toMatch(/(^|;)\s*(default-src 'none'|script-src 'none')/);
  for (const directive of csp.split(';').map((d) => d.trim()).filter((d) => /^script-src(-elem|-attr)?\s/.test(d))) expect(directive).toMatch(/^script-src(-elem|-attr)? 'none'$/);
};

describe('e-mail through an SMTP relay', () => {
  it("mails a family's notice to its verified address: signed in over STARTTLS, From the school, unsubscribe headers, text and escaped HTML", async () => {
    const fam = await family();
    const id = await notice(fam.child, 'Play <script>alert("x")</script> & more', 'Bring <b>water</b>.\nAnd a cap.');
    const [record] = await Notification.findAll({ where: { school_id: a.schoolId, event: 'notice_published', entity_id: id }, raw: true });
    expect(record).toMatchObject({ channel: 'email', status: 'pending', target_id: fam.id, title: 'Play <script>alert("x")</script> & more' });
    const mail = await delivered();
    expect(mail).toMatchObject({ secure: true, user: 'relay', envelope: { from: MAIL_FROM, to: [fam.email] } });
    const m = mail.parsed;
    expect(m.from?.value).toEqual([{ name: `School ${a.schoolId}`, address: MAIL_FROM }]);
    expect(m.to && !Array.isArray(m.to) ? m.to.value.map((v) => v.address) : []).toEqual([fam.email]);
    expect(m.subject).toBe(`[School ${a.schoolId}] Play <script>alert("x")</script> & more`);
    expect(m.messageId).toMatch(/^<.+@.+>$/);
    expect(m.date).toBeInstanceOf(Date);
    // RFC 8058's pair of headers, as they are on the wire (mailparser folds List-* headers into its own shape).
    expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
    const unsubscribe = /^List-Unsubscribe: <([^>]+)>\r?$/m.exec(mail.raw.replace(/\r?\n[ \t]+/g, ' '))?.[1];
    expect(unsubscribe).toMatch(new RegExp(`^${PUBLIC}/u/[A-Za-z0-9_-]{22,}$`));
    expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/i);
    const view = linkIn(mail, '/v/');
    expect(m.text).toContain('Play <script>alert("x")</script> & more');
    expect(m.text).toContain('Bring <b>water</b>.');
    expect(m.text).toContain(unsubscribe!);
    expect(m.html).toContain('Play &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more');
    expect(m.html).toContain('Bring &lt;b&gt;water&lt;/b&gt;.');
    expect(m.html).not.toMatch(/<script/i);
    expect(m.html).toContain(`${PUBLIC}${view}`);
    expect(m.html).toContain(unsubscribe!);
    expect(await Notification.findByPk(record!.id, { raw: true })).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('encodes a title in other scripts as RFC 2047 words, and lets no line break of a title add a header', async () => {
    const fam = await family();
    await notice(fam.child, 'Fête de l\u2019école \u0938\u092e\u093e\u0930\u094b\u0939');
    const mail = await delivered();
    expect(mail.raw).toMatch(/^Subject: =\?UTF-8\?[BQ]\?/m);
    expect(mail.parsed.subject).toBe(`[School ${a.schoolId}] Fête de l\u2019école \u0938\u092e\u093e\u0930\u094b\u0939`);

    const next = await family();
    await notice(next.child, 'Holiday\r\nBcc: attacker@example.net\r\nX-Injected: yes\u0085\u0007');
    const injected = await delivered();
    expect(injected.parsed.subject).toBe(`[School ${a.schoolId}] HolidayBcc: attacker@example.netX-Injected: yes`);
    expect(injected.parsed.headers.has('bcc')).toBe(false);
    expect(injected.parsed.headers.has('x-injected')).toBe(false);
    expect(injected.envelope.to).toEqual([next.email]);
  });

  it('fails an address the relay refuses for good (5xx) and retries one it refuses for now (4xx), which degrades e-mail in the health', async () => {
    const it_contact = await adminUser(t, a.schoolId, 'it_contact');
    const health = async () => (await t.api.get('/web-app/diagnostics/health').set(bearer(it_contact.token))).body.data.email;
    const refused = await family();
    const id = await notice(refused.child);
    mailbox.refusals.push(550);
    expect(await deliverDue(t.ctx)).toMatchObject({ failed: 1 });
    expect(await Notification.findAll({ where: { event: 'notice_published', entity_id: id }, raw: true })).toEqual([expect.objectContaining({ status: 'failed', last_error: 'smtp 550', next_attempt_at: null })]);
    expect(await health()).toEqual({ provider: 'smtp', status: 'ok' });

    const later = await family();
    const laterId = await notice(later.child);
    mailbox.refusals.push(451);
    expect(await deliverDue(t.ctx)).toMatchObject({ retry: 1 });
    expect(await Notification.findAll({ where: { event: 'notice_published', entity_id: laterId }, raw: true })).toEqual([expect.objectContaining({ status: 'pending', attempts: 1, last_error: 'smtp 451' })]);
    expect(await health()).toEqual({ provider: 'smtp', status: 'degraded' });
    expect(await deliverDue(t.ctx, { now: new Date(Date.now() + 6_000) })).toMatchObject({ sent: 1 });
    expect(await health()).toEqual({ provider: 'smtp', status: 'ok' });
  });

  it('retries when the relay cannot be reached at all, and sends over TLS from the start with smtps://', async () => {
    const closed = createServer();
    const port = await new Promise<number>((resolve) => closed.listen(0, '127.0.0.1', () => resolve((closed.address() as AddressInfo).port)));
    await new Promise((resolve) => closed.close(resolve));
    const message = { channel: 'email' as const, to: 'x@example.org', fromName: 'School', subject: 'Hello', text: 'Hi', html: '<p>Hi</p>', data: {} };
    const down = createSmtpProvider({ url: `smtp://127.0.0.1:${port}`, mailFrom: MAIL_FROM }, pino({ level: 'silent' }));
    expect(await down.send(message)).toMatchObject({ ok: false, kind: 'retryable', error: expect.stringContaining('smtp unreachable') });
    expect(down.status()).toBe('degraded');
    await down.close();

    const tlsBox = await startMailbox(ca, { secure: true, user: 'relay', pass: 'pw' });
    const secure = createSmtpProvider({ url: `smtps://relay:pw@127.0.0.1:${tlsBox.port}`, mailFrom: MAIL_FROM, ca: ca.ca }, pino({ level: 'silent' }));
    try {
      expect(await secure.send(message)).toMatchObject({ ok: true });
      expect((await tlsBox.waitFor(1))[0]).toMatchObject({ secure: true, user: 'relay', envelope: { from: MAIL_FROM, to: ['x@example.org'] } });
    } finally {
      await secure.close();
      await tlsBox.close();
    }
  });
});

describe("a post's web page", () => {
  it('shows the post readable without the app, escaped, with the headers of a page that runs nothing, and counts as the read', async () => {
    const fam = await family();
    const id = await notice(fam.child, 'Science fair <script>steal()</script>', 'Stalls open at 9.\n\nParents welcome.');
    const mail = await delivered();
    // A link checker's look (HEAD) answers as the page does and is nobody's read.
    const look = await t.api.head(linkIn(mail, '/v/'));
    expect(look.status).toBe(200);
    pageHeaders(look);
    expect(await Read.count({ where: { school_id: a.schoolId, entity_type: 'noticeboard', entity_id: id } })).toBe(0);
    const res = await t.api.get(linkIn(mail, '/v/'));
    expect(res.status).toBe(200);
    pageHeaders(res);
    expect(res.text).toContain(`School ${a.schoolId}`);
    expect(res.text).toContain('Science fair &lt;script&gt;steal()&lt;/script&gt;');
    expect(res.text).not.toContain('<script');
    expect(res.text).toContain('<p>Stalls open at 9.</p>');
    expect(res.text).toMatch(/\d{4}-\d{2}-\d{2}/);
    const read = await Read.findOne({ where: { school_id: a.schoolId, entity_type: 'noticeboard', entity_id: id, parent_id: fam.id }, raw: true });
    expect(read).not.toBeNull();
    const reach = (await t.api.get(`/web-app/noticeboard/${id}/reach`).set(bearer(a.adminToken))).body.data;
    expect(reach).toMatchObject({ families: 1, read: 1, unread: 0, pushed: 0, by_channel: { push: 0, email: 1, sms: 0, none: 0 } });
    // Opened again: the first read stays.
    await t.api.get(linkIn(mail, '/v/')).expect(200);
    expect((await Read.findOne({ where: { school_id: a.schoolId, entity_type: 'noticeboard', entity_id: id, parent_id: fam.id }, raw: true }))!.read_at).toEqual(read!.read_at);
  });

  it('answers 410 for a post deleted since, or no longer the family\'s, recording no read; 404 for a link unknown or expired', async () => {
    const fam = await family();
    const id = await notice(fam.child, 'Soon gone');
    const mail = await delivered();
    await t.api.delete(`/web-app/noticeboard/${id}`).query({ school_id: a.schoolId }).set(bearer(a.adminToken)).expect(200);
    const gone = await t.api.get(linkIn(mail, '/v/'));
    expect(gone.status).toBe(410);
    pageHeaders(gone);
    expect(await Read.count({ where: { entity_type: 'noticeboard', entity_id: id } })).toBe(0);

    const moved = await family();
    const movedId = await notice(moved.child, 'For one child');
    const movedMail = await delivered();
    const other = await student(a.schoolId, null);
    await t.api.put(`/web-app/noticeboard/${movedId}`).set(bearer(a.adminToken)).send({ audience: { student_ids: [other.id] } }).expect(200);
    expect((await t.api.get(linkIn(movedMail, '/v/'))).status).toBe(410);

    // A token cut short, mangled (not even percent-decodable) or missing, or a path under a page's that no page has: the page saying so.
    for (const path of ['/v/AAAAAAAAAAAAAAAAAAAAAAschool', '/v/short', `/v/${'x'.repeat(400)}`, '/e/nope', '/u/nope', '/v/%E0%A4%A', '/v/', '/e/', '/u/', '/v/abc/def']) {
      const res = await t.api.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      pageHeaders(res);
    }
    const live = await family();
    await notice(live.child, 'Expiring');
    const liveMail = await delivered();
    await LinkToken.update({ expires_at: new Date(Date.now() - 1000) }, { where: { school_id: a.schoolId, parent_id: live.id, kind: 'view' } });
    expect((await t.api.get(linkIn(liveMail, '/v/'))).status).toBe(404);
  });

  it("shows a staff reply's page: the thread's subject, the reply and its date", async () => {
    const fam = await family();
    const thread = await t.api.post('/parent-app/write-to').set(bearer(await parentLogin(t, fam.phone, fam.pin, a.schoolId))).send({ student_id: fam.child, type: 'query', subject: 'Lost jumper', message: 'Has it been found?' });
    expect(thread.status).toBe(201);
    await t.api.post(`/web-app/write-to/${thread.body.data.id}/reply`).set(bearer(a.adminToken)).send({ message: 'Yes: it is at the office <desk>.' }).expect(201);
    const mail = await delivered();
    expect(mail.parsed.subject).toBe(`[School ${a.schoolId}] Lost jumper`);
    const page = await t.api.get(linkIn(mail, '/v/'));
    expect(page.status).toBe(200);
    expect(page.text).toContain('Lost jumper');
    expect(page.text).toContain('Yes: it is at the office &lt;desk&gt;.');
  });
});

describe('one-click unsubscribe', () => {
  it('asks on GET and changes nothing; POST turns e-mail off for that parent (audited), again too; the next notice goes by SMS', async () => {
    const fam = await family();
    await notice(fam.child);
    const mail = await delivered();
    const path = linkIn(mail, '/u/');
    const token = await parentLogin(t, fam.phone, fam.pin, a.schoolId);
    const channels = async () => (await t.api.get('/parent-app/notification-preferences').set(bearer(token))).body.data.channels;

    const ask = await t.api.get(path);
    expect(ask.status).toBe(200);
    pageHeaders(ask);
    expect(ask.text).toMatch(/<form method="post">/);
    expect(await channels()).toEqual({ push: true, email: true, sms: true });

    const done = await t.api.post(path).type('form').send('List-Unsubscribe=One-Click');
    expect(done.status).toBe(200);
    pageHeaders(done);
    expect(await channels()).toEqual({ push: true, email: false, sms: true });
    const event = (await AuditEvent.findOne({ where: { school_id: a.schoolId, action: 'preference.update', entity_id: String(fam.id) } }))!.get({ plain: true });
    expect(event).toMatchObject({ entity_type: 'preference', actor_type: 'parent', actor_id: String(fam.id), changes: { 'channels.email': [true, false] } });
    expect((await t.api.post(path)).status).toBe(200);
    expect(await AuditEvent.count({ where: { school_id: a.schoolId, action: 'preference.update', entity_id: String(fam.id) } })).toBe(1);

    const next = await notice(fam.child, 'After unsubscribing');
    expect((await Notification.findAll({ where: { event: 'notice_published', entity_id: next }, raw: true })).map((r) => r.channel)).toEqual(['sms']);
    expect(await deliverDue(t.ctx)).toMatchObject({ sent: 1 });
    expect((await t.api.post('/u/AAAAAAAAAAAAAAAAAAAAAAnobody')).status).toBe(404);
  });

  it('takes whatever a mail client puts in the field, and answers a body it cannot read as a page too', async () => {
    const fam = await family();
    await notice(fam.child);
    const path = linkIn(await delivered(), '/u/');
    for (const send of [
      () => t.api.post(path).type('form').send(`List-Unsubscribe=${'x'.repeat(101)}`),
      () => t.api.post(path).type('form').send('List-Unsubscribe=One-Click&List-Unsubscribe=One-Click'),
      () => t.api.post(path).send({ 'List-Unsubscribe': 1 }),
      () => t.api.post(path).field('List-Unsubscribe', 'One-Click'),
    ]) {
      const res = await send();
      expect(res.status).toBe(200);
      pageHeaders(res);
      expect(res.text).toContain('You are unsubscribed');
    }
    // The link alone decides: an unknown one is the 404 page whatever the body.
    const unknown = await t.api.post('/u/AAAAAAAAAAAAAAAAAAAAAAnobody').type('form').send('List-Unsubscribe=One-Click&List-Unsubscribe=x');
    expect(unknown.status).toBe(404);
    pageHeaders(unknown);
    expect(unknown.text).toContain('This link is not valid');
    for (const [res, status, words] of [
      [await t.api.post(path).set('Content-Type', 'application/json').send('{not json'), 400, 'The request body is not valid JSON'],
      [await t.api.post(path).type('form').send(`List-Unsubscribe=One-Click&x=${'y'.repeat(1_100_000)}`), 413, 'larger than 1 MiB'],
    ] as const) {
      expect(res.status).toBe(status);
      pageHeaders(res);
      expect(res.text).toContain(words);
    }
  });

  it('answers the rate limit as a page, with Retry-After', async () => {
    // An app of its own, allowing one request a minute, over the same database.
    const limited = checkedSupertest(createApp({ ...t.ctx, config: { ...t.ctx.config, rateLimitPublic: 1 } }).app);
    expect((await limited.get('/v/AAAAAAAAAAAAAAAAAAAAAAnobody')).status).toBe(404);
    const res = await limited.get('/v/AAAAAAAAAAAAAAAAAAAAAAnobody');
    expect(res.status).toBe(429);
    pageHeaders(res);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.text).toContain('This link could not be opened');
  });

});

describe("a parent's own e-mail address", () => {
  it('is set unverified with a verification e-mail, is sent nothing else until its link is opened, and is verified by it', async () => {
    const fam = await family(null);
    const token = await parentLogin(t, fam.phone, fam.pin, a.schoolId);
    expect((await t.api.get('/parent-app/profile').set(bearer(token))).body.data).toEqual({
      id: fam.id, father_name: 'Ravi Rao', mother_name: null, phone_no: fam.phone, email: null, email_verified: false,
    });
    const set = await t.api.put('/parent-app/profile').set(bearer(token)).send({ email: '  Ravi.Rao@Example.org ' });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ email: 'ravi.rao@example.org', email_verified: false });
    const exported = async () => (await t.api.get('/parent-app/my-data').set(bearer(token))).body.data;
    expect((await exported()).parents).toEqual([expect.objectContaining({ id: fam.id, email: 'ravi.rao@example.org', email_verified: false })]);
    const records = await Notification.findAll({ where: { school_id: a.schoolId, target_id: fam.id, event: 'email_verification' }, raw: true });
    expect(records).toEqual([expect.objectContaining({ channel: 'email', status: 'pending', deliver_after: null })]);
    const verification = await delivered();
    const mails = mailbox.mails.length;
    expect(verification.envelope.to).toEqual(['ravi.rao@example.org']);
    expect(verification.parsed.subject).toBe(`[School ${a.schoolId}] Confirm your e-mail address`);

    const id = await notice(fam.child, 'Before verifying');
    expect((await Notification.findAll({ where: { event: 'notice_published', entity_id: id }, raw: true })).map((r) => r.channel)).toEqual(['sms']);
    expect(await deliverDue(t.ctx)).toMatchObject({ sent: 1 });
    expect(mailbox.mails.length).toBe(mails);

    const verify = linkIn(verification, '/e/');
    expect((await t.api.head(verify)).status).toBe(200);
    expect((await t.api.get('/parent-app/profile').set(bearer(token))).body.data).toMatchObject({ email: 'ravi.rao@example.org', email_verified: false });
    const page = await t.api.get(verify);
    expect(page.status).toBe(200);
    pageHeaders(page);
    expect(page.text).toContain('ravi.rao@example.org');
    expect((await t.api.get('/parent-app/profile').set(bearer(token))).body.data).toMatchObject({ email: 'ravi.rao@example.org', email_verified: true });
    expect((await t.api.get(verify)).status).toBe(200);
    // The export carries the address, whether it is verified, and the parent's preferences as the app shows them.
    await t.api.put('/parent-app/notification-preferences').set(bearer(token)).send({ channels: { sms: false } }).expect(200);
    const data = await exported();
    expect(data.parents).toEqual([expect.objectContaining({ id: fam.id, email: 'ravi.rao@example.org', email_verified: true })]);
    expect(data.preferences).toEqual([{
      parent_id: fam.id, categories: { activities: true, notices: true, write_to: true, diary: true, attendance: true }, quiet_hours: null, channels: { push: true, email: true, sms: false },
    }]);
    await t.api.put('/parent-app/notification-preferences').set(bearer(token)).send({ channels: { sms: true } }).expect(200);
    const events = (await AuditEvent.findAll({ where: { school_id: a.schoolId, action: 'parent.update', entity_id: String(fam.id) }, order: [['id', 'ASC']] })).map((e) => e.get({ plain: true }).changes);
    expect(events).toEqual([{ email: [null, 'ravi.rao@example.org'] }, { email_verified: [false, true] }]);
    const after = await notice(fam.child, 'After verifying');
    expect((await Notification.findAll({ where: { event: 'notice_published', entity_id: after }, raw: true })).map((r) => r.channel)).toEqual(['email']);
    await delivered();

    // The address already on file changes nothing; a new one makes the old link unknown; null removes it.
    const same = await t.api.put('/parent-app/profile').set(bearer(token)).send({ email: 'ravi.rao@example.org' });
    expect(same.body.data).toMatchObject({ email_verified: true });
    expect(await Notification.count({ where: { target_id: fam.id, event: 'email_verification' } })).toBe(1);
    await t.api.put('/parent-app/profile').set(bearer(token)).send({ email: 'new@example.org' }).expect(200);
    expect((await t.api.get(verify)).status).toBe(404);
    // Given again, the address waits for a new link: the old one was for an address since replaced.
    await t.api.put('/parent-app/profile').set(bearer(token)).send({ email: 'ravi.rao@example.org' }).expect(200);
    expect((await t.api.get(verify)).status).toBe(404);
    expect((await t.api.get('/parent-app/profile').set(bearer(token))).body.data).toMatchObject({ email: 'ravi.rao@example.org', email_verified: false });
    expect((await t.api.put('/parent-app/profile').set(bearer(token)).send({ email: null })).body.data).toMatchObject({ email: null, email_verified: false });
    expectError(await t.api.put('/parent-app/profile').set(bearer(token)).send({ email: 'not an address' }), 400, 'BAD_REQUEST');
    expect((await t.api.put('/parent-app/profile').set(bearer(token)).send({ email: 'x' })).body.error.details[0].field).toBe('email');
    expectError(await t.api.get('/parent-app/profile').set(bearer(a.adminToken)), 403, 'FORBIDDEN');
  });
});

describe('link tokens', () => {
  it('appear in no log line: not of the worker, a provider that had to retry, nor the requests that opened their pages', async () => {
    const lines: string[] = [];
    const logged = { ...t.ctx, log: pino({ level: 'trace' }, new Writable({ write(chunk, _enc, done) { lines.push(String(chunk)); done(); } })) };
    const api = checkedSupertest(createApp(logged).app);
    const tokens: string[] = [];
    // What earlier tests left to send goes first, so that the refusal below meets this notice's e-mail.
    while ((await deliverDue(t.ctx, { now: new Date(Date.now() + 86_400_000) })).claimed > 0);
    try {
      const fam = await family();
      await api.post('/web-app/noticeboard').set(bearer(a.adminToken)).send({ notice_title: 'Logged notice', notice_desc: 'Read it.', audience: { student_ids: [fam.child] } }).expect(201);
      mailbox.refusals.push(451);
      expect(await deliverDue(logged)).toMatchObject({ retry: 1 });
      const before = mailbox.mails.length;
      expect(await deliverDue(logged, { now: new Date(Date.now() + 6_000) })).toMatchObject({ sent: 1 });
      const mail = (await mailbox.waitFor(before + 1)).slice(before).find((m) => m.envelope.to[0] === fam.email)!;
      const view = linkIn(mail, '/v/');
      const unsubscribe = linkIn(mail, '/u/');
      await api.get(view).expect(200);
      await api.get(unsubscribe).expect(200);
      await api.post(unsubscribe).type('form').send('List-Unsubscribe=One-Click').expect(200);

      const own = await family(null);
      const session = await parentLogin(t, own.phone, own.pin, a.schoolId);
      await api.put('/parent-app/profile').set(bearer(session)).send({ email: 'logged@example.org' }).expect(200);
      const sent = mailbox.mails.length;
      await deliverDue(logged);
      const verify = linkIn((await mailbox.waitFor(sent + 1)).slice(sent).find((m) => m.envelope.to[0] === 'logged@example.org')!, '/e/');
      await api.get(verify).expect(200);
      tokens.push(...[view, unsubscribe, verify].map((p) => p.split('/')[2]!));
    } finally {
      await closePushProvider(logged);
    }
    const log = lines.join('');
    // The lines are there: the retried send, and each page's request with its token redacted.
    expect(log).toContain('smtp send failed');
    for (const page of ['/v/', '/u/', '/e/']) expect(log).toContain(`${page}[REDACTED]`);
    expect(tokens).toHaveLength(3);
    for (const token of tokens) {
      expect(log).not.toContain(token);
      expect(log).not.toContain(token.slice(0, 22));
    }
  });

  it('appear in no record, audit event or export: only in the messages sent', async () => {
    const fam = await family();
    await notice(fam.child, 'Token check');
    const mail = await delivered(fam.email);
    const tokens = [linkIn(mail, '/v/'), linkIn(mail, '/u/')].map((p) => p.split('/')[2]!);
    await t.api.get(`/v/${tokens[0]}`).expect(200);
    const export_ = await t.api.get(`/web-app/students/${fam.child}/export`).set(bearer(a.adminToken));
    expect(export_.status).toBe(200);
    const stored = JSON.stringify([
      await Notification.findAll({ where: { school_id: a.schoolId }, raw: true }),
      await AuditEvent.findAll({ where: { school_id: a.schoolId }, raw: true }),
      await LinkToken.findAll({ where: { school_id: a.schoolId }, raw: true }),
      await Notice.findAll({ where: { school_id: a.schoolId }, raw: true }),
      export_.body,
    ]);
    for (const token of tokens) {
      expect(stored).not.toContain(token);
      expect(stored).not.toContain(token.slice(0, 22));
    }
  });
});
