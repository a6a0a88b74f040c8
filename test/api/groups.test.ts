import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Group, GroupMember } from '../../src/models/index.js';
import { consoleApi, expectNotFound, signInConsole } from '../admin/console-client.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { adminUser, bearer, expectError, parent, parentLogin, school, staffLogin, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';

/** Groups of a school's students through the three doors, and the tenant boundary around them. */
let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;
const kids: number[] = [];
let otherKid: number;

beforeAll(async () => {
  t = await startTestApp({ ADMIN_CONSOLE_ENABLED: 'true' });
  a = await school(t);
  b = await school(t);
  for (const roll of ['G-1', 'G-2', 'G-3']) kids.push((await student(a.schoolId, null, { roll_no: roll, name: `Kid ${roll}` })).id);
  otherKid = (await student(b.schoolId, null, { roll_no: 'G-1' })).id;
});
afterAll(async () => t.close());

const web = (token = a.adminToken) => bearer(token);

describe('/web-app/groups', () => {
  let busId: number;

  it('creates a group with members, lists it with its count and shows its members', async () => {
    const res = await t.api.post('/web-app/groups').set(web()).send({ name: 'Bus route 7', description: 'Via Lake Road', student_ids: [kids[0], kids[1]] });
    expect(res.status).toBe(201);
    busId = res.body.data.id;
    const list = await t.api.get('/web-app/groups').set(web());
    expect(list.body.data).toEqual([{ id: busId, name: 'Bus route 7', description: 'Via Lake Road', member_count: 2 }]);
    const one = await t.api.get(`/web-app/groups/${busId}`).set(web());
    expect(one.body.data.members.map((m: { id: number }) => m.id).sort()).toEqual([kids[0], kids[1]].sort());
    expect(one.body.data.members[0]).toEqual({ id: expect.any(Number), student_full_name: expect.any(String), roll_no: expect.any(String), grade: '5' });
  });

  it('keeps names unique regardless of case (409), and refuses another school\'s student (404, nothing created)', async () => {
    expectError(await t.api.post('/web-app/groups').set(web()).send({ name: 'BUS ROUTE 7' }), 409, 'CONFLICT');
    expectError(await t.api.post('/web-app/groups').set(web()).send({ name: 'Chess', student_ids: [kids[0], otherKid] }), 404, 'NOT_FOUND');
    expect(await Group.count({ where: { school_id: a.schoolId, name: 'Chess' } })).toBe(0);
    expectError(await t.api.post('/web-app/groups').set(web()).send({ name: '' }), 400, 'BAD_REQUEST');
    expectError(await t.api.post('/web-app/groups').set(web()).send({ name: 'X', student_ids: ['one'] }), 400, 'BAD_REQUEST');
  });

  it('adds and removes members (already there: no change), renames, and soft-deletes', async () => {
    expect((await t.api.post(`/web-app/groups/${busId}/members`).set(web()).send({ student_ids: [kids[1], kids[2]] })).body.data.member_count).toBe(3);
    expectError(await t.api.post(`/web-app/groups/${busId}/members`).set(web()).send({ student_ids: [otherKid] }), 404, 'NOT_FOUND');
    expect((await t.api.post(`/web-app/groups/${busId}/members/remove`).set(web()).send({ student_ids: [kids[0], 999999] })).body.data.member_count).toBe(2);
    expect((await t.api.put(`/web-app/groups/${busId}`).set(web()).send({ name: 'Bus route 7 (morning)' })).body.data.name).toBe('Bus route 7 (morning)');
    expect((await t.api.delete(`/web-app/groups/${busId}`).set(web())).status).toBe(200);
    expectError(await t.api.get(`/web-app/groups/${busId}`).set(web()), 404, 'NOT_FOUND');
    expect((await t.api.get('/web-app/groups').set(web())).body.data).toEqual([]);
    // The name is free again; the deleted group's members stay recorded.
    expect((await t.api.post('/web-app/groups').set(web()).send({ name: 'Bus route 7 (morning)' })).status).toBe(201);
    expect(await GroupMember.count({ where: { group_id: busId } })).toBe(2);
  });

  it('never shows or changes another school\'s group (404), and is refused to it_contact and parents', async () => {
    const mine = (await t.api.post('/web-app/groups').set(web()).send({ name: 'Football' })).body.data.id;
    expectError(await t.api.get(`/web-app/groups/${mine}`).set(web(b.adminToken)), 404, 'NOT_FOUND');
    expectError(await t.api.put(`/web-app/groups/${mine}`).set(web(b.adminToken)).send({ name: 'Taken' }), 404, 'NOT_FOUND');
    expectError(await t.api.post(`/web-app/groups/${mine}/members`).set(web(b.adminToken)).send({ student_ids: [otherKid] }), 404, 'NOT_FOUND');
    expectError(await t.api.delete(`/web-app/groups/${mine}`).set(web(b.adminToken)), 404, 'NOT_FOUND');
    expect((await t.api.get('/web-app/groups').set(web(b.adminToken))).body.data).toEqual([]);
    const it_contact = await adminUser(t, a.schoolId, 'it_contact');
    expectError(await t.api.get('/web-app/groups').set(web(it_contact.token)), 403, 'FORBIDDEN');
    const p = await parent(t.ctx, a.schoolId);
    expectError(await t.api.get('/teachers-app/groups').set(web(await parentLogin(t, p.phone, p.pin, a.schoolId))), 403, 'FORBIDDEN');
  });

  it('lets staff read the school\'s groups', async () => {
    const s = await staffMember(a.schoolId, { rbac: { activities: 'none' } });
    const res = await t.api.get('/teachers-app/groups').set(web(await staffLogin(t, s.phone, s.pin, a.schoolId)));
    expect(res.status).toBe(200);
    expect(res.body.data.map((g: { name: string }) => g.name)).toEqual(['Bus route 7 (morning)', 'Football']);
  });
});

