import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { Op } from 'sequelize';
import {
  Activity, AdminUser, Comment, Grade, Notice, Notification, Parent, Reaction, Session, Staff, StaffStudent, Student, WriteToReply, WriteToRequest,
} from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { mysqlUrl, withDatabase } from '../helpers/database.js';
import { bearer, parent, parentLogin, school, staffLogin, staffMember, type SchoolFixture } from '../helpers/fixtures.js';

let t: TestApp;
let env: NodeJS.ProcessEnv;
let a: SchoolFixture;
let b: SchoolFixture;

beforeAll(async () => {
  t = await startTestApp();
  env = cliEnv(t);
  a = await school(t);
  b = await school(t);
});
afterAll(async () => t.close());

/** 200 while the session lives, 401 once it has ended. */
const parentStatus = async (token: string) => (await t.api.get('/parent-app/sessions').set(bearer(token))).status;
const staffStatus = async (token: string) => (await t.api.get('/teachers-app/sessions').set(bearer(token))).status;

describe('pin reset', () => {
  it('sets a parent\'s PIN, ending their sessions: the new PIN signs in, the old one no longer does', async () => {
    const family = await parent(t.ctx, a.schoolId, { pin: '1111' });
    const token = await parentLogin(t, family.phone, '1111', a.schoolId);
    const run = await runCli(env, ['pin', 'reset', '--school', a.schoolId, '--type', 'parent', '--phone', family.phone, '--pin', '5678', '--json']);
    expect(run.code).toBe(0);
    expect(run.json).toEqual({ school_id: a.schoolId, type: 'parent', id: family.id, phone_no: family.phone });
    expect(await parentStatus(token)).toBe(401);
    expect((await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: family.phone, pin: '1111', school_id: a.schoolId })).status).toBe(401);
    await parentLogin(t, family.phone, '5678', a.schoolId);
  });

  it('generates a six-digit PIN for a staff member when none is given and prints it once', async () => {
    const teacher = await staffMember(a.schoolId, { pin: '2222' });
    const token = await staffLogin(t, teacher.phone, '2222', a.schoolId);
    const run = await runCli(env, ['pin', 'reset', '--school', a.schoolId, '--type', 'staff', '--phone', teacher.phone, '--json']);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ type: 'staff', id: teacher.id, pin: expect.stringMatching(/^\d{6}$/) });
    expect(await staffStatus(token)).toBe(401);
    await staffLogin(t, teacher.phone, run.json.pin, a.schoolId);
  });

  it('answers a phone unknown in that school with exit 1, and a malformed PIN or type with exit 2', async () => {
    const elsewhere = await parent(t.ctx, b.schoolId);
    const unknown = await runCli(env, ['pin', 'reset', '--school', a.schoolId, '--type', 'parent', '--phone', elsewhere.phone, '--pin', '4444']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/Parent not found/);
    await parentLogin(t, elsewhere.phone, elsewhere.pin, b.schoolId);
    const badPin = await runCli(env, ['pin', 'reset', '--school', a.schoolId, '--type', 'parent', '--phone', elsewhere.phone, '--pin', '12']);
    expect(badPin.code).toBe(2);
    expect(badPin.stderr).toContain('--pin');
    const badType = await runCli(env, ['pin', 'reset', '--school', a.schoolId, '--type', 'teacher', '--phone', elsewhere.phone]);
    expect(badType.code).toBe(2);
    expect(badType.stderr).toContain('--type');
  });
});

