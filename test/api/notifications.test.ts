import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Notification } from '../../src/models/index.js';
import { enqueue, type OutboxItem } from '../../src/push/outbox.js';
import { RETRY_BACKOFF_MS } from '../../src/push/lease.js';
import { deliverDue } from '../../src/push/worker.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { adminUser, bearer, expectError, parent, parentLogin, school, staffLogin, staffMember, type SchoolFixture } from '../helpers/fixtures.js';

let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  b = await school(t);
});
afterAll(async () => t.close());

const item = (schoolId: string, over: Partial<OutboxItem> = {}): OutboxItem => ({
  school_id: schoolId, event: 'write_to_reply', entity_type: 'write_to', entity_id: 7, target_type: 'parent', target_id: 1,
  address: 'device-token-secret', title: 'Reply', body: 'Hello', ...over,
});

/** Delivers everything due now, as often as it takes. */
async function drain(now = new Date()) {
  while ((await deliverDue(t.ctx, { now })).claimed > 0);
}

describe('the outbox worker (log provider)', () => {
  it('marks a due row sent, and a row without a device token skipped', async () => {
    const [sent, skipped] = await enqueue([item(a.schoolId), item(a.schoolId, { address: null, target_id: 2 })]);
    await drain();
    const rows = await Notification.findAll({ where: { id: [sent!, skipped!] }, order: [['id', 'ASC']], raw: true });
    expect(rows[0]).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    expect(rows[0]!.sent_at).not.toBeNull();
    expect(rows[1]).toMatchObject({ status: 'skipped', last_error: 'no device token', sent_at: null });
  });

  it('records an SMS row (the PIN set-up link) as sent: there is no SMS gateway', async () => {
    const [id] = await enqueue([item(a.schoolId, { event: 'admission_pin_setup', channel: 'sms', address: '+919876543210', title: 'Set your PIN', body: 'https://example.org/set-pin' })]);
    await drain();
    expect((await Notification.findByPk(id))?.status).toBe('sent');
  });

  it('leaves rows that are not yet due, and sends them when they are', async () => {
    const later = new Date(Date.now() + RETRY_BACKOFF_MS[0]!);
    const [id] = await enqueue([item(a.schoolId)], undefined, later);
    await drain();
    expect((await Notification.findByPk(id))?.status).toBe('pending');
    await drain(new Date(later.getTime() + 1));
    expect((await Notification.findByPk(id))?.status).toBe('sent');
  });

  it('never sends one row twice from two workers at once, and counts every send once', async () => {
    // More rows than a pass marks sent in one statement: several marks of one pass run at once.
    const ids = await enqueue(Array.from({ length: 150 }, (_, i) => item(a.schoolId, { target_id: 100 + i })));
    const now = new Date(Date.now() + 1);
    const passes = await Promise.all([deliverDue(t.ctx, { now }), deliverDue(t.ctx, { now }), deliverDue(t.ctx, { now })]);
    expect(passes.reduce((n, p) => n + p.sent, 0)).toBe(150);
    const rows = await Notification.findAll({ where: { id: ids }, raw: true });
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  });

  it('delivers, after its lease, a row a stopped worker had claimed: a restart loses nothing', async () => {
    const [id] = await enqueue([item(a.schoolId)]);
    // A worker that claimed the row and died before sending it.
    await t.ctx.db.execute('UPDATE notifications SET next_attempt_at = :lease WHERE id = :id', { lease: new Date(Date.now() + 10 * 60_000), id });
    await drain();
    expect((await Notification.findByPk(id))?.status).toBe('pending');
    await drain(new Date(Date.now() + 10 * 60_000 + 1000));
    expect((await Notification.findByPk(id))).toMatchObject({ status: 'sent', attempts: 1 });
  });
});

