import type { AppContext } from '../context.js';
import { runMaintenance } from './jobs.js';
import { every, type Periodic } from './periodic.js';

export type Scheduler = Periodic;

/** Runs the maintenance jobs at start and then every MAINTENANCE_INTERVAL_SECONDS. */
export function startScheduler(ctx: AppContext): Scheduler {
  // Once per interval across all instances: a job another instance ran within most of an interval
  // is left alone (the slack absorbs timer drift, so this instance's own next tick still runs it).
  const minGapMs = ctx.config.maintenanceIntervalSeconds * 900;
  return every(ctx.config.maintenanceIntervalSeconds * 1000, (stopping) => runMaintenance(ctx, stopping, { minGapMs }), ctx.log, 'maintenance run');
}
