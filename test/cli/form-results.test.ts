import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Notification } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { bearer, parent, school, student, type SchoolFixture } from '../helpers/fixtures.js';

/** `school-platform form results` writes what the web route answers; `remind` on an item with a form reaches the families still missing. */
let t: TestApp;
let env: NodeJS.ProcessEnv;
let a: SchoolFixture;
let b: SchoolFixture;
let formId: number;
let noticeId: number;
const families: Array<{ id: number; token: string }> = [];
const dir = mkdtempSync(path.join(tmpdir(), 'sp-form-results-'));

beforeAll(async () => {
  t = await startTestApp();
  env = cliEnv(t);
  a = await school(t);
  b = await school(t);
  const notice = await t.api.post('/web-app/noticeboard').set(bearer(a.adminToken)).send({
    notice_title: 'Sports day helpers',
    form: { questions: [{ id: 'help', type: 'choice', label: 'I can help', options: [{ id: 'yes', label: 'Yes', capacity: 10 }, { id: 'no', label: 'No' }] }, { id: 'note', type: 'text', label: 'Note' }], per_student: false },
  });
  noticeId = notice.body.data.id;
  formId = notice.body.data.form.id;
  for (const name of ['Asha Rao', 'Bilal Khan']) {
    const p = await parent(t.ctx, a.schoolId, { father_name: name });
    await student(a.schoolId, p.id);
    const login = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: p.phone, pin: p.pin, school_id: a.schoolId, fcm_token: `device-${name}` });
    families.push({ id: p.id, token: login.body.data.access_token });
  }
  await t.api.post(`/parent-app/forms/${formId}/responses`).set(bearer(families[0]!.token)).send({ answers: { help: 'yes', note: '+1 from me' } });
});
afterAll(async () => t.close());

describe('form results', () => {
  it('prints the results JSON as GET /web-app/forms/:id/results answers it', async () => {
    const run = await runCli(env, ['form', 'results', '--school', a.schoolId, '--form', String(formId), '--json']);
    expect(run.code).toBe(0);
    const web = (await t.api.get(`/web-app/forms/${formId}/results`).set(bearer(a.adminToken))).body.data;
    expect(run.json).toEqual(web);
    expect(run.json.summary).toEqual({ help: { yes: 1, no: 0 }, note: { answered: 1 } });
    expect(run.json.missing.map((m: { father_name: string }) => m.father_name)).toEqual(['Bilal Khan']);
  });

  it('writes the CSV to --out, as the web route does', async () => {
    const out = path.join(dir, 'results.csv');
    const run = await runCli(env, ['form', 'results', '--school', a.schoolId, '--form', String(formId), '--format', 'csv', '--out', out]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(out);
    const file = readFileSync(out, 'utf8');
    const web = await t.api.get(`/web-app/forms/${formId}/results.csv`).set(bearer(a.adminToken));
    expect(file).toBe(web.text);
    expect(parse(file.replace(/^\uFEFF/, ''))).toEqual([
      ['student', 'grade', 'parent', 'submitted_at', 'I can help', 'Note', 'signature'],
      ['', '', 'Asha Rao', expect.any(String), 'Yes', "'+1 from me", ''],
    ]);
  });

  it('exits 1 for a form of another school or an unknown school, and 2 for a bad flag', async () => {
    const foreign = await runCli(env, ['form', 'results', '--school', b.schoolId, '--form', String(formId)]);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toMatch(/Form not found/);
    expect((await runCli(env, ['form', 'results', '--school', 'no-such-school', '--form', String(formId)])).code).toBe(1);
    const format = await runCli(env, ['form', 'results', '--school', a.schoolId, '--form', String(formId), '--format', 'xlsx']);
    expect(format.code).toBe(2);
    expect(format.stderr).toMatch(/--format/);
    expect((await runCli(env, ['form', 'results', '--school', a.schoolId])).code).toBe(2);
  });
});

describe('remind on an item with a form', () => {
  it('reaches only the families still missing a response, whether they read it or not', async () => {
    await t.api.post('/parent-app/engagement/read').set(bearer(families[1]!.token)).send({ entity_type: 'noticeboard', entity_id: noticeId });
    const run = await runCli(env, ['remind', '--school', a.schoolId, '--notice', String(noticeId), '--json']);
    expect(run.code).toBe(0);
    const reminders = await Notification.findAll({ where: { school_id: a.schoolId, event: 'reminder', entity_id: noticeId }, raw: true });
    expect([...new Set(reminders.map((n) => n.target_id))]).toEqual([families[1]!.id]);
    expect(run.json.queued).toBe(reminders.length);
  });
});
