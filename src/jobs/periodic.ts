import type { Logger } from 'pino';
import { actingAs } from '../services/audit/context.js';

export interface Periodic {
  /** Stops the timer and waits for a pass in progress to finish. */
  stop(): Promise<void>;
}

/**
 * Runs `pass` at once and then every `intervalMs`; a tick that comes while the previous pass is
 * still going is skipped rather than stacked. `pass` is told whether a stop was asked, so a long
 * pass can end early; the timer never keeps the process alive.
 */
export function every(intervalMs: number, pass: (stopping: () => boolean) => Promise<unknown>, log: Logger, what: string): Periodic {
  let stopped = false;
  let running: Promise<void> | null = null;
  const tick = () => {
    if (running || stopped) return;
    // What a timer's pass changes is the system's, recorded as a job's.
    running = actingAs({ door: 'job', actorType: 'system' }, () => pass(() => stopped))
      .then(() => undefined)
      .catch((err) => log.error({ err }, `${what} failed`))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
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
