import type { AppContext } from '../context.js';
import { withNamedLock } from '../db.js';
import { JobRun } from '../models/index.js';
import { deliverDue } from '../push/worker.js';
import { pruneSessions } from '../services/auth/sessions.js';
import { archiveResolvedThreads } from '../services/write-to/write-to.js';
import { eraseExpiredArchives } from '../services/privacy/erasure.js';
import { expireAttachments } from '../services/attachments/removal.js';

export interface MaintenanceJob {
  name: string;
  /** `stopping` says a shutdown has begun: a job working through many items stops after the current one. */
  run(ctx: AppContext, stopping: () => boolean): Promise<unknown>;
}

export const maintenanceJobs: MaintenanceJob[] = [
  { name: 'write_to_archive', run: (ctx) => archiveResolvedThreads(ctx) },
  { name: 'session_prune', run: (ctx) => pruneSessions(ctx) },
  { name: 'retention_erase', run: (ctx, stopping) => eraseExpiredArchives(ctx, new Date(), stopping) },
  // Uploads never attached, and the store's side of deletions whose removal failed.
  { name: 'attachment_expiry', run: (ctx, stopping) => expireAttachments(ctx, new Date(), stopping) },
  // The worker drains the outbox every second; this pass also covers an instance whose worker is off.
  { name: 'outbox_retry', run: (ctx, stopping) => deliverDue(ctx, { stopping }) },
];

export interface JobOutcome {
  name: string;
  /** False when another instance held the job's lock, so this one left it alone. */
  ran: boolean;
  status?: 'ok' | 'failed';
  result?: unknown;
  error?: string;
}

async function runAndRecord(ctx: AppContext, job: MaintenanceJob, stopping: () => boolean): Promise<JobOutcome> {
  const startedAt = new Date();
  let outcome: JobOutcome;
  try {
    outcome = { name: job.name, ran: true, status: 'ok', result: await job.run(ctx, stopping) };
  } catch (err) {
    ctx.log.error({ err, job: job.name }, 'maintenance job failed');
    outcome = { name: job.name, ran: true, status: 'failed', error: (err instanceof Error ? err.message : String(err)).slice(0, 1000) };
  }
  await JobRun.upsert({ name: job.name, last_run_at: startedAt, last_status: outcome.status!, last_error: outcome.error ?? null });
  ctx.log.info({ job: job.name, status: outcome.status, ms: Date.now() - startedAt.getTime() }, 'maintenance job ran');
  return outcome;
}

/** Whether any instance started the job less than `ms` ago, by its job_runs row. */
async function ranWithin(name: string, ms: number | undefined): Promise<boolean> {
  if (!ms) return false;
  const last = (await JobRun.findByPk(name, { attributes: ['last_run_at'], raw: true }))?.last_run_at;
  return last != null && Date.now() - new Date(last).getTime() < ms;
}

export interface RunOptions {
  /** A shutdown has begun (the scheduler's stop). */
  stopping?: () => boolean;
  /**
   * Skip the job when any instance started it less than this long ago: each instance's timer ticks
   * every interval at its own phase, and without this every instance would run every job once per
   * interval, one after the other.
   */
  minGapMs?: number;
}

/**
 * Runs one job, recording its run in job_runs. On MySQL it first takes a named lock without
 * waiting (GET_LOCK(name, 0)), so with several instances on one database only one runs it, and the
 * job_runs check under that lock sees the last run of every instance.
 */
export async function runJob(ctx: AppContext, job: MaintenanceJob, options: RunOptions = {}): Promise<JobOutcome> {
  const runIfDue = async (): Promise<JobOutcome> => ((await ranWithin(job.name, options.minGapMs)) ? { name: job.name, ran: false } : runAndRecord(ctx, job, options.stopping ?? (() => false)));
  if (ctx.db.dialect !== 'mysql') return runIfDue();
  const done = await withNamedLock(ctx.db.sequelize, `job:${job.name}`, 0, runIfDue);
  return done ? done.value : { name: job.name, ran: false };
}

/** Every maintenance job once, in order (the scheduler's tick; also handy from the command line). */
export async function runMaintenance(ctx: AppContext, shouldStop: () => boolean = () => false, options: RunOptions = {}): Promise<JobOutcome[]> {
  const outcomes: JobOutcome[] = [];
  for (const job of maintenanceJobs) {
    if (shouldStop()) break;
    outcomes.push(await runJob(ctx, job, { stopping: shouldStop, ...options }));
  }
  return outcomes;
}
