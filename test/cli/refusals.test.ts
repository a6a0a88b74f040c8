import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Group, Student } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { bearer, parent, school, student, type SchoolFixture } from '../helpers/fixtures.js';

/** What an IT contact gets wrong most often: a path to write to, a school id, an address. One line naming the mistake, never a stack. */
let t: TestApp;
let env: NodeJS.ProcessEnv;
let a: SchoolFixture;
const dir = mkdtempSync(path.join(tmpdir(), 'sp-cli-refusals-'));

beforeAll(async () => {
  t = await startTestApp();
  env = cliEnv(t);
  a = await school(t);
});
afterAll(async () => t.close());

const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at |node:events|Unhandled 'error' event/);

describe('an --out that cannot be written', () => {
  const missing = path.join(dir, 'no-such-folder', 'out.txt');

  it('is a bad flag (exit 2) naming the path and the reason, for audit export, form results and data export alike', async () => {
    const p = await parent(t.ctx, a.schoolId, { father_name: 'Ravi Rao' });
    const kid = await student(a.schoolId, p.id);
    const notice = await t.api.post('/web-app/noticeboard').set(bearer(a.adminToken)).send({
      notice_title: 'Sports day helpers', form: { questions: [{ id: 'help', type: 'consent', label: 'I can help' }], per_student: false },
    });
    expect(notice.status).toBe(201);
    for (const command of [
      ['audit', 'export', '--school', a.schoolId],
      ['form', 'results', '--school', a.schoolId, '--form', String(notice.body.data.form.id)],
      ['data', 'export', '--school', a.schoolId, '--student-id', String(kid.id)],
    ]) {
      for (const [out, reason] of [[missing, 'ENOENT'], [dir, 'EISDIR']] as const) {
        const run = await runCli(env, [...command, '--out', out]);
        noStack(run.stderr);
        expect([command.join(' '), run.code, run.stderr.trim()]).toEqual([command.join(' '), 2, `error: Invalid --out: cannot write ${out} (${reason})`]);
      }
    }
    const json = await runCli(env, ['audit', 'export', '--school', a.schoolId, '--out', missing, '--json']);
    expect(json.code).toBe(2);
    expect(json.json).toEqual({ error: { code: 'USAGE', message: `Invalid --out: cannot write ${missing} (ENOENT)` } });
    expect(existsSync(path.dirname(missing))).toBe(false);
  });
});

describe('a school that does not exist', () => {
  const nowhere = 'no-such-school';

  it('is refused by name (exit 1) by import, group add-members, remind and the data commands, and nothing is written', async () => {
    const headerOnly = path.join(dir, 'header-only.csv');
    writeFileSync(headerOnly, 'roll_no,student_full_name,grade\n');
    const oneRow = path.join(dir, 'one-row.csv');
    writeFileSync(oneRow, 'roll_no,student_full_name,grade\nX1,Ghost Kid,5\n');
    for (const args of [
      ['import', 'students', '--school', nowhere, '--file', headerOnly],
      ['import', 'students', '--school', nowhere, '--file', oneRow],
      ['group', 'add-members', '--school', nowhere, '--group', 'Bus 4', '--roll-nos', 'R1'],
      ['remind', '--school', nowhere, '--activity', '1'],
      ['data', 'export', '--school', nowhere, '--student-id', '1'],
      ['data', 'erase', '--school', nowhere, '--student-id', '1', '--confirm', 'R1'],
    ]) {
      const run = await runCli(env, args);
      expect([args.join(' '), run.code, run.stderr.trim()]).toEqual([args.join(' '), 1, `error: School ${nowhere} not found`]);
    }
    expect(await Student.count({ where: { school_id: nowhere } })).toBe(0);
    expect(await Group.count({ where: { school_id: nowhere } })).toBe(0);
  });
});

describe('--json and a command line commander refuses', () => {
  it('prints the usage error as JSON on stdout too: an unknown option, a value not among the choices', async () => {
    const unknown = await runCli(env, ['tenant', 'list', '--colour', 'red', '--json']);
    expect(unknown.code).toBe(2);
    expect(unknown.json).toEqual({ error: { code: 'USAGE', message: "unknown option '--colour'" } });
    const choice = await runCli(env, ['admin', 'create', '--role', 'boss', '--json']);
    expect(choice.code).toBe(2);
    expect(choice.json).toEqual({ error: { code: 'USAGE', message: expect.stringContaining("argument 'boss' is invalid") } });
  });
});
