import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import type { Model, ModelStatic } from 'sequelize';
import { consoleResources } from '../../src/admin/resources/index.js';
import type { ScopedResource } from '../../src/admin/scoped-resource.js';
import {
  Activity, Attendance, Comment, DiaryEntry, Form, FormResponse, Group, GroupMember, Notice, Notification, Reaction, Webhook, WebhookDelivery, WriteToReply,
  WriteToRequest,
} from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { freshDatabase, mysqlUrl, type TestDatabase } from '../helpers/database.js';
import { parent, school, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';
import { startServer, type ServerProcess } from '../helpers/server-process.js';
import { signInConsole, type Agent } from './console-client.js';
import { fetchChecked } from '../helpers/openapi-check.js';

/**
 * Every console resource and every action it offers, read from the console's own resource list (so
 * a resource or action added later is attacked too): school B's super_admin, given school A's record
 * ids, never gets a byte of A's data back and never changes, creates or deletes one of A's rows.
 * School A's id is its marker: each of its rows carries it, and no answer to B may contain it.
 */
const MARKER = 'alphamark';
const defaultActions: Record<string, 'resource' | 'record' | 'bulk'> = {
  list: 'resource', search: 'resource', new: 'resource', show: 'record', edit: 'record', delete: 'record', bulkDelete: 'bulk',
};

interface Target { resource: string; model: ModelStatic<Model>; schoolColumn: string; id: string; actions: Record<string, string> }

let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;
let agent: Agent;
const targets: Target[] = [];

async function schoolARows(): Promise<string> {
  const rows: Record<string, unknown> = {};
  for (const target of targets) rows[target.resource] = await target.model.findAll({ where: { [target.schoolColumn]: MARKER }, order: [['id', 'ASC']], raw: true });
  return JSON.stringify(rows);
}

beforeAll(async () => {
  t = await startTestApp({ ADMIN_CONSOLE_ENABLED: 'true' });
  a = await school(t, MARKER);
  b = await school(t, 'bravo-school');

  // One row of school A for every resource (the school, its grades, designations, admin and session come with it).
  const pa = await parent(t.ctx, a.schoolId, { father_name: 'Alphamark Father' });
  const sa = await student(a.schoolId, pa.id, { name: 'Alphamark Student' });
  const sta = await staffMember(a.schoolId, { name: 'Alphamark Teacher' });
  await Notice.create({ school_id: a.schoolId, notice_title: 'Alphamark notice' });
  const activity = await Activity.create({ school_id: a.schoolId, title: 'Alphamark activity', staff_id: sta.id, status: 'published' });
  const form = await Form.create({ school_id: a.schoolId, entity_type: 'activity', entity_id: activity.id, questions: [{ id: 'q', type: 'text', label: 'Alphamark question', required: false }], counts: {} });
  await Activity.update({ form_id: form.id }, { where: { id: activity.id } });
  await FormResponse.create({ school_id: a.schoolId, form_id: form.id, parent_id: pa.id, student_id: sa.id, respondent: `student:${sa.id}`, answers: { q: 'Alphamark answer' }, submitted_at: new Date() });
  const thread = await WriteToRequest.create({ school_id: a.schoolId, parent_id: pa.id, student_id: sa.id, type: 'query', subject: 'Alphamark question', message: 'Alphamark' });
  await WriteToReply.create({ school_id: a.schoolId, write_to_id: thread.id, author_type: 'parent', author_id: pa.id, author_name: 'Alphamark Father', message: 'Alphamark reply' });
  await Comment.create({ school_id: a.schoolId, entity_type: 'activity', entity_id: activity.id, parent_id: pa.id, content: 'Alphamark comment' });
  await Reaction.create({ school_id: a.schoolId, entity_type: 'activity', entity_id: activity.id, parent_id: pa.id, reaction_type: 'like' });
  await DiaryEntry.create({ school_id: a.schoolId, staff_id: sta.id, grade: '5', title: 'Alphamark homework' });
  await Attendance.create({ school_id: a.schoolId, student_id: sa.id, date: '2026-01-05', status: 'present' });
  await Notification.create({ school_id: a.schoolId, event: 'test_push', target_type: 'token', address: 'device-token-a', title: 'Alphamark push', body: 'x', status: 'failed' });
  const group = await Group.create({ school_id: a.schoolId, name: 'Alphamark group' });
  await GroupMember.create({ school_id: a.schoolId, group_id: group.id, student_id: sa.id });
  const webhook = await Webhook.create({ school_id: a.schoolId, url: 'https://alphamark.example/hooks', events: ['*'], secret: 'alphamark-secret' });
  await WebhookDelivery.create({ school_id: a.schoolId, webhook_id: webhook.id, event_id: '00000000-0000-4000-8000-00000000000a', event: 'notice.published', payload: '{"alphamark":1}' });

  for (const { resource, options } of consoleResources(t.ctx)) {
    const scoped = resource as ScopedResource;
    const schoolColumn = scoped.spec.schoolColumn;
    const row = (await scoped.model.findOne({ where: { [schoolColumn]: MARKER }, raw: true })) as unknown as { id: number | string } | null;
    // A resource added without a row of school A here would be attacked with nothing: fail instead.
    expect({ resource: scoped.id(), seeded: !!row }).toEqual({ resource: scoped.id(), seeded: true });
    const custom = Object.fromEntries(Object.entries(options?.actions ?? {}).filter(([name]) => !(name in defaultActions)).map(([name, action]) => [name, action?.actionType ?? 'record']));
    targets.push({ resource: scoped.id(), model: scoped.model, schoolColumn, id: String(row!.id), actions: { ...defaultActions, ...custom } });
  }
  agent = await signInConsole(t, b.adminEmail);
}, 180_000);
afterAll(async () => t?.close());

/** What one action, aimed at school A's record, can be asked: its GET (page data) and its POST (the change). */
function attacks(target: Target, action: string, type: string) {
  const base = `/admin/api/resources/${target.resource}`;
  const form = { school_id: MARKER, name: 'Taken over', title: 'Taken over', notice_title: 'Taken over', student_full_name: 'Taken over', status: 'archived' };
  if (action === 'list') {
    return [
      () => agent.get(`${base}/actions/list`).query({ perPage: 500 }),
      () => agent.get(`${base}/actions/list`).query({ 'filters.id': target.id }),
      () => agent.get(`${base}/actions/list`).query({ [`filters.${target.schoolColumn}`]: MARKER }),
    ];
  }
  if (action === 'search') return [() => agent.get(`${base}/actions/search/Alphamark`), () => agent.get(`${base}/actions/search/${target.id}`)];
  if (type === 'resource') return [() => agent.get(`${base}/actions/${action}`), () => agent.post(`${base}/actions/${action}`).type('form').send(form)];
  if (type === 'bulk') {
    return [() => agent.get(`${base}/bulk/${action}`).query({ recordIds: target.id }), () => agent.post(`${base}/bulk/${action}`).query({ recordIds: target.id })];
  }
  return [() => agent.get(`${base}/records/${target.id}/${action}`), () => agent.post(`${base}/records/${target.id}/${action}`).type('form').send(form)];
}

describe("school B's super_admin against school A's record ids, for every console resource and action", () => {
  it('covers every registered resource, each with its record actions, with ids that school A itself can open', async () => {
    expect(targets.length).toBeGreaterThanOrEqual(17);
    expect(targets.find((x) => x.resource === 'staff')!.actions).toMatchObject({ archive: 'record', resetPin: 'record' });
    // The control: the very requests that must find nothing for B show A's own admin the record.
    const own = await signInConsole(t, a.adminEmail);
    for (const target of targets.filter((x) => x.resource !== 'schools')) {
      const res = await own.get(`/admin/api/resources/${target.resource}/records/${target.id}/show`);
      expect({ resource: target.resource, id: String(res.body.record?.id) }).toEqual({ resource: target.resource, id: target.id });
    }
  });

  it('never answers with school A data, never with a 5xx, and leaves every row of school A as it was', async () => {
    const before = await schoolARows();
    const leaks: string[] = [];
    let requests = 0;
    for (const target of targets) {
      for (const [action, type] of Object.entries(target.actions)) {
        for (const attack of attacks(target, action, type)) {
          const res = await attack();
          requests++;
          // The not-found notice repeats the id asked for, which for the schools resource is the marker itself.
          const text = (res.text ?? '').replace(/given id: \\"[^"\\]*\\"/g, '');
          if (res.status >= 500 || text.toLowerCase().includes(MARKER)) leaks.push(`${target.resource}.${action} ${res.status}: ${text.slice(0, 300)}`);
        }
      }
    }
    expect(leaks).toEqual([]);
    expect(requests).toBeGreaterThan(100);
    expect(await schoolARows()).toBe(before);
  });
});

if (mysqlUrl()) {
  describe('two server processes on one MariaDB database', () => {
    let database: TestDatabase;
    let one: ServerProcess;
    let two: ServerProcess;
    beforeAll(async () => {
      database = await freshDatabase();
      const env = { DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl, ADMIN_CONSOLE_ENABLED: 'true' };
      [one, two] = await Promise.all([startServer(env, { startTimeoutMs: 120_000 }), startServer(env, { startTimeoutMs: 120_000 })]);
      const signup = await fetchChecked(`${one.url}/web-app/signup`, {
        method: 'POST', headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Head', email: 'head@console-two.example', password: 'a long password', school_id: 'console-two' }),
      });
      expect(signup.status).toBe(201);
    }, 180_000);
    afterAll(async () => {
      await Promise.all([one?.stop(), two?.stop()]);
      await database?.drop();
    });

    const studentsList = (server: ServerProcess, cookie: string) =>
      fetchChecked(`${server.url}/admin/api/resources/students/actions/list`, { headers: { cookie }, redirect: 'manual' });

    it('keep a console sign-in made on one valid on the other, and its sign-out ends it on both', async () => {
      const login = await fetchChecked(`${one.url}/admin/login`, {
        method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: 'head@console-two.example', password: 'a long password' }),
      });
      expect({ status: login.status, location: login.headers.get('location') }).toEqual({ status: 302, location: '/admin' });
      const cookie = login.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');

      const onTwo = await studentsList(two, cookie);
      expect(onTwo.status).toBe(200);
      expect(((await onTwo.json()) as { records: unknown[] }).records).toEqual([]);
      expect((await studentsList(one, cookie)).status).toBe(200);

      await fetchChecked(`${two.url}/admin/logout`, { headers: { cookie }, redirect: 'manual' });
      for (const server of [one, two]) {
        const after = await studentsList(server, cookie);
        expect({ status: after.status, location: after.headers.get('location') }).toEqual({ status: 302, location: '/admin/login' });
      }
    });
  });
}