describe('GET /web-app/notifications', () => {
  let ids: number[];

  beforeAll(async () => {
    ids = await enqueue([
      item(a.schoolId, { event: 'write_to_leave', target_type: 'staff', target_id: 41, address: 'staff-token-secret' }),
      item(a.schoolId, { event: 'write_to_reply', target_type: 'parent', target_id: 42 }),
      item(b.schoolId, { event: 'write_to_reply', target_type: 'parent', target_id: 43 }),
    ]);
    await drain();
  });

  it("lists the school's records newest first, with the contract's fields and no device token", async () => {
    const res = await t.api.get('/web-app/notifications').set(bearer(a.adminToken));
    expect(res.status).toBe(200);
    const { notifications, pagination } = res.body.data;
    expect(pagination).toMatchObject({ total: expect.any(Number), page: 1 });
    expect(notifications.length).toBeLessThanOrEqual(10);
    expect(notifications[0]).toEqual(expect.objectContaining({
      id: ids[1], event: 'write_to_reply', entity_type: 'write_to', entity_id: 7, target_type: 'parent', target_id: 42, title: 'Reply', body: 'Hello',
      status: 'sent', attempts: 1, last_error: null, created_at: expect.stringMatching(/Z$/), sent_at: expect.stringMatching(/Z$/),
    }));
    expect(JSON.stringify(res.body)).not.toMatch(/token-secret|address|session_id/);
    const created = notifications.map((n: { created_at: string }) => n.created_at);
    expect([...created].sort().reverse()).toEqual(created);
    expect(notifications.some((n: { target_id: number }) => n.target_id === 43)).toBe(false);
  });

  it('filters by event, status, target_type and target_id, and pages', async () => {
    const byEvent = await t.api.get('/web-app/notifications?event=write_to_leave').set(bearer(a.adminToken));
    expect(byEvent.body.data.notifications.map((n: { id: number }) => n.id)).toEqual([ids[0]]);
    const byTarget = await t.api.get('/web-app/notifications?target_type=parent&target_id=42&status=sent').set(bearer(a.adminToken));
    expect(byTarget.body.data.notifications.map((n: { id: number }) => n.id)).toEqual([ids[1]]);
    const skipped = await t.api.get('/web-app/notifications?status=skipped').set(bearer(a.adminToken));
    expect(skipped.body.data.notifications.every((n: { status: string }) => n.status === 'skipped')).toBe(true);
    const page2 = await t.api.get('/web-app/notifications?limit=2&page=2').set(bearer(a.adminToken));
    expect(page2.body.data.notifications).toHaveLength(2);
    expect(page2.body.data.pagination).toMatchObject({ page: 2, limit: 2 });
    expectError(await t.api.get('/web-app/notifications?status=lost').set(bearer(a.adminToken)), 400, 'BAD_REQUEST');
    expectError(await t.api.get('/web-app/notifications?target_type=robot').set(bearer(a.adminToken)), 400, 'BAD_REQUEST');
    expectError(await t.api.get('/web-app/notifications?limit=101').set(bearer(a.adminToken)), 400, 'BAD_REQUEST');
  });

  it('is open to admin and it_contact, refused to other apps and to another school', async () => {
    for (const role of ['admin', 'it_contact'] as const) {
      const u = await adminUser(t, a.schoolId, role);
      expect((await t.api.get('/web-app/notifications').set(bearer(u.token))).status).toBe(200);
    }
    const p = await parent(t.ctx, a.schoolId);
    expectError(await t.api.get('/web-app/notifications').set(bearer(await parentLogin(t, p.phone, p.pin, a.schoolId))), 403, 'FORBIDDEN');
    const s = await staffMember(a.schoolId);
    expectError(await t.api.get('/web-app/notifications').set(bearer(await staffLogin(t, s.phone, s.pin, a.schoolId))), 403, 'FORBIDDEN');
    expectError(await t.api.get(`/web-app/notifications?school_id=${b.schoolId}`).set(bearer(a.adminToken)), 403, 'FORBIDDEN');
    expectError(await t.api.get('/web-app/notifications'), 401, 'UNAUTHORIZED');
  });
});
