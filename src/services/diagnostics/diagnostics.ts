import { z } from 'zod';
import { anyFieldOf, email, id, title } from '../schemas.js';
import type { AppContext, Principal } from '../../context.js';
import { iso, ping, type Dialect } from '../../db.js';
import { badRequest, fieldError, notFound } from '../../errors.js';
import { maintenanceJobs } from '../../jobs/jobs.js';
import { JobRun, Parent, School, Staff } from '../../models/index.js';
import { enqueue, type OutboxItem } from '../../push/outbox.js';
import { e164 } from '../../push/phone.js';
import { deviceItems, type NotificationContent } from '../../push/targets.js';
import { providersOf } from '../../push/providers.js';
import { deliverRow, OUTBOX_COLUMNS, type OutboxRow } from '../../push/worker.js';
import { version } from '../../version.js';
import { TEST_MESSAGE_EVENT } from '../delivery/compose.js';
import { requireRole } from '../access/guards.js';
import { parseInput } from '../validation.js';

export interface HealthView {
  status: 'ok' | 'degraded';
  version: string;
  uptime_s: number;
  database: { driver: Dialect; status: 'up' | 'down'; latency_ms: number | null };
  push: { provider: 'log' | 'fcm'; outbox_pending: number | null; outbox_failed: number | null; last_error: string | null };
  sms: { provider: 'log' | 'twilio' };
  /** `degraded` while the last e-mail could not reach the SMTP server. */
  email: { provider: 'log' | 'smtp'; status: 'ok' | 'degraded' };
  jobs: Array<{ name: string; last_run_at: string | null; last_status: string | null }>;
  /** Only with REDIS_URL: `degraded` while Redis does not answer (rate limits then count per instance). */
  redis?: { status: 'ok' | 'degraded'; latency_ms: number | null };
  /** The attachments' store: `degraded` while it does not answer (uploads and file downloads then answer 503). */
  storage: { driver: 'local' | 's3'; status: 'ok' | 'degraded'; latency_ms: number | null };
}

const PING_TIMEOUT_MS = 2000;

const withTimeout = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);

async function outbox(ctx: AppContext, schoolId: string | undefined): Promise<Omit<HealthView['push'], 'provider'>> {
  const school = schoolId === undefined ? '' : ' AND school_id = :school';
  const count = async (status: string) => {
    const [row] = await ctx.db.select<{ n: number }>(`SELECT COUNT(*) AS n FROM notifications WHERE status = :status${school}`, { status, school: schoolId });
    return Number(row?.n ?? 0);
  };
  const [pending, failed, [last]] = await Promise.all([
    count('pending'),
    count('failed'),
    ctx.db.select<{ last_error: string }>(
      `SELECT last_error FROM notifications WHERE status IN ('pending', 'failed') AND last_error IS NOT NULL${school} ORDER BY updated_at DESC, id DESC LIMIT 1`,
      { school: schoolId },
    ),
  ]);
  return { outbox_pending: pending, outbox_failed: failed, last_error: last?.last_error ?? null };
}

/**
 * The service's health: the database's answer time, the push outbox (the caller's school; every
 * school from the command line) and the last run of each maintenance job. `degraded` when the
 * database or Redis does not answer, or a job's last run failed. The health of the service itself is not
 * tenant data, but the outbox figures are, so a principal sees only its school's.
 */
