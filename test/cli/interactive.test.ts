import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { School, Webhook } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cliEnv, runCli, runInTerminal } from '../helpers/cli.js';
import { school, type SchoolFixture } from '../helpers/fixtures.js';

/* The operator at a terminal: the binary runs on a pseudo-terminal, so stdin and stdout are TTYs. */

let t: TestApp;
let env: NodeJS.ProcessEnv;
let a: SchoolFixture;

beforeAll(async () => {
  t = await startTestApp();
  env = cliEnv(t);
  a = await school(t);
});
afterAll(async () => t.close());

describe('on a terminal', () => {
  it('asks for each missing value, masking the password, and creates the school', async () => {
    const { code, screen } = await runInTerminal(env, ['tenant', 'create'], [
      { waitFor: 'School id', type: 'oak\r' },
      { waitFor: 'School name', type: 'Oak Academy\r' },
      { waitFor: 'Super admin e-mail', type: 'head@oak.example.org\r' },
      { waitFor: 'Super admin password', type: 'oak secret words\r' },
    ]);
    expect(code).toBe(0);
    expect(screen).toContain('Created school oak (Oak Academy)');
    expect(screen).not.toContain('oak secret words');
    expect(screen).toContain('*'.repeat('oak secret words'.length));
    expect(screen).not.toContain('Generated password');
    const signin = await t.api.post('/web-app/signin').send({ email: 'head@oak.example.org', password: 'oak secret words' });
    expect(signin.status).toBe(200);
  });

  it('re-asks a value that fails its check', async () => {
    const { code, screen } = await runInTerminal(env, ['pin', 'reset', '--school', a.schoolId, '--type', 'parent'], [
      { waitFor: 'Phone number', type: 'abc\r' },
      { waitFor: 'must be a phone number', type: '\x15' + '9876500001\r' },
    ]);
    // The phone is well formed now but has no parent in the school: refused by a rule, not a usage error.
    expect(code).toBe(1);
    expect(screen).toMatch(/Parent not found/);
  });

  it('asks for the events of a new webhook, re-asking a list with an unknown event', async () => {
    const c = await school(t);
    // Saving checks the address and never calls it.
    const { code, screen } = await runInTerminal({ ...env, WEBHOOK_ALLOW_PRIVATE: 'true' }, ['webhook', 'add', '--school', c.schoolId, '--url', 'http://127.0.0.1:9/hooks'], [
      { waitFor: 'Events, comma-separated', type: 'nope\r' },
      { waitFor: 'each must be one of', type: '\x15' + 'notice.published,student.archived\r' },
    ]);
    expect(code).toBe(0);
    expect(screen).toContain('Signing secret (shown this once)');
    expect((await Webhook.findOne({ where: { school_id: c.schoolId } }))!.events).toEqual(['notice.published', 'student.archived']);
  });

  it('asks before suspending a school and changes nothing when the answer is no', async () => {
    const declined = await runInTerminal(env, ['tenant', 'suspend', '--id', a.schoolId], [{ waitFor: `Suspend ${a.schoolId}`, type: 'n\r' }]);
    expect(declined.code).toBe(1);
    expect(declined.screen).toMatch(/Cancelled: nothing was changed/);
    expect((await School.findByPk(a.schoolId))!.status).toBe('active');

    const confirmed = await runInTerminal(env, ['tenant', 'suspend', '--id', a.schoolId], [{ waitFor: `Suspend ${a.schoolId}`, type: 'y\r' }]);
    expect(confirmed.code).toBe(0);
    expect((await School.findByPk(a.schoolId))!.status).toBe('suspended');
  });

  it('asks which kind of item to remind about, then its id, when remind names none', async () => {
    const { code, screen } = await runInTerminal(env, ['remind', '--school', a.schoolId], [
      { waitFor: 'Remind the unread families of', type: '\x1b[B\r' },
      { waitFor: 'Notice id', type: '999999\r' },
    ]);
    expect(code).toBe(1);
    expect(screen).toContain('Notice not found');
    const plain = await runCli(env, ['remind', '--school', a.schoolId]);
    expect({ code: plain.code, stderr: plain.stderr.trim() }).toEqual({ code: 2, stderr: 'error: Missing --activity or --notice: remind the unread families of' });
  });

  it('neither asks nor confirms with --yes: a missing value fails at once with exit 2', async () => {
    const { code, screen } = await runInTerminal(env, ['tenant', 'resume', '--yes'], []);
    expect(code).toBe(2);
    expect(screen).toContain('Missing --id');
  });
});