describe('groups in the console', () => {
  it('creates, edits and deletes a group and its members, for its own school only', async () => {
    const api = consoleApi(await signInConsole(t, a.adminEmail));
    const created = await api.create('student_groups', { name: 'Choir', description: 'Tuesdays' });
    expect(created.body.notice).toMatchObject({ type: 'success' });
    const choir = await Group.findOne({ where: { school_id: a.schoolId, name: 'Choir' }, raw: true });
    const duplicate = await api.create('student_groups', { name: 'choir' });
    expect(JSON.stringify(duplicate.body)).toMatch(/already exists/);
    const member = await api.create('group_members', { group_id: String(choir!.id), student_id: String(kids[2]) });
    expect(member.body.notice).toMatchObject({ type: 'success' });
    const refused = await api.create('group_members', { group_id: String(choir!.id), student_id: String(otherKid) });
    expect(refused.body.notice?.type ?? 'error').toBe('error');
    const rows = await GroupMember.findAll({ where: { school_id: a.schoolId, group_id: choir!.id }, raw: true });
    expect(rows.map((r) => r.student_id)).toEqual([kids[2]]);
    expect((await api.remove('group_members', rows[0]!.id)).body.notice).toMatchObject({ type: 'success' });
    expect(await GroupMember.count({ where: { group_id: choir!.id } })).toBe(0);
    expect((await api.remove('student_groups', choir!.id)).body.notice).toMatchObject({ type: 'success' });
    expect((await Group.findByPk(choir!.id, { raw: true }))!.deleted_key).toBe(choir!.id);
    const other = consoleApi(await signInConsole(t, b.adminEmail));
    const football = await Group.findOne({ where: { school_id: a.schoolId, name: 'Football' }, raw: true });
    expectNotFound(await other.show('student_groups', football!.id));
  });
});

describe('school-platform group add-members', () => {
  it('adds students by roll number, creating the group when new; an unknown roll number changes nothing (exit 1)', async () => {
    const env = cliEnv(t);
    const run = await runCli(env, ['group', 'add-members', '--school', a.schoolId, '--group', 'Robotics', '--roll-nos', 'G-1,G-2', '--json']);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ created: true, added: 2, member_count: 2 });
    const again = await runCli(env, ['group', 'add-members', '--school', a.schoolId, '--group', 'robotics', '--roll-nos', 'G-2,G-3', '--json']);
    expect(again.json).toMatchObject({ created: false, added: 1, member_count: 3 });
    const unknown = await runCli(env, ['group', 'add-members', '--school', a.schoolId, '--group', 'Robotics', '--roll-nos', 'G-1,NOPE']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('NOPE');
    const missing = await runCli(env, ['group', 'add-members', '--school', a.schoolId, '--group', 'Robotics']);
    expect(missing.code).toBe(2);
    expect(await Group.count({ where: { school_id: a.schoolId, name: 'Robotics' } })).toBe(1);
  });
});
