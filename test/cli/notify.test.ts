import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Notification } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { school, type SchoolFixture } from '../helpers/fixtures.js';
import { startConnectProxy, startMailbox, startTwilioStub, throwawayCa, type ConnectProxy, type Mailbox, type ThrowawayCa, type TwilioStub } from '../helpers/gateways.js';
import { TWILIO_ACCOUNT_SID, twilioEnv } from '../helpers/twilio.js';

/**
 * `notify test` against the real peers: Twilio's Messages API (a local HTTPS endpoint behind a
 * CONNECT proxy, trusted through NODE_EXTRA_CA_CERTS as an operator would) and an SMTP relay.
 */
const MAIL_FROM = 'news@school.example';
let ca: ThrowawayCa;
let stub: TwilioStub;
let proxy: ConnectProxy;
let mailbox: Mailbox;
let t: TestApp;
let env: NodeJS.ProcessEnv;
let a: SchoolFixture;

beforeAll(async () => {
  ca = throwawayCa(['api.twilio.com', 'localhost']);
  stub = await startTwilioStub(ca);
  proxy = await startConnectProxy({ 'api.twilio.com:443': stub.port });
  mailbox = await startMailbox(ca, { user: 'relay', pass: 'pw' });
  t = await startTestApp();
  env = cliEnv(t, {
    SMS_PROVIDER: 'twilio', ...twilioEnv, TWILIO_FROM: '+15005550006', HTTPS_PROXY: proxy.url,
    SMTP_URL: `smtp://relay:pw@127.0.0.1:${mailbox.port}`, MAIL_FROM, NODE_EXTRA_CA_CERTS: ca.caFile,
  });
  a = await school(t);
});

afterAll(async () => {
  await t.close();
  await proxy.close();
  await stub.close();
  await mailbox.close();
});

const testRecords = () => Notification.findAll({ where: { school_id: a.schoolId, event: 'test_message' }, order: [['id', 'ASC']], raw: true });

describe('notify test', () => {
  it('sends one SMS at once through Twilio, a national number read with the school\'s country, and records it (exit 0)', async () => {
    const run = await runCli(env, ['notify', 'test', '--school', a.schoolId, '--channel', 'sms', '--to', '98450 12345', '--json']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ channel: 'sms', provider: 'twilio', to: '+919845012345', ok: true });
    const sent = stub.requests.at(-1)!;
    expect(sent.path).toBe(`/2010-04-01/Accounts/${TWILIO_ACCOUNT_SID}/Messages.json`);
    expect(sent.form).toMatchObject({ To: '+919845012345', From: '+15005550006', Body: `School ${a.schoolId}: a test message from the school platform. No reply is needed.` });
    expect(proxy.targets).toContain('api.twilio.com:443');
    expect(await testRecords()).toEqual([
      expect.objectContaining({ id: run.json.id, channel: 'sms', target_type: 'token', address: '+919845012345', status: 'sent', provider_id: expect.stringMatching(/^SM/) }),
    ]);
  });

  it('prints Twilio\'s refusal and exits 1, the record failed', async () => {
    stub.answers.push({ status: 400, body: { code: 21211, message: "The 'To' number is not a valid phone number." } });
    const run = await runCli(env, ['notify', 'test', '--school', a.schoolId, '--channel', 'sms', '--to', '+14155550100']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Refused by twilio');
    expect(run.stderr).toContain('twilio 21211');
    expect((await testRecords()).at(-1)).toMatchObject({ channel: 'sms', status: 'failed', last_error: 'twilio 21211', attempts: 1 });
  });

  it('reports a Twilio that is down at once (exit 1) instead of retrying later', async () => {
    stub.answers.push({ status: 503, body: { code: 20500 } });
    const run = await runCli(env, ['notify', 'test', '--school', a.schoolId, '--channel', 'sms', '--to', '+14155550101']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('twilio 20500');
    expect((await testRecords()).at(-1)).toMatchObject({ status: 'failed', next_attempt_at: null });
  });

  it('sends a test e-mail over SMTP to the address given, lower-cased (exit 0)', async () => {
    const before = mailbox.mails.length;
    const run = await runCli(env, ['notify', 'test', '--school', a.schoolId, '--channel', 'email', '--to', 'Office@Example.ORG', '--json']);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ channel: 'email', provider: 'smtp', to: 'office@example.org', ok: true });
    const [mail] = (await mailbox.waitFor(before + 1)).slice(before);
    expect(mail!.envelope).toEqual({ from: MAIL_FROM, to: ['office@example.org'] });
    expect(mail!.parsed.subject).toBe(`[School ${a.schoolId}] Test message`);
    expect(mail!.parsed.text).toContain('A test message from');
    expect(mail!.user).toBe('relay');
    expect((await testRecords()).at(-1)).toMatchObject({ channel: 'email', target_type: 'token', address: 'office@example.org', status: 'sent' });
  });

  it('prints the relay\'s refusal and exits 1', async () => {
    mailbox.refusals.push(550);
    const run = await runCli(env, ['notify', 'test', '--school', a.schoolId, '--channel', 'email', '--to', 'nobody@example.org']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('smtp 550');
    expect((await testRecords()).at(-1)).toMatchObject({ channel: 'email', status: 'failed', last_error: 'smtp 550' });
  });

  it('names the bad flag and exits 2, sending nothing; an unknown school is refused (1)', async () => {
    const requests = stub.requests.length;
    const records = (await testRecords()).length;
    const cases: Array<[string[], string]> = [
      [['--channel', 'sms', '--to', '+14155550100'], '--school'],
      [['--school', a.schoolId, '--channel', 'fax', '--to', '+14155550100'], '--channel'],
      [['--school', a.schoolId, '--channel', 'sms'], '--to'],
      [['--school', a.schoolId, '--channel', 'sms', '--to', '12'], '--to'],
      [['--school', a.schoolId, '--channel', 'email', '--to', 'not-an-address'], '--to'],
    ];
    for (const [flags, named] of cases) {
      const run = await runCli(env, ['notify', 'test', ...flags]);
      expect({ flags, code: run.code }).toEqual({ flags, code: 2 });
      expect(run.stderr).toContain(named);
    }
    const unknown = await runCli(env, ['notify', 'test', '--school', 'no-such-school', '--channel', 'sms', '--to', '+14155550100']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/not found/);
    expect(stub.requests.length).toBe(requests);
    expect((await testRecords()).length).toBe(records);
  });
});
