import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Staff, Student } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { school, type SchoolFixture } from '../helpers/fixtures.js';
import { csv, oneRosterSet, staffHeader, studentHeader } from '../helpers/roster.js';
import { mkdirSync } from 'node:fs';

let t: TestApp;
let a: SchoolFixture;
let env: NodeJS.ProcessEnv;
const dir = mkdtempSync(path.join(tmpdir(), 'sp-import-'));
const file = (name: string, text: string) => {
  const p = path.join(dir, name);
  writeFileSync(p, text);
  return p;
};

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  env = cliEnv(t);
});
afterAll(async () => t.close());

describe('school-platform import', () => {
  const students = () =>
    file('students.csv', csv(studentHeader, [
      ['CLI-1', 'Asha Rao', 'female', '5', '2016-04-12', null, '9876511111', 'Ravi Rao', null, null, '12 Lake Rd', 'Pune', 411001, null],
      ['CLI-2', 'Kiran Rao', 'male', '6', null, null, '9876511111', null, null, null, null, null, null, null],
    ]));

  it('imports a students file with a summary, then finds nothing to change the second time', async () => {
    const path = students();
    const run = await runCli(env, ['import', 'students', '--school', a.schoolId, '--file', path, '--json']);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ kind: 'students', created: 2, guardians_created: 1, applied: true, errors: [] });
    expect(await Student.count({ where: { school_id: a.schoolId } })).toBe(2);
    const again = await runCli(env, ['import', 'students', '--school', a.schoolId, '--file', path]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/Imported\. students into/);
    expect(again.stdout).toMatch(/rows\s+created\s+updated\s+unchanged/);
    expect(again.stdout).toMatch(/\n2\s+0\s+0\s+2\s+0\s+0/);
  });

  it('names the groups a dry run would create and an import created', async () => {
    const path = file('grouped.csv', csv(studentHeader, [['CLI-G1', 'Lila Rao', 'female', '5', null, null, null, null, null, null, null, null, null, 'Robotics; Art']]));
    const dry = await runCli(env, ['import', 'students', '--school', a.schoolId, '--file', path, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/groups_created/);
    expect(dry.stdout).toContain('Groups to create: Art, Robotics');
    const run = await runCli(env, ['import', 'students', '--school', a.schoolId, '--file', path, '--json']);
    expect(run.json).toMatchObject({ groups_created: 2, new_groups: ['Art', 'Robotics'] });
  });

  it('imports staff with their assignments, and a dry run writes nothing', async () => {
    const path = file('staff.csv', csv(staffHeader, [['Maya Iyer', 'Class Teacher', '9000061111', null, 'CLI-1;CLI-2']]));
    const dry = await runCli(env, ['import', 'staff', '--school', a.schoolId, '--file', path, '--dry-run', '--json']);
    expect(dry.json).toMatchObject({ dry_run: true, created: 1 });
    expect(await Staff.count({ where: { school_id: a.schoolId, phone_no: '9000061111' } })).toBe(0);
    const run = await runCli(env, ['import', 'staff', '--school', a.schoolId, '--file', path, '--json']);
    expect(run.json).toMatchObject({ created: 1 });
    expect(await Staff.count({ where: { school_id: a.schoolId, phone_no: '9000061111' } })).toBe(1);
  });

  it('imports a OneRoster set from a folder', async () => {
    const folder = path.join(dir, 'oneroster');
    mkdirSync(folder);
    for (const [name, text] of Object.entries(oneRosterSet('1.2', 'CLI-'))) writeFileSync(path.join(folder, name), text);
    const run = await runCli(env, ['import', 'oneroster', '--school', a.schoolId, '--file', folder, '--json']);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ kind: 'oneroster', created: 5, errors: [] });
    expect(await Student.count({ where: { school_id: a.schoolId, roll_no: ['CLI-OR-1', 'CLI-OR-2', 'CLI-OR-3'] } })).toBe(3);
  });

  it('exits 1 listing every invalid row when the file is refused, and 2 for a missing or absent file', async () => {
    const bad = file('bad.csv', csv(studentHeader, [['CLI-9', 'Bad', null, 'Grade 99', null, null, null, null, null, null, null, null, null, null]]));
    const run = await runCli(env, ['import', 'students', '--school', a.schoolId, '--file', bad]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/Nothing was imported/);
    expect(run.stdout).toMatch(/2\s+grade\s+"Grade 99" is not one of the school's grades/);
    expect(await Student.count({ where: { school_id: a.schoolId, roll_no: 'CLI-9' } })).toBe(0);
    const missing = await runCli(env, ['import', 'students', '--school', a.schoolId]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--file');
    const absent = await runCli(env, ['import', 'students', '--school', a.schoolId, '--file', path.join(dir, 'nope.csv')]);
    expect(absent.code).toBe(2);
  });
});
