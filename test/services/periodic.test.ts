import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { pino } from 'pino';
import { every } from '../../src/jobs/periodic.js';

const log = pino({ level: 'silent' });

afterEach(() => {
  jest.useRealTimers();
});

/** The times (fake clock) at which `every` started a pass over `ms`, each pass taking `passMs`. */
async function passTimes(ms: number, intervalMs: number, options: { jitter?: number; passMs?: number } = {}) {
  jest.useFakeTimers({ now: 0 });
  const times: number[] = [];
  const periodic = every(intervalMs, async () => {
    times.push(Date.now());
    if (options.passMs) await new Promise((r) => setTimeout(r, options.passMs));
  }, log, 'test pass', { jitter: options.jitter });
  await jest.advanceTimersByTimeAsync(ms);
  await periodic.stop();
  const afterStop = times.length;
  await jest.advanceTimersByTimeAsync(10 * intervalMs);
  expect(times).toHaveLength(afterStop);
  return times;
}

const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]!);

describe('periodic passes', () => {
  it('runs a pass at once and then every interval, and none after it is stopped', async () => {
    expect(await passTimes(5_500, 1_000)).toEqual([0, 1_000, 2_000, 3_000, 4_000, 5_000]);
  });

  it('skips the ticks that come while a pass is still going instead of stacking them', async () => {
    expect(await passTimes(5_500, 1_000, { passMs: 1_500 })).toEqual([0, 2_000, 4_000]);
  });

  it('draws each wait from the interval ± the jitter, so two processes started together drift apart', async () => {
    const times = await passTimes(200_000, 1_000, { jitter: 0.25 });
    const waits = gaps(times);
    expect(waits.length).toBeGreaterThan(150);
    expect(waits.filter((w) => w < 750 || w > 1_250)).toEqual([]);
    // Spread over the range, not one fixed wait: a quarter of them at least in each half.
    expect(waits.filter((w) => w < 1_000).length).toBeGreaterThan(waits.length / 4);
    expect(waits.filter((w) => w > 1_000).length).toBeGreaterThan(waits.length / 4);
  });
});
