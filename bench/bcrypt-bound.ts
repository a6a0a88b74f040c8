import { availableParallelism } from 'node:os';
import bcrypt from 'bcrypt';
import { BENCH_PIN } from './layout.js';

export interface BcryptBound {
  comparesPerSecond: number;
  msPerCompare: number;
  cores: number;
}

/**
 * The most cost-10 compares a second this machine allows: enough compares in flight to keep every
 * core busy (bcrypt's async calls run on libuv's pool), for `seconds`. A login does one compare,
 * so this is the ceiling of logins a second.
 */
export async function measureBcrypt(seconds: number): Promise<BcryptBound> {
  const hash = await bcrypt.hash(BENCH_PIN, 10);
  const cores = availableParallelism();
  const inFlight = Math.max(4, cores * 2);
  const until = performance.now() + seconds * 1000;
  let done = 0;
  const worker = async () => {
    while (performance.now() < until) {
      await bcrypt.compare(BENCH_PIN, hash);
      done++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: inFlight }, worker));
  const elapsed = (performance.now() - started) / 1000;
  const single = performance.now();
  await bcrypt.compare(BENCH_PIN, hash);
  return { comparesPerSecond: Math.round((done / elapsed) * 10) / 10, msPerCompare: Math.round(performance.now() - single), cores };
}
