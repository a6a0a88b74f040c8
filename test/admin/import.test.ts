import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Staff, Student } from '../../src/models/index.js';
import { importTemplates } from '../../src/services/imports/templates.js';
import { readFileSync } from 'node:fs';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { adminUser, school, type SchoolFixture } from '../helpers/fixtures.js';
import { csv, staffHeader, studentHeader } from '../helpers/roster.js';
import { signInConsole, type Agent } from './console-client.js';

/** The console's Import action on the Students and Staff lists: upload, dry-run report, then apply; and the templates. */
let t: TestApp;
let a: SchoolFixture;
let agent: Agent;

beforeAll(async () => {
  t = await startTestApp({ ADMIN_CONSOLE_ENABLED: 'true' });
  a = await school(t);
  agent = await signInConsole(t, a.adminEmail);
});
afterAll(async () => t.close());

const upload = (as: Agent, resource: string, file: string, fields: Record<string, string>) => {
  let req = as.post(`/admin/api/resources/${resource}/actions/import`).attach('file', Buffer.from(file), `${resource}.csv`);
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  return req;
};

describe('the console Import action', () => {
  const file = csv(studentHeader, [
    ['CON-1', 'Asha Rao', null, '5', null, null, '9876522221', 'Ravi Rao', null, null, null, null, null, null],
    ['CON-2', 'Kiran Rao', null, '6', null, null, '9876522221', null, null, null, null, null, null, null],
  ]);

  it('shows the dry run report of an uploaded students file in words of what would happen, then applies it in words of what happened', async () => {
    const dry = await upload(agent, 'students', file, { kind: 'students', dry_run: 'true' });
    expect(dry.status).toBe(200);
    expect(dry.body.report).toMatchObject({ dry_run: true, created: 2, guardians_created: 1, errors: [] });
    expect(dry.body.notice).toMatchObject({ type: 'success' });
    expect(dry.body.words).toMatchObject({ heading: 'Checked 2 rows; nothing is written until you import', counts: '2 to create, 0 to update, 0 unchanged, 1 new guardian' });
    expect(await Student.count({ where: { school_id: a.schoolId } })).toBe(0);
    const applied = await upload(agent, 'students', file, { kind: 'students', dry_run: 'false' });
    expect(applied.body.report).toMatchObject({ applied: true, created: 2 });
    expect(applied.body.words).toMatchObject({ heading: 'Imported', counts: '2 created, 0 updated, 0 unchanged, 1 new guardian' });
    expect(await Student.count({ where: { school_id: a.schoolId } })).toBe(2);
  });

  it('reports invalid rows and writes nothing; imports staff from the Staff list', async () => {
    const bad = await upload(agent, 'students', csv(studentHeader, [['CON-9', 'Bad', null, 'Nope', null, null, null, null, null, null, null, null, null, null]]), { kind: 'students', dry_run: 'false' });
    expect(bad.body.report).toMatchObject({ applied: false, errors: [{ line: 2, field: 'grade' }] });
    expect(bad.body.notice).toMatchObject({ type: 'error' });
    const staff = await upload(agent, 'staff', csv(staffHeader, [['Maya Iyer', 'Class Teacher', '9000072221', null, 'CON-1']]), { kind: 'staff', dry_run: 'false' });
    expect(staff.body.report).toMatchObject({ kind: 'staff', created: 1 });
    expect(await Staff.count({ where: { school_id: a.schoolId, phone_no: '9000072221' } })).toBe(1);
    const wrongKind = await upload(agent, 'staff', file, { kind: 'students', dry_run: 'true' });
    expect(wrongKind.body.notice).toMatchObject({ type: 'error' });
  });

  it('is not offered to it_contact, and asks for a file', async () => {
    const it = await adminUser(t, a.schoolId, 'it_contact');
    const itAgent = await signInConsole(t, it.email);
    const refused = await upload(itAgent, 'students', file, { kind: 'students', dry_run: 'false' });
    expect(refused.body.report).toBeUndefined();
    expect(await Student.count({ where: { school_id: a.schoolId } })).toBe(2);
    const none = await agent.post('/admin/api/resources/students/actions/import').field('kind', 'students').field('dry_run', 'true');
    expect(none.body.notice).toMatchObject({ type: 'error', message: expect.stringMatching(/Choose a file/) });
  });

  it('offers the templates, the same as docs/templates', async () => {
    for (const kind of ['students', 'staff'] as const) {
      const res = await agent.get(`/admin/import-templates/${kind}.csv`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/csv/);
      expect(res.text).toBe(importTemplates[kind]);
      expect(readFileSync(new URL(`../../docs/templates/${kind}.csv`, import.meta.url), 'utf8')).toBe(importTemplates[kind]);
    }
    expect((await agent.get('/admin/import-templates/secrets.csv')).status).not.toBe(200);
  });

  it('imports each template as it is', async () => {
    const students = await upload(agent, 'students', importTemplates.students, { kind: 'students', dry_run: 'false' });
    expect(students.body.report).toMatchObject({ errors: [], created: 2, guardians_created: 1 });
    const staff = await upload(agent, 'staff', importTemplates.staff, { kind: 'staff', dry_run: 'false' });
    expect(staff.body.report).toMatchObject({ errors: [], created: 2 });
  });
});