describe('sessions revoke and purge', () => {
  it('ends every session of one account and no one else\'s', async () => {
    const teacher = await staffMember(a.schoolId);
    const phone1 = await staffLogin(t, teacher.phone, teacher.pin, a.schoolId);
    const phone2 = await staffLogin(t, teacher.phone, teacher.pin, a.schoolId);
    const colleague = await staffMember(a.schoolId);
    const other = await staffLogin(t, colleague.phone, colleague.pin, a.schoolId);
    const run = await runCli(env, ['sessions', 'revoke', '--school', a.schoolId, '--type', 'staff', '--user-id', String(teacher.id), '--json']);
    expect(run.code).toBe(0);
    expect(run.json).toEqual({ school_id: a.schoolId, type: 'staff', user_id: teacher.id, ended: 2 });
    expect(await staffStatus(phone1)).toBe(401);
    expect(await staffStatus(phone2)).toBe(401);
    expect(await staffStatus(other)).toBe(200);
  });

  it('ends every session of a school with --all, leaving other schools signed in', async () => {
    const family = await parent(t.ctx, a.schoolId);
    const inA = await parentLogin(t, family.phone, family.pin, a.schoolId);
    const neighbour = await parent(t.ctx, b.schoolId);
    const inB = await parentLogin(t, neighbour.phone, neighbour.pin, b.schoolId);
    const run = await runCli(env, ['sessions', 'revoke', '--school', a.schoolId, '--all', '--yes', '--json']);
    expect(run.code).toBe(0);
    expect(run.json.ended).toBeGreaterThanOrEqual(1);
    expect(await Session.count({ where: { school_id: a.schoolId, active: true } })).toBe(0);
    expect(await parentStatus(inA)).toBe(401);
    expect(await parentStatus(inB)).toBe(200);
  });

  it('refuses --all with --type, a missing --type (2) and an account of another school (1)', async () => {
    const both = await runCli(env, ['sessions', 'revoke', '--school', a.schoolId, '--all', '--type', 'parent']);
    expect(both.code).toBe(2);
    const missing = await runCli(env, ['sessions', 'revoke', '--school', a.schoolId, '--user-id', '1']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--type');
    const neighbour = await parent(t.ctx, b.schoolId);
    const foreign = await runCli(env, ['sessions', 'revoke', '--school', a.schoolId, '--type', 'parent', '--user-id', String(neighbour.id)]);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toMatch(/not found/);
  });

  it('purges sessions dead for longer than the cut-off and keeps the others', async () => {
    const family = await parent(t.ctx, b.schoolId);
    const live = await parentLogin(t, family.phone, family.pin, b.schoolId);
    const old = new Date(Date.now() - 40 * 86_400_000);
    const dead = await Session.bulkCreate(['old-1', 'old-2'].map((hash) => ({
      school_id: b.schoolId, token_hash: hash, user_type: 'parent' as const, user_id: family.id,
      created_at: old, last_seen_at: old, expires_at: new Date(old.getTime() + 86_400_000), active: false, revoked_at: old,
    })));
    const run = await runCli(env, ['sessions', 'purge', '--older-than-days', '30', '--yes', '--json']);
    expect(run.code).toBe(0);
    expect(run.json).toEqual({ deleted: 2, older_than_days: 30 });
    expect(await Session.count({ where: { id: dead.map((s) => s.id) } })).toBe(0);
    expect(await parentStatus(live)).toBe(200);
    const bad = await runCli(env, ['sessions', 'purge', '--older-than-days', 'soon', '--yes']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--older-than-days');
  });
});

describe('push test', () => {
  it('sends at once to every signed-in device of a parent and records each delivery', async () => {
    const family = await parent(t.ctx, b.schoolId);
    const login = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: family.phone, pin: family.pin, school_id: b.schoolId, fcm_token: 'device-token-1' });
    expect(login.status).toBe(200);
    const run = await runCli(env, ['push', 'test', '--school', b.schoolId, '--parent-id', String(family.id), '--title', 'Hello', '--json']);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ sent: 1, failed: 0, results: [{ target: expect.stringContaining(`parent:${family.id}`), ok: true }] });
    const record = await Notification.findOne({ where: { school_id: b.schoolId, event: 'test_push', target_type: 'parent', target_id: family.id } });
    expect(record).toMatchObject({ status: 'sent', title: 'Hello' });
  });

  it('sends to a raw device token', async () => {
    const run = await runCli(env, ['push', 'test', '--school', b.schoolId, '--token', 'raw-device-token', '--json']);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ sent: 1, results: [{ target: 'token', ok: true }] });
  });

  it('needs exactly one target (2) of the named school (1)', async () => {
    const none = await runCli(env, ['push', 'test', '--school', b.schoolId]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--token, --parent-id or --staff-id');
    const two = await runCli(env, ['push', 'test', '--school', b.schoolId, '--token', 'x', '--staff-id', '1']);
    expect(two.code).toBe(2);
    const foreign = await parent(t.ctx, a.schoolId);
    const elsewhere = await runCli(env, ['push', 'test', '--school', b.schoolId, '--parent-id', String(foreign.id)]);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toMatch(/not found/);
  });
});

