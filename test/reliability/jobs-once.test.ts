import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { maintenanceJobs, runJob, type MaintenanceJob } from '../../src/jobs/jobs.js';
import { JobRun } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { freshDatabase, mysqlUrl, type TestDatabase } from '../helpers/database.js';
import { startServer, type ServerProcess } from '../helpers/server-process.js';

/**
 * Each maintenance job runs once per MAINTENANCE_INTERVAL_SECONDS, however many instances share the
 * database. Every run logs "maintenance job ran"; the processes' output is the record of all runs.
 * On MariaDB, two server processes on one database; on SQLite (one process per database file in
 * production), one server and runJob's own rules.
 */
const INTERVAL_MS = 1_000;
const WATCH_MS = 4_500;
const jobNames = maintenanceJobs.map((job) => job.name);

function runsOf(servers: ServerProcess[]): Map<string, number[]> {
  const runs = new Map(jobNames.map((name) => [name, [] as number[]]));
  for (const server of servers) {
    for (const line of server.output().split('\n')) {
      if (!line.includes('"maintenance job ran"')) continue;
      const entry = JSON.parse(line) as { job: string; time: number; status: string };
      expect({ job: entry.job, status: entry.status }).toEqual({ job: entry.job, status: 'ok' });
      const times = runs.get(entry.job);
      expect({ job: entry.job, known: Boolean(times) }).toEqual({ job: entry.job, known: true });
      times!.push(entry.time);
    }
  }
  for (const times of runs.values()) times.sort((x, y) => x - y);
  return runs;
}

/** Starts the servers, lets their timers tick for a while, stops them and returns every job's run times. */
async function watchRuns(count: number): Promise<Map<string, number[]>> {
  const database: TestDatabase = await freshDatabase();
  const env = { DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl, MAINTENANCE_INTERVAL_SECONDS: String(INTERVAL_MS / 1000), LOG_LEVEL: 'info' };
  const servers: ServerProcess[] = [];
  try {
    servers.push(...(await Promise.all(Array.from({ length: count }, () => startServer(env)))));
    await new Promise((r) => setTimeout(r, WATCH_MS));
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await database.drop();
  }
  return runsOf(servers);
}

function expectOncePerInterval(runs: Map<string, number[]>) {
  for (const [job, times] of runs) {
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    // Four intervals watched after start-up, so at least three runs; never two within one interval.
    expect({ job, enough: times.length >= 3, tooClose: gaps.filter((g) => g < INTERVAL_MS * 0.7) }).toEqual({ job, enough: true, tooClose: [] });
  }
}

describe('runJob', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t.close());

  const slow = (ran: string[]): MaintenanceJob => ({
    name: 'write_to_archive',
    run: async () => {
      ran.push('x');
      await new Promise((r) => setTimeout(r, 300));
    },
  });

  it('skips a job started less than minGapMs ago, and runs it when asked without one', async () => {
    const ran: string[] = [];
    expect(await runJob(t.ctx, slow(ran))).toMatchObject({ ran: true, status: 'ok' });
    const recorded = await JobRun.findByPk('write_to_archive', { raw: true });
    expect(await runJob(t.ctx, slow(ran), { minGapMs: 60_000 })).toEqual({ name: 'write_to_archive', ran: false });
    expect(await JobRun.findByPk('write_to_archive', { raw: true })).toEqual(recorded);
    expect(await runJob(t.ctx, slow(ran), { minGapMs: 1 })).toMatchObject({ ran: true, status: 'ok' });
    expect(ran).toHaveLength(2);
  });

  if (mysqlUrl()) {
    it('runs a job once when two callers start it at the same moment (MariaDB: GET_LOCK)', async () => {
      const ran: string[] = [];
      const outcomes = await Promise.all([runJob(t.ctx, slow(ran)), runJob(t.ctx, slow(ran))]);
      expect(outcomes.map((o) => o.ran).sort()).toEqual([false, true]);
      expect(ran).toHaveLength(1);
    });
  }
});

if (mysqlUrl()) {
  describe('two server processes on one MariaDB database', () => {
    it('run each maintenance job once per interval between them', async () => {
      expectOncePerInterval(await watchRuns(2));
    }, 90_000);
  });
} else {
  describe('one server process on SQLite', () => {
    it('runs each maintenance job once per interval', async () => {
      expectOncePerInterval(await watchRuns(1));
    }, 90_000);
  });
}
