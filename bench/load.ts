import autocannon from 'autocannon';
import { cpuMsOf, databasePid, type ServerProcess } from './processes.js';

export interface Call {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadOptions {
  connections: number;
  warmupSeconds: number;
  seconds: number;
  /** Whether the server works against the local MariaDB, whose CPU is then measured too. */
  database?: boolean;
  /** Keep each response's latency in the result, for `combineLoads`. */
  keepLatencies?: boolean;
}

export interface LoadResult {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  mean: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statuses: Record<string, number>;
  rssPeakMb: number | null;
  /** CPU the server process spent per request in the measured window, in ms (user + system). */
  cpuMsPerRequest: number | null;
  /** The same for the MariaDB server (null on SQLite, where the database works inside the service). */
  dbCpuMsPerRequest: number | null;
  /** Length of the measured window, in seconds. */
  windowSeconds: number;
  /** Each response's latency in ms, sorted (with `keepLatencies` only; dropped from saved results). */
  latencies?: number[];
}

/**
 * One scenario against one server, as one continuous autocannon run: responses that complete in the
 * warm-up are dropped, and the figures come from those completing in the measured window after it.
 * Measuring the window of a running load, not a fresh one, keeps slow requests (a login queueing
 * for bcrypt) from being undercounted while the first ones are still in flight. Each request comes
 * from `next`, which rotates accounts and schools; the server's resident memory is sampled every 250 ms.
 * The CPU time the server (and MariaDB) used over the window, per request, tells their costs apart
 * on a machine where the load generator and the database share the cores with the server.
 */
export async function runLoad(server: ServerProcess, next: () => Call, o: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let non2xx = 0;
  let peak: number | null = null;
  const instance = autocannon({
    url: server.url,
    connections: o.connections,
    duration: o.warmupSeconds + o.seconds,
    timeout: 30,
    requests: [
      {
        setupRequest: (req) => {
          const call = next();
          // autocannon writes Content-Length into the headers object it is given: hand it a copy.
          return { ...req, method: call.method, path: call.path, headers: { ...call.headers }, body: call.body };
        },
      },
    ],
  }) as unknown as autocannon.Instance & PromiseLike<autocannon.Result>;
  const from = performance.now() + o.warmupSeconds * 1000;
  const db = o.database ? databasePid() : null;
  let cpuAtStart: [number | null, number | null] = [null, null];
  const startWindow = setTimeout(() => {
    cpuAtStart = [cpuMsOf(server.pid), db === null ? null : cpuMsOf(db)];
  }, o.warmupSeconds * 1000);
  instance.on('response', (_client: unknown, status: number, _bytes: number, responseTime: number) => {
    if (performance.now() < from) return;
    latencies.push(responseTime);
    statuses[status] = (statuses[status] ?? 0) + 1;
    if (status < 200 || status >= 300) non2xx++;
  });
  const sampler = setInterval(() => {
    if (performance.now() < from) return;
    const rss = server.rssMb();
    if (rss !== null && (peak === null || rss > peak)) peak = rss;
  }, 250);
  try {
    const r = await instance;
    const cpuAtEnd = [cpuMsOf(server.pid), db === null ? null : cpuMsOf(db)];
    const perRequest = (i: 0 | 1) => {
      const [a, b] = [cpuAtStart[i], cpuAtEnd[i]];
      return a === null || b === null || b === undefined || latencies.length === 0 ? null : Math.round(((b - a) / latencies.length) * 1000) / 1000;
    };
    const window = Math.max(0.001, (performance.now() - from) / 1000);
    return {
      ...figures(latencies, window),
      non2xx,
      errors: r.errors,
      timeouts: r.timeouts,
      statuses,
      rssPeakMb: peak ?? server.rssMb(),
      cpuMsPerRequest: perRequest(0),
      dbCpuMsPerRequest: perRequest(1),
      ...(o.keepLatencies ? { latencies } : {}),
    };
  } finally {
    clearTimeout(startWindow);
    clearInterval(sampler);
  }
}

/** Requests, rate and latency quantiles of the responses measured over `window` seconds (sorts `latencies`). */
function figures(latencies: number[], window: number) {
  latencies.sort((a, b) => a - b);
  const at = (q: number) => (latencies.length === 0 ? 0 : Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]! * 10) / 10);
  const mean = latencies.length === 0 ? 0 : latencies.reduce((a, b) => a + b, 0) / latencies.length;
  return { requests: latencies.length, rps: Math.round(latencies.length / window), p50: at(0.5), p99: at(0.99), mean: Math.round(mean * 100) / 100, windowSeconds: window };
}

/**
 * Runs of one scenario on one server as if they were one: their responses pooled for the rate and
 * the quantiles, the CPU a request weighed by each run's requests. Each run needs its `latencies`.
 */
export function combineLoads(runs: LoadResult[]): LoadResult {
  const latencies = runs.flatMap((r) => r.latencies ?? []);
  const perRequest = (pick: (r: LoadResult) => number | null) =>
    runs.some((r) => pick(r) === null) || latencies.length === 0 ? null : Math.round((runs.reduce((a, r) => a + pick(r)! * r.requests, 0) / latencies.length) * 1000) / 1000;
  const statuses: Record<string, number> = {};
  for (const r of runs) for (const [k, v] of Object.entries(r.statuses)) statuses[k] = (statuses[k] ?? 0) + v;
  const peaks = runs.flatMap((r) => (r.rssPeakMb === null ? [] : [r.rssPeakMb]));
  return {
    ...figures(latencies, runs.reduce((a, r) => a + r.windowSeconds, 0)),
    non2xx: runs.reduce((a, r) => a + r.non2xx, 0),
    errors: runs.reduce((a, r) => a + r.errors, 0),
    timeouts: runs.reduce((a, r) => a + r.timeouts, 0),
    statuses,
    rssPeakMb: peaks.length === 0 ? null : Math.max(...peaks),
    cpuMsPerRequest: perRequest((r) => r.cpuMsPerRequest),
    dbCpuMsPerRequest: perRequest((r) => r.dbCpuMsPerRequest),
  };
}

/** One request outside the load, to tell a missing route or a refused call before measuring it. */
export async function probe(server: ServerProcess, call: Call): Promise<{ status: number; body: string }> {
  const res = await fetch(server.url + call.path, { method: call.method, headers: call.headers, body: call.body, signal: AbortSignal.timeout(30_000) });
  return { status: res.status, body: (await res.text()).slice(0, 400) };
}
