/**
 * The fan-out benchmark's processes, run by bench/fanout.ts, configured by the environment as the
 * service is. `setup`: a school of FANOUT_FAMILIES families, each with one child, two in five signed
 * in on a device, three in ten with a verified e-mail and no device, three in ten with only a phone.
 * `run`, a fresh process (its memory is one instance's, not the loader's): publishes a school-wide
 * notice through the notices service, timing the publish (every delivery record written in its
 * transaction), then drains the outbox as the worker does (passes of deliverDue back to back)
 * against the gateways' stand-ins, and prints its figures as JSON on stdout.
 */
import { randomBytes } from 'node:crypto';
import { closeContext, createContext } from '../src/bootstrap.js';
import { loadConfig } from '../src/config.js';
import { Notification, Parent, School, Session, Student } from '../src/models/index.js';
import { closePushProvider, providersOf } from '../src/push/providers.js';
import { deliverDue } from '../src/push/worker.js';
import { operatorPrincipal } from '../src/services/access/guards.js';
import { createNotice } from '../src/services/notices/notices.js';
import { createSchool } from '../src/services/schools/schools.js';

export interface FanoutFigures {
  families: number;
  mix: { device: number; email: number; sms: number };
  records: number;
  publish_seconds: number;
  drain_seconds: number;
  sent: number;
  failed: number;
  messages_per_second: number;
  by_channel: Record<string, number>;
  rss_idle_mb: number;
  rss_peak_mb: number;
}

const families = Number(process.env.FANOUT_FAMILIES ?? 10_000);
const SCHOOL = 'fanout';
const CHUNK = 1000;

const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
const seconds = (since: number) => Math.round(performance.now() - since) / 1000;
const kindOf = (i: number) => (i % 10 < 4 ? 'device' : i % 10 < 7 ? 'email' : 'sms');

async function inChunks<T>(rows: T[], write: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += CHUNK) await write(rows.slice(i, i + CHUNK));
}

async function setup() {
  const ctx = await createContext({ ...loadConfig(), runJobs: false }, { redis: false });
  try {
    await createSchool(ctx, { school_id: SCHOOL, school_name: 'Fan-out Public School', admin: { name: 'Head', email: 'head@fanout.bench.example', password: 'bench-password-1' } });
    // Every family may be sent an SMS: the limit is not what is measured.
    await School.update({ sms_monthly_limit: families * 2, country: 'IN' }, { where: { id: SCHOOL } });
    const now = new Date();
    const parents = Array.from({ length: families }, (_, i) => ({
      school_id: SCHOOL, father_name: `Parent ${i}`, phone_no: `98${String(i).padStart(8, '0')}`, email: kindOf(i) === 'email' ? `family${i}@fanout.bench.example` : null,
    }));
    await inChunks(parents, (chunk) => Parent.bulkCreate(chunk));
    const ids = (await Parent.findAll({ where: { school_id: SCHOOL }, attributes: ['id'], order: [['id', 'ASC']], raw: true })).map((p) => Number(p.id));
    await inChunks(ids.map((id, i) => ({ school_id: SCHOOL, parent_id: id, student_full_name: `Child ${i}`, grade: String(1 + (i % 12)), roll_no: `F${100000 + i}` })), (c) => Student.bulkCreate(c));
    const expires = new Date(now.getTime() + 30 * 86_400_000);
    await inChunks(
      ids.filter((_, i) => kindOf(i) === 'device').map((id) => ({
        school_id: SCHOOL, token_hash: randomBytes(32).toString('hex'), user_type: 'parent' as const, user_id: id, fcm_token: `device-${id}-${randomBytes(8).toString('hex')}`,
        last_seen_at: now, expires_at: expires, active: true,
      })),
      (c) => Session.bulkCreate(c),
    );
  } finally {
    await closeContext(ctx);
  }
}

async function run() {
  const ctx = await createContext({ ...loadConfig(), runJobs: false }, { redis: false });
  try {
    const ids = (await Parent.findAll({ where: { school_id: SCHOOL }, attributes: ['id'], order: [['id', 'ASC']], raw: true })).map((p) => Number(p.id));
    // The gateways' clients, as the worker creates them when the service starts.
    providersOf(ctx);
    let peak = process.memoryUsage().rss;
    const idle = peak;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);

    const publishing = performance.now();
    const notice = await createNotice(ctx, operatorPrincipal(SCHOOL), {
      notice_title: 'School closed on Monday for the election',
      notice_desc: 'The school is a polling station: it is closed on Monday. Classes resume on Tuesday at the usual time.',
    });
    const publishSeconds = seconds(publishing);
    const records = await Notification.count({ where: { school_id: SCHOOL, entity_id: notice.id } });

    const draining = performance.now();
    let sent = 0;
    let failed = 0;
    for (;;) {
      const counts = await deliverDue(ctx);
      sent += counts.sent;
      failed += counts.failed + counts.retry;
      if (counts.claimed === 0) break;
    }
    const drainSeconds = seconds(draining);
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);

    const rows = await ctx.db.select<{ channel: string; n: number }>(
      "SELECT channel, COUNT(*) AS n FROM notifications WHERE school_id = :school AND entity_id = :id AND status = 'sent' GROUP BY channel", { school: SCHOOL, id: notice.id },
    );
    const figures: FanoutFigures = {
      families,
      mix: { device: ids.filter((_, i) => kindOf(i) === 'device').length, email: ids.filter((_, i) => kindOf(i) === 'email').length, sms: ids.filter((_, i) => kindOf(i) === 'sms').length },
      records, publish_seconds: publishSeconds, drain_seconds: drainSeconds, sent, failed,
      messages_per_second: Math.round(sent / drainSeconds),
      by_channel: Object.fromEntries(rows.map((r) => [r.channel, Number(r.n)])),
      rss_idle_mb: mb(idle), rss_peak_mb: mb(peak),
    };
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } finally {
    await closePushProvider(ctx);
    await closeContext(ctx);
  }
}

await (process.argv[2] === 'setup' ? setup() : run());