export async function health(ctx: AppContext, principal?: Principal): Promise<HealthView> {
  if (principal) requireRole(principal, 'super_admin', 'it_contact');
  const database: HealthView['database'] = { driver: ctx.db.dialect, status: 'down', latency_ms: null };
  const redisLatency = ctx.redis?.ping();
  const storageLatency = withTimeout(ctx.files.ping(), PING_TIMEOUT_MS).then((ms) => Math.round(ms * 100) / 100, () => null);
  try {
    database.latency_ms = Math.round((await withTimeout(ping(ctx.db), PING_TIMEOUT_MS)) * 100) / 100;
    database.status = 'up';
  } catch {
    // Reported as down below; the rest of the page still answers.
  }
  const push: HealthView['push'] = { provider: ctx.config.pushProvider, outbox_pending: null, outbox_failed: null, last_error: null };
  let jobs: HealthView['jobs'] = maintenanceJobs.map((j) => ({ name: j.name, last_run_at: null, last_status: null }));
  if (database.status === 'up') {
    Object.assign(push, await outbox(ctx, principal?.schoolId));
    const runs = new Map((await JobRun.findAll({ raw: true })).map((r) => [r.name, r]));
    jobs = jobs.map((j) => ({ name: j.name, last_run_at: iso(runs.get(j.name)?.last_run_at), last_status: runs.get(j.name)?.last_status ?? null }));
  }
  const redisMs = await redisLatency;
  const redis: HealthView['redis'] = ctx.redis ? { status: redisMs == null ? 'degraded' : 'ok', latency_ms: redisMs ?? null } : undefined;
  const storageMs = await storageLatency;
  const storage: HealthView['storage'] = { driver: ctx.files.driver, status: storageMs === null ? 'degraded' : 'ok', latency_ms: storageMs };
  const providers = providersOf(ctx);
  const sms = { provider: providers.sms.name };
  const email = { provider: providers.email.name, status: providers.email.status() };
  const degraded = database.status !== 'up' || jobs.some((j) => j.last_status === 'failed') || redis?.status === 'degraded' || storage.status === 'degraded'
    || email.status === 'degraded';
  return { status: degraded ? 'degraded' : 'ok', version, uptime_s: Math.round(process.uptime()), database, push, sms, email, jobs, ...(redis ? { redis } : {}), storage };
}

export const testPushInput = z
  .object({
    fcm_token: z.string().trim().min(1).max(512).optional().describe('A device token to send to directly'),
    parent_id: id().optional().describe("A parent of the caller's school: every device they are signed in on"),
    staff_id: id().optional().describe("A staff member of the caller's school: every device they are signed in on"),
    title: title().optional(),
    body: z.string().trim().min(1).max(2000).optional(),
  })
  .refine((v) => v.fcm_token !== undefined || v.parent_id !== undefined || v.staff_id !== undefined, {
    message: 'send fcm_token, parent_id or staff_id',
    path: ['target'],
  })
  .meta(anyFieldOf(['fcm_token', 'parent_id', 'staff_id']));
export type TestPushInput = z.input<typeof testPushInput>;

export interface TestPushResult {
  sent: number;
  failed: number;
  results: Array<{ target: string; ok: boolean; error?: string }>;
}

/** Keeps the outbox worker off the rows a test push sends itself; a crash mid-send leaves them to it. */
const SEND_NOW_LEASE_MS = 10 * 60_000;

const targetLabel = (row: { target_type: string; target_id: number | null; session_id: number | null }) =>
  row.target_type === 'token' ? 'token' : `${row.target_type}:${row.target_id}${row.session_id ? `/session:${row.session_id}` : ''}`;

/**
 * Sends a test notification at once, past any filtering, to a raw device token and / or every device
 * of a parent or staff member of the school. Each send is kept as a notification record (event
 * test_push) and reported at once: a failure is not retried, and an unregistered token is forgotten.
 */