describe('db seed', () => {
  const counted = { Staff, Student, Parent, AdminUser, StaffStudent, Activity, Notice, WriteToRequest, WriteToReply, Comment, Reaction, Grade };
  const counts = async (schoolId: string) =>
    Object.fromEntries(await Promise.all(Object.entries(counted).map(async ([n, m]) => [n, await (m as typeof Staff).count({ where: { school_id: schoolId } })])));

  it('seeds the demo data once: a second run changes nothing, and the printed sign-ins work', async () => {
    const first = await runCli(env, ['db', 'seed', '--school', a.schoolId, '--demo', '--json']);
    expect(first.code).toBe(0);
    const after = await counts(a.schoolId);
    expect(await Student.count({ where: { school_id: a.schoolId, roll_no: { [Op.like]: 'DEMO-%' } } })).toBe(20);
    expect(await Parent.count({ where: { school_id: a.schoolId, phone_no: { [Op.like]: '91000000%' } } })).toBe(19);
    expect(await Staff.count({ where: { school_id: a.schoolId, phone_no: { [Op.like]: '900000000%' } } })).toBe(5);
    expect(first.json.counts).toMatchObject({ write_to_threads: 4, activities: 6, notices: 4 });
    expect(await WriteToReply.count({ where: { school_id: a.schoolId } })).toBeGreaterThan(0);
    expect(await Comment.count({ where: { school_id: a.schoolId } })).toBeGreaterThan(0);
    expect(await Reaction.count({ where: { school_id: a.schoolId } })).toBeGreaterThan(0);
    expect((await Grade.findOne({ where: { school_id: a.schoolId, name: '5' } }))!.class_teacher_id).not.toBeNull();

    const second = await runCli(env, ['db', 'seed', '--school', a.schoolId, '--demo', '--json']);
    expect(second.code).toBe(0);
    expect(await counts(a.schoolId)).toEqual(after);
    expect(second.json.credentials).toEqual(first.json.credentials);

    const { admin, teacher, parent: family } = first.json.credentials;
    const signin = await t.api.post('/web-app/signin').send({ email: admin.email, password: admin.password });
    expect(signin.body.data.user).toMatchObject({ role: 'super_admin', school_id: a.schoolId });
    const staff = await t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: teacher.phone_no, pin: teacher.pin, school_id: a.schoolId });
    expect(staff.body.data.staff).toMatchObject({ designation: 'Class Teacher' });
    const parentLoginRes = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: family.phone_no, pin: family.pin, school_id: a.schoolId });
    expect(parentLoginRes.body.data.children).toHaveLength(2);
    // The demo's notices and published activities are on the family's board and feed.
    const token = parentLoginRes.body.data.access_token;
    expect((await t.api.get('/parent-app/noticeboard').set(bearer(token))).body.data).toHaveLength(4);
    const feed = (await t.api.get('/parent-app/activities').set(bearer(token))).body.data as Array<{ published_at: string | null }>;
    expect(feed.length).toBeGreaterThan(0);
    expect(feed.every((x) => x.published_at !== null)).toBe(true);
  });

  it('seeds only the base data without --demo, and refuses an unknown school (1) or a missing --school (2)', async () => {
    await Grade.destroy({ where: { school_id: b.schoolId, name: 'LKG' } });
    const base = await runCli(env, ['db', 'seed', '--school', b.schoolId, '--json']);
    expect(base.code).toBe(0);
    expect(base.json).toEqual({ school_id: b.schoolId, demo: false });
    expect(await Grade.count({ where: { school_id: b.schoolId } })).toBe(15);
    expect(await Student.count({ where: { school_id: b.schoolId } })).toBe(0);
    expect((await runCli(env, ['db', 'seed', '--school', 'nowhere'])).code).toBe(1);
    const missing = await runCli(env, ['db', 'seed']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--school');
  });
});

describe('db migrate', () => {
  it('applies every migration to an empty database once, then reports nothing to do', async () => {
    const url = mysqlUrl();
    const name = `sp_cli_${Date.now().toString(36)}`;
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sp-cli-migrate-'));
    const emptyEnv = cliEnv(t, { DATA_DIR: dataDir, DATABASE_URL: url ? withDatabase(url, name) : '' });
    if (url) {
      const conn = await mysql.createConnection(url);
      await conn.query(`CREATE DATABASE \`${name}\``);
      await conn.end();
    }
    try {
      const first = await runCli(emptyEnv, ['db', 'migrate', '--json']);
      expect(first.code).toBe(0);
      expect(first.json.applied[0]).toBe('0001-initial-schema');
      const second = await runCli(emptyEnv, ['db', 'migrate', '--json']);
      expect(second.json).toEqual({ applied: [] });
      const text = await runCli(emptyEnv, ['db', 'migrate']);
      expect(text.stdout).toMatch(/up to date/);
    } finally {
      if (url) {
        const conn = await mysql.createConnection(url);
        await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await conn.end();
      }
    }
  });
});
