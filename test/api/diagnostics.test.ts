import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import mysql from 'mysql2/promise';
import { maintenanceJobs, runJob } from '../../src/jobs/jobs.js';
import { JobRun, Notification, Session } from '../../src/models/index.js';
import { enqueue } from '../../src/push/outbox.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { adminUser, bearer, expectError, parent, school, staffLogin, staffMember, type SchoolFixture } from '../helpers/fixtures.js';

let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;
let it_contact: { id: number; token: string };

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  b = await school(t);
  it_contact = await adminUser(t, a.schoolId, 'it_contact');
});
afterAll(async () => t.close());

async function parentWithDevice(schoolId: string, fcm_token: string) {
  const p = await parent(t.ctx, schoolId);
  const res = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: p.phone, pin: p.pin, school_id: schoolId, fcm_token });
  expect(res.status).toBe(200);
  return p;
}

describe('GET /web-app/diagnostics/health', () => {
  it('reports the database, the push outbox of the school and every maintenance job', async () => {
    await enqueue([{ school_id: a.schoolId, event: 'write_to_reply', target_type: 'parent', target_id: 1, address: 'x', title: 't', body: 'b' }]);
    await enqueue([{ school_id: b.schoolId, event: 'write_to_reply', target_type: 'parent', target_id: 1, address: 'x', title: 't', body: 'b' }], undefined);
    const res = await t.api.get('/web-app/diagnostics/health').set(bearer(a.adminToken));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      status: 'ok',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      uptime_s: expect.any(Number),
      database: { driver: t.ctx.db.dialect, status: 'up', latency_ms: expect.any(Number) },
      push: { provider: 'log', outbox_pending: 1, outbox_failed: 0, last_error: null },
      sms: { provider: 'log' },
      email: { provider: 'log', status: 'ok' },
      jobs: maintenanceJobs.map((j) => ({ name: j.name, last_run_at: null, last_status: null })),
      storage: { driver: 'local', status: 'ok', latency_ms: expect.any(Number) },
    });
  });

  it('shows the last run of each job, and turns degraded when one failed', async () => {
    const archive = maintenanceJobs.find((j) => j.name === 'write_to_archive')!;
    expect(await runJob(t.ctx, archive)).toMatchObject({ ran: true, status: 'ok' });
    let res = await t.api.get('/web-app/diagnostics/health').set(bearer(it_contact.token));
    expect(res.status).toBe(200);
    expect(res.body.data.jobs.find((j: { name: string }) => j.name === 'write_to_archive')).toEqual({ name: 'write_to_archive', last_run_at: expect.stringMatching(/Z$/), last_status: 'ok' });

    const broken = await runJob(t.ctx, { name: 'session_prune', run: async () => { throw new Error('disk full'); } });
    expect(broken).toMatchObject({ ran: true, status: 'failed', error: 'disk full' });
    res = await t.api.get('/web-app/diagnostics/health').set(bearer(it_contact.token));
    expect(res.body.data.status).toBe('degraded');
    expect(res.body.data.jobs.find((j: { name: string }) => j.name === 'session_prune').last_status).toBe('failed');
    await runJob(t.ctx, maintenanceJobs.find((j) => j.name === 'session_prune')!);
    expect((await t.api.get('/web-app/diagnostics/health').set(bearer(it_contact.token))).body.data.status).toBe('ok');
  });

  it('is refused to an admin (403), to other apps and without a token', async () => {
    const admin = await adminUser(t, a.schoolId, 'admin');
    expectError(await t.api.get('/web-app/diagnostics/health').set(bearer(admin.token)), 403, 'FORBIDDEN');
    const s = await staffMember(a.schoolId);
    expectError(await t.api.get('/web-app/diagnostics/health').set(bearer(await staffLogin(t, s.phone, s.pin, a.schoolId))), 403, 'FORBIDDEN');
    expectError(await t.api.get('/web-app/diagnostics/health'), 401, 'UNAUTHORIZED');
  });
});