export async function sendTestPush(ctx: AppContext, principal: Principal, input: TestPushInput): Promise<TestPushResult> {
  requireRole(principal, 'super_admin', 'it_contact');
  const data = parseInput(testPushInput, input);
  const school = principal.schoolId;
  if (data.parent_id !== undefined && !(await Parent.findOne({ where: { id: data.parent_id, school_id: school }, attributes: ['id'], raw: true }))) {
    throw notFound('Parent');
  }
  if (data.staff_id !== undefined && !(await Staff.findOne({ where: { id: data.staff_id, school_id: school }, attributes: ['id'], raw: true }))) {
    throw notFound('Staff');
  }
  const content: NotificationContent = {
    event: 'test_push', entity_type: null, entity_id: null, overridePreferences: true,
    title: data.title ?? 'Test notification',
    body: data.body ?? 'A test notification from the school platform diagnostics.',
  };
  const items: OutboxItem[] = [
    ...(data.fcm_token ? [{ ...content, school_id: school, target_type: 'token' as const, address: data.fcm_token }] : []),
    ...(data.parent_id !== undefined ? await deviceItems({ schoolId: school, userType: 'parent', userIds: [data.parent_id] }, content) : []),
    ...(data.staff_id !== undefined ? await deviceItems({ schoolId: school, userType: 'staff', userIds: [data.staff_id] }, content) : []),
  ];
  if (items.length === 0) throw badRequest('No target to send to');
  const ids = await enqueue(items, undefined, new Date(Date.now() + SEND_NOW_LEASE_MS));
  const rows = await ctx.db.select<OutboxRow & { target_id: number | null }>(
    `SELECT ${OUTBOX_COLUMNS} FROM notifications WHERE school_id = :school AND id IN (:ids) ORDER BY id`,
    { school, ids },
  );
  const results = await Promise.all(
    rows.map(async (row) => {
      const target = targetLabel(row);
      const { outcome, error } = await deliverRow(ctx, row, { retry: false });
      return outcome === 'sent' ? { target, ok: true } : { target, ok: false, error: error ?? outcome };
    }),
  );
  const sent = results.filter((r) => r.ok).length;
  return { sent, failed: results.length - sent, results };
}

export const testMessageInput = z.object({
  channel: z.enum(['sms', 'email']),
  to: z.string().trim().min(1).max(254).describe("A phone (read as the school's numbers are) or an e-mail address"),
});
export type TestMessageInput = z.input<typeof testMessageInput>;

export interface TestMessageResult {
  id: number;
  channel: 'sms' | 'email';
  provider: string;
  /** Where it went: the phone in E.164, or the address lower-cased. */
  to: string;
  ok: boolean;
  /** The provider's refusal as recorded in last_error. */
  error?: string;
}

/**
 * Sends one test SMS or e-mail at once through the configured provider, past every preference and
 * the SMS monthly limit (it does not count towards it), and reports what the provider said. The
 * record (event test_message, target_type token) is sent here, not by the worker, and not retried.
 */
export async function sendTestMessage(ctx: AppContext, principal: Principal, input: TestMessageInput): Promise<TestMessageResult> {
  requireRole(principal, 'super_admin', 'it_contact');
  const data = parseInput(testMessageInput, input);
  const school = await School.findByPk(principal.schoolId, { attributes: ['id', 'country'], raw: true });
  if (!school) throw notFound('School');
  let to: string;
  if (data.channel === 'sms') {
    const phone = e164(data.to, school.country ?? ctx.config.smsDefaultCountry);
    if (!phone) throw fieldError('to', `is not a valid phone number for ${school.country ?? ctx.config.smsDefaultCountry}`);
    to = phone;
  } else {
    const address = email().safeParse(data.to);
    if (!address.success) throw fieldError('to', 'is not an e-mail address');
    to = address.data;
  }
  const [id] = await enqueue(
    [{ school_id: school.id, event: TEST_MESSAGE_EVENT, channel: data.channel, target_type: 'token', address: to, title: 'Test message', body: 'A test message from the school platform.' }],
    undefined, new Date(Date.now() + SEND_NOW_LEASE_MS),
  );
  const [row] = await ctx.db.select<OutboxRow>(`SELECT ${OUTBOX_COLUMNS} FROM notifications WHERE school_id = :school AND id = :id`, { school: school.id, id });
  const { outcome, error } = await deliverRow(ctx, row!, { retry: false });
  const provider = providersOf(ctx)[data.channel].name;
  return { id: id!, channel: data.channel, provider, to, ok: outcome === 'sent', ...(outcome === 'sent' ? {} : { error: error ?? outcome }) };
}
