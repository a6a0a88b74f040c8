import type { Logger } from 'pino';
import { actingAs } from '../services/audit/context.js';

export interface Periodic {
  /** Stops the timer and waits for a pass in progress to finish. */
  stop(): Promise<void>;
}

/**
 * Runs `pass` at once and then every `intervalMs`; a tick that comes while the previous pass is
 * still going is skipped rather than stacked. `pass` is told whether a stop was asked, so a long
 * pass can end early; the timer never keeps the process alive. With `jitter` (a fraction) each wait
 * is drawn from intervalMs × (1 ± jitter): processes started together drift apart instead of
 * ticking in step, where the first to tick would always find all the work.
 */
export function every(
  intervalMs: number, pass: (stopping: () => boolean) => Promise<unknown>, log: Logger, what: string, options: { jitter?: number } = {},
): Periodic {
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
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    const spread = options.jitter ? (Math.random() * 2 - 1) * options.jitter : 0;
    timer = setTimeout(() => {
      tick();
      schedule();
    }, intervalMs * (1 + spread));
    timer.unref();
  };
  tick();
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