describe('POST /web-app/diagnostics/test-push', () => {
  it("sends at once to every device of a parent and records each send as test_push", async () => {
    const p = await parentWithDevice(a.schoolId, 'parent-phone-token');
    const res = await t.api.post('/web-app/diagnostics/test-push').set(bearer(it_contact.token)).send({ parent_id: p.id, title: 'Hello', body: 'Testing' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ sent: 1, failed: 0, results: [{ target: expect.stringMatching(new RegExp(`^parent:${p.id}`)), ok: true }] });
    const records = await Notification.findAll({ where: { school_id: a.schoolId, event: 'test_push', target_id: p.id }, raw: true });
    expect(records).toEqual([expect.objectContaining({ target_type: 'parent', title: 'Hello', body: 'Testing', status: 'sent', attempts: 1 })]);
    expect(JSON.stringify(res.body)).not.toContain('parent-phone-token');
  });

  it('sends to a raw device token and reports a staff member with no device as failed', async () => {
    const s = await staffMember(a.schoolId);
    await staffLogin(t, s.phone, s.pin, a.schoolId);
    const res = await t.api.post('/web-app/diagnostics/test-push').set(bearer(a.adminToken)).send({ fcm_token: 'some-device', staff_id: s.id });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      sent: 1, failed: 1,
      results: [{ target: 'token', ok: true }, { target: `staff:${s.id}`, ok: false, error: 'no device token' }],
    });
    const skipped = await Notification.findOne({ where: { event: 'test_push', target_type: 'staff', target_id: s.id }, raw: true });
    expect(skipped?.status).toBe('skipped');
  });

  it('needs a target (400) of the caller\'s school (404)', async () => {
    const none = await t.api.post('/web-app/diagnostics/test-push').set(bearer(a.adminToken)).send({ title: 'Hi' });
    expectError(none, 400, 'BAD_REQUEST');
    const other = await parentWithDevice(b.schoolId, 'b-token');
    expectError(await t.api.post('/web-app/diagnostics/test-push').set(bearer(a.adminToken)).send({ parent_id: other.id }), 404, 'NOT_FOUND');
    expectError(await t.api.post('/web-app/diagnostics/test-push').set(bearer(a.adminToken)).send({ staff_id: 99999999 }), 404, 'NOT_FOUND');
    expect(await Notification.count({ where: { event: 'test_push', school_id: b.schoolId } })).toBe(0);
  });

  it('is refused to an admin with 403, and sends nothing', async () => {
    const admin = await adminUser(t, a.schoolId, 'admin');
    const before = await Notification.count({ where: { event: 'test_push' } });
    expectError(await t.api.post('/web-app/diagnostics/test-push').set(bearer(admin.token)).send({ fcm_token: 'x' }), 403, 'FORBIDDEN');
    expect(await Notification.count({ where: { event: 'test_push' } })).toBe(before);
  });
});

describe('maintenance jobs', () => {
  it('prunes sessions dead for longer than SESSION_PRUNE_DAYS', async () => {
    const p = await parentWithDevice(a.schoolId, 'old-phone');
    const old = new Date(Date.now() - 100 * 86_400_000);
    await Session.update({ last_seen_at: old, expires_at: old }, { where: { user_type: 'parent', user_id: p.id } });
    const outcome = await runJob(t.ctx, maintenanceJobs.find((j) => j.name === 'session_prune')!);
    expect(outcome).toMatchObject({ ran: true, status: 'ok' });
    expect(await Session.count({ where: { user_type: 'parent', user_id: p.id } })).toBe(0);
  });

  it('retries the outbox', async () => {
    const [id] = await enqueue([{ school_id: a.schoolId, event: 'write_to_reply', target_type: 'parent', target_id: 1, address: 'x', title: 't', body: 'b' }]);
    const outcome = await runJob(t.ctx, maintenanceJobs.find((j) => j.name === 'outbox_retry')!);
    expect(outcome).toMatchObject({ ran: true, status: 'ok', result: expect.objectContaining({ sent: expect.any(Number) }) });
    expect((await Notification.findByPk(id))?.status).toBe('sent');
    expect((await JobRun.findByPk('outbox_retry'))?.last_status).toBe('ok');
  });

  it('runs a job on one instance only: on MySQL it skips a job whose lock another connection holds', async () => {
    const archive = maintenanceJobs.find((j) => j.name === 'write_to_archive')!;
    if (t.ctx.db.dialect === 'sqlite') {
      // The embedded database serves one process; the job just runs.
      expect(await runJob(t.ctx, archive)).toMatchObject({ ran: true });
      return;
    }
    const other = await mysql.createConnection(t.ctx.config.databaseUrl!);
    const lockName = "LEFT(CONCAT('job:write_to_archive', '@', DATABASE()), 64)";
    try {
      const [[held]] = (await other.query(`SELECT GET_LOCK(${lockName}, 0) AS got`)) as unknown as [[{ got: number }]];
      expect(held.got).toBe(1);
      const before = await JobRun.findByPk('write_to_archive', { raw: true });
      expect(await runJob(t.ctx, archive)).toEqual({ name: 'write_to_archive', ran: false });
      expect(await JobRun.findByPk('write_to_archive', { raw: true })).toEqual(before);
      // Released explicitly: the server frees a closed connection's locks a moment after end() resolves.
      await other.query(`SELECT RELEASE_LOCK(${lockName})`);
    } finally {
      await other.end();
    }
    expect(await runJob(t.ctx, archive)).toMatchObject({ ran: true, status: 'ok' });
  });
});
