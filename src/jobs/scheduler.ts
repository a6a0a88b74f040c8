import type { AppContext } from '../context.js';
import { runMaintenance } from './jobs.js';

export interface Scheduler {
  /** Stops the timer and waits for a run in progress to finish. */
  stop(): Promise<void>;
}

/**
 * Runs the maintenance jobs at start and then every MAINTENANCE_INTERVAL_SECONDS; a tick that comes
 * while the previous run is still going is skipped rather than stacked.
 */
export function startScheduler(ctx: AppContext): Scheduler {
  let stopped = false;
  let running: Promise<void> | null = null;
  // Once per interval across all instances: a job another instance ran within most of an interval
  // is left alone (the slack absorbs timer drift, so this instance's own next tick still runs it).
  const minGapMs = ctx.config.maintenanceIntervalSeconds * 900;
  const tick = () => {
    if (running || stopped) return;
    running = runMaintenance(ctx, () => stopped, { minGapMs })
      .then(() => undefined)
      .catch((err) => ctx.log.error({ err }, 'maintenance run failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, ctx.config.maintenanceIntervalSeconds * 1000);
  timer.unref();
  tick();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
