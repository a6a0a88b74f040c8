/**
 * `npm run bench` (full) and `npm run bench -- --smoke` (a tiny data set, a few seconds a scenario).
 * Generates the data sets if they are missing or older than the migrations, measures the bcrypt
 * bound, runs every scenario against the service and the two ceilings, the parent feed at one
 * school and on SQLite, takes the EXPLAIN plans, and writes the results (the full run into README.md).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, freemem, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import mysql from 'mysql2/promise';
import { migrations } from '../migrations/index.js';
import { migrate, openDatabase } from '../src/db.js';
import { measureBcrypt } from './bcrypt-bound.js';
import { profileArgs, summariseProfile } from './profile.js';
import { distinctStatements, explainAll } from './explain.js';
import { generate } from './generate.js';
import { benchFanout, FANOUT_ID, writeFanoutReport } from './fanout.js';
import { benchAttachments, fullSizes, smokeSizes, writeAttachmentsReport } from './attachments.js';
import { benchImport, writeImportReport } from './import.js';
import { benchDir, dataDir, FULL_SCHOOLS, MYSQL_ROOT_URL, readMeta, repoRoot, writeMeta, type DatasetMeta } from './layout.js';
import { combineLoads, probe, runLoad, type LoadOptions } from './load.js';
import { freePort, startServer, type ServerProcess } from './processes.js';
import { writeReport, printSummary, type Round, type RunResults, type ScenarioResult } from './report.js';
import { consoleSignIn, mintIdentities, scenarios, type Identities, type IdentityCounts, type Scenario } from './scenarios.js';

const { values: args } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    regenerate: { type: 'boolean', default: false },
    only: { type: 'string' },
    seconds: { type: 'string' },
    connections: { type: 'string' },
    source: { type: 'boolean' },
    'skip-sqlite': { type: 'boolean', default: false },
    small: { type: 'boolean', default: false },
    'buffer-pool-mb': { type: 'string' },
    profile: { type: 'boolean', default: false },
    'node-flags': { type: 'string' },
    'ceiling-node-flags': { type: 'string' },
    'service-tree': { type: 'string' },
    rounds: { type: 'string' },
  },
});

const smoke = args.smoke!;
const load: LoadOptions = {
  connections: Number(args.connections ?? (smoke ? 4 : 50)),
  seconds: Number(args.seconds ?? (smoke ? 1 : 10)),
  warmupSeconds: smoke ? 0.5 : 3,
};
const counts: IdentityCounts = smoke
  ? { parents: 20, staff: 6, admins: 4, logins: 20, consoles: 2 }
  : { parents: 3000, staff: 600, admins: 400, logins: 6000, consoles: 20 };
const sets = smoke
  ? { main: { name: 'sp_bench_smoke', schools: 2 }, one: { name: 'sp_bench_smoke_one', schools: 1 }, sqlite: { name: 'sp_bench_smoke_sqlite', schools: 1 } }
  : { main: { name: 'sp_bench', schools: FULL_SCHOOLS }, one: { name: 'sp_bench_one', schools: 1 }, sqlite: { name: 'sp_bench_sqlite', schools: 10 } };
// --small: the ceilings and the service on the one-school data set, where the database's share is
// least and the servers' own latency (their tails) shows most.
if (args.small) sets.main = sets.one;
// --service-tree: another checkout's service (a worktree of an earlier commit, say) built and run
// instead of this one's, against this checkout's data sets, ceilings and load. Its migrations should
// be ones the data sets already have: a service applies any it lacks at start, to the shared database.
const serviceRoot = path.resolve(args['service-tree'] ?? repoRoot);
/** Node's flags given for the service (`--node-flags`) or the ceilings (`--ceiling-node-flags`). */
const nodeFlags = (option: 'node-flags' | 'ceiling-node-flags') => args[option]?.split(' ').filter(Boolean) ?? [];
// The smoke run checks the harness end to end; the full run measures the built service as `npm start` runs it.
const fromSource = args.source ?? smoke;
const profiled = (name: string) => (args.profile ? profileArgs(name) : []);
const only = args.only ? new Set(args.only.split(',')) : null;
// The feed and the board against the Express ceiling again, the servers side by side and taking
// turns: one run of each says little on two shared cores whose speed drifts from minute to minute.
const rounds = Number(args.rounds ?? (args.profile ? 0 : smoke ? 1 : 5));
const selected = scenarios.filter((s) => !only || only.has(s.id));
// Measured apart from the load scenarios: the roster import, the fan-out and the attachments (uploads and /files).
const apart = ['import', FANOUT_ID, 'attachments'];
if (only && [...only].some((id) => !apart.includes(id) && !scenarios.some((s) => s.id === id))) throw new Error(`--only names unknown scenarios: ${[...only].join(', ')}`);

const t0 = Date.now();
const log = (line: string) => console.log(line.startsWith('==') ? `${line} [${Math.round((Date.now() - t0) / 1000)} s]` : line);

async function mysqlDatabaseExists(name: string): Promise<boolean> {
  const conn = await mysql.createConnection(MYSQL_ROOT_URL);
  try {
    const [rows] = await conn.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = ?', [name]);
    return (rows as unknown[]).length > 0;
  } finally {
    await conn.end();
  }
}

/**
 * The data set as the meta file describes it. Migrations added since it was generated are applied to
 * it, as an operator would; it is generated again when missing, of another size, or with --regenerate.
 */
interface Dataset {
  meta: DatasetMeta;
  generated: boolean;
}

async function ensureDataset(name: string, schools: number, sqlite: boolean): Promise<Dataset> {
  const meta = readMeta(name);
  const present = meta && (sqlite ? existsSync(meta.sqliteFile ?? '') : await mysqlDatabaseExists(name));
  const known = migrations.map((m) => m.name).slice(0, meta?.migrations.length ?? 0);
  if (!args.regenerate && meta && present && meta.schools === schools && JSON.stringify(meta.migrations) === JSON.stringify(known)) {
    if (meta.migrations.length < migrations.length) {
      const db = await openDatabase(sqlite ? { dataDir, sqliteStorage: meta.sqliteFile } : { databaseUrl: meta.databaseUrl, dataDir });
      try {
        const applied = await migrate(db.sequelize);
        log(`  ${name}: applied ${applied.join(', ')}`);
      } finally {
        await db.close();
      }
      meta.migrations = migrations.map((m) => m.name);
      writeMeta(meta);
    }
    return { meta, generated: false };
  }
  log(`generating ${name}: ${schools} school(s) on ${sqlite ? 'SQLite' : 'MariaDB'}`);
  return { meta: await generate({ name, schools, sqlite, log }), generated: true };
}

let built: string | null = null;
/** Compiles the service as `npm start` would, into bench/.build (once a run); type errors elsewhere in the tree are reported, not fatal. */
function buildService(): string {
  if (built) return built;
  const out = path.join(serviceRoot, 'bench', '.build');
  rmSync(out, { recursive: true, force: true });
  const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', out], { cwd: serviceRoot, encoding: 'utf8' });
  const entry = path.join(out, 'src', 'server.js');
  if (!existsSync(entry)) throw new Error(`the build produced no ${entry}:\n${r.stdout}${r.stderr}`);
  const errors = (r.stdout.match(/error TS/g) ?? []).length;
  if (errors > 0) log(`  build: ${errors} type error(s) in the tree; measuring what tsc emitted`);
  built = entry;
  return entry;
}

/**
 * glibc's malloc as README's production guide has operators set it (one arena, large
 * buffers mapped and given back when freed); the express.static ceiling of the attachments gets it too.
 */
const mallocEnv = { MALLOC_ARENA_MAX: '1', MALLOC_MMAP_THRESHOLD_: '98304' };

function serviceEnv(meta: DatasetMeta, port: number, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const runDir = path.join(dataDir, `${meta.name}-run`);
  mkdirSync(runDir, { recursive: true });
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    ...mallocEnv,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATABASE_URL: meta.dialect === 'mysql' ? meta.databaseUrl : '',
    DATA_DIR: meta.dialect === 'sqlite' ? path.dirname(meta.sqliteFile!) : runDir,
    JWT_SECRET: meta.jwtSecret,
    ADMIN_COOKIE_SECRET: meta.adminCookieSecret,
    RATE_LIMIT_PUBLIC: '1000000',
    RATE_LIMIT_AUTH: '1000000',
    LOGIN_RATE_LIMIT_IP: '1000000',
    // Keep the data set as generated: no pruning or archiving job rewrites it between runs.
    SESSION_PRUNE_DAYS: '3650',
    WRITE_TO_ARCHIVE_DAYS: '3650',
    MAINTENANCE_INTERVAL_SECONDS: '86400',
    PUSH_PROVIDER: 'log',
    METRICS_ENABLED: 'false',
    ADMIN_CONSOLE_ENABLED: 'true',
    ...extra,
  };
}

async function startService(meta: DatasetMeta, entry: string | null, name = 'service'): Promise<ServerProcess> {
  const port = await freePort();
  const argv = [...profiled(name), ...nodeFlags('node-flags'), ...(entry ? [entry] : ['--import', 'tsx', 'src/server.ts'])];
  return startServer({ name, args: argv, env: serviceEnv(meta, port), cwd: serviceRoot, port, readyPath: '/healthz' });
}

async function startCeiling(meta: DatasetMeta, kind: 'node' | 'express'): Promise<ServerProcess> {
  const port = await freePort();
  return startServer({
    name: `ceiling-${kind}`,
    args: [...profiled(`ceiling-${kind}`), ...nodeFlags('ceiling-node-flags'), '--import', 'tsx', path.join(benchDir, `ceiling-${kind}.ts`)],
    env: { PATH: process.env.PATH, NODE_ENV: 'production', PORT: String(port), DATABASE_URL: meta.databaseUrl, JWT_SECRET: meta.jwtSecret },
    cwd: repoRoot,
    port,
    readyPath: null,
  });
}

async function identitiesFor(meta: DatasetMeta, few = false): Promise<Identities> {
  const db = await openDatabase(meta.dialect === 'mysql' ? { databaseUrl: meta.databaseUrl, dataDir } : { dataDir, sqliteStorage: meta.sqliteFile });
  try {
    // Fewer accounts on a smaller data set, but never so few that a handful of sessions carry the whole load.
    const share = smoke ? 1 : Math.max(0.05, Math.min(1, meta.schools / FULL_SCHOOLS));
    const n = { ...counts };
    for (const k of Object.keys(n) as Array<keyof IdentityCounts>) n[k] = few ? 1 : Math.max(k === 'consoles' ? 1 : 2, Math.round(counts[k] * share));
    return await mintIdentities(db, meta.jwtSecret, meta.schools, n);
  } finally {
    await db.close();
  }
}

/** A read's answer to the first parent, status and body: the ceilings must write the service's bytes. */
async function firstAnswer(server: ServerProcess, read: Scenario, ids: Identities): Promise<string> {
  const call = read.next({ ...ids, parents: ids.parents.slice(0, 1) })();
  const res = await fetch(server.url + call.path, { method: call.method, headers: call.headers, signal: AbortSignal.timeout(30_000) });
  return `${res.status} ${await res.text()}`;
}

/** A ceiling that answers less (or other) than the service would measure unlike work: the run stops there. */
function checkSameAnswers(read: string, ceilings: Map<string, string>, service: string): void {
  for (const [name, answer] of ceilings) {
    if (answer === service) continue;
    let at = 0;
    while (answer[at] === service[at]) at++;
    throw new Error(`${name} answers ${read} otherwise than the service, from character ${at}:\n  ${name}: ${answer.slice(at, at + 120)}\n  service: ${service.slice(at, at + 120)}`);
  }
}

async function runScenario(server: ServerProcess, s: Scenario, ids: Identities, target: string, given: Partial<LoadOptions> = {}): Promise<ScenarioResult> {
  const base = { id: s.id, title: s.title, request: s.request, read: s.read, target };
  const failed = (reason: string): ScenarioResult => {
    log(`  ${target.padEnd(16)} ${s.id.padEnd(20)} FAILED ${reason}`);
    return { ...base, status: 'failed', reason };
  };
  const why = s.unavailable?.(ids);
  if (why) return failed(why);
  const next = s.next(ids);
  try {
    const first = await probe(server, next());
    if (first.status >= 300) {
      let message = first.body;
      try {
        message = (JSON.parse(first.body) as { message?: string }).message ?? first.body;
      } catch {
        // Not JSON (an HTML page, say): the raw start of the body is the clue.
      }
      return failed(`${first.status}: ${message}`.slice(0, 200));
    }
    // A login costs a bcrypt compare: a run of a second may see none finish on a busy machine.
    const result = await runLoad(server, next, { ...load, seconds: Math.max(load.seconds, s.minSeconds ?? 0), database: target !== 'sqlite', ...given });
    const bad = result.non2xx + result.errors + (result.requests === 0 ? 1 : 0);
    const reason = result.requests === 0 ? `no request completed (${result.timeouts} timeouts)`
      : bad > 0 ? `non-2xx ${result.non2xx}, errors ${result.errors} (${Object.entries(result.statuses).map(([k, v]) => `${k}: ${v}`).join(', ')})` : undefined;
    log(`  ${target.padEnd(16)} ${s.id.padEnd(20)} ${String(result.rps).padStart(6)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms  rss ${result.rssPeakMb} MB  cpu/req ${result.cpuMsPerRequest} ms (db ${result.dbCpuMsPerRequest ?? '—'})${reason ? '  ' + reason : ''}`);
    return { ...base, status: bad > 0 ? 'failed' : 'ok', reason, load: result };
  } catch (err) {
    return failed(`harness: ${(err as Error).message}`.slice(0, 300));
  }
}

/** Two runs of one scenario on one server as one result: a failed run makes it failed. */
function joined(runs: ScenarioResult[]): ScenarioResult {
  const failed = runs.find((r) => r.status !== 'ok' || !r.load);
  if (failed) return failed;
  return { ...runs[0]!, load: combineLoads(runs.map((r) => r.load!)) };
}

/**
 * `rounds` turns of the feed and (when selected) the board, each on the Express ceiling and on the
 * service, and, given the one-school data set, the feed of a second service on it beside the feed's
 * pair; every server up throughout, so that each round's ratios compare runs a few seconds apart.
 */
async function alternate(main: Dataset, one: Dataset | null, entry: string | null, ids: Identities, feed: Scenario): Promise<Round[]> {
  const board = selected.find((s) => s.id === 'parent-noticeboard');
  log(`== ${main.meta.name}: ${rounds} alternated round(s) of the feed${board ? ' and the board' : ''} against the Express ceiling's${one ? ', and one school\'s feed' : ''}`);
  const servers: ServerProcess[] = [];
  try {
    const ceiling = await startCeiling(main.meta, 'express');
    servers.push(ceiling);
    const service = await startService(main.meta, entry, 'service (rounds)');
    servers.push(service);
    const oneService = one ? await startService(one.meta, entry, 'service (rounds, one school)') : null;
    if (oneService) servers.push(oneService);
    const oneIds = one ? await identitiesFor(one.meta) : null;
    for (const read of board ? [feed, board] : [feed]) {
      checkSameAnswers(read.id, new Map([['ceiling-express', await firstAnswer(ceiling, read, ids)]]), await firstAnswer(service, read, ids));
    }
    // Each server's measured seconds of a read come in two halves, placed symmetrically in the
    // round (ceiling, service, service, ceiling in odd rounds; service, ceiling, ceiling, service in
    // even ones): a drift of the machine's speed during the round weighs on both alike.
    const half = { seconds: load.seconds / 2, keepLatencies: true };
    const out: Round[] = [];
    for (let i = 0; i < rounds; i++) {
      const quartet = async (read: Scenario) => {
        const ceilingRun = () => runScenario(ceiling, read, ids, 'ceiling-express', half);
        const serviceRun = () => runScenario(service, read, ids, 'service', half);
        const [outer, inner] = i % 2 === 0 ? [ceilingRun, serviceRun] : [serviceRun, ceilingRun];
        const first = await outer();
        const middle = [await inner(), await inner()];
        const last = await outer();
        const [c, s] = i % 2 === 0 ? [[first, last], middle] : [middle, [first, last]];
        return { ceiling: joined(c), service: joined(s) };
      };
      // One school's feed in halves just before and just after the feed's quartet, for the same reason.
      const oneSchool = () => runScenario(oneService!, feed, oneIds!, 'one school', half);
      const oneBefore = oneService ? await oneSchool() : null;
      const feedPair = await quartet(feed);
      const oneRun = oneBefore ? joined([oneBefore, await oneSchool()]) : null;
      const boardPair = board ? await quartet(board) : null;
      out.push({
        ceiling: feedPair.ceiling, feed: feedPair.service,
        ...(boardPair ? { boardCeiling: boardPair.ceiling, board: boardPair.service } : {}),
        ...(oneRun ? { oneSchool: oneRun } : {}),
      });
    }
    return out;
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
}

/** Sends each scenario's request once through a copy of the service that logs its SQL, then EXPLAINs it on the data set. */
async function capturePlans(meta: DatasetMeta, ids: Identities): Promise<RunResults['explain']> {
  const file = path.join(dataDir, `${meta.name}-sql.log`);
  writeFileSync(file, '');
  const port = await freePort();
  const server = await startServer({
    name: 'service (SQL capture)',
    args: ['--import', 'tsx', '--import', './bench/sql-log.ts', 'src/server.ts'],
    env: serviceEnv(meta, port, { BENCH_SQL_LOG: file }),
    cwd: serviceRoot,
    port,
    readyPath: '/healthz',
  });
  const out: RunResults['explain'] = [];
  try {
    for (const s of selected) {
      if (s.unavailable?.(ids)) continue;
      const before = statSync(file).size;
      let status: number;
      try {
        status = (await probe(server, s.next(ids)())).status;
      } catch (err) {
        log(`  ${s.id}: the request failed (${(err as Error).message}); service output:\n${server.output().slice(-2000)}`);
        continue;
      }
      await new Promise((r) => setTimeout(r, 100));
      const lines = readFileSync(file, 'utf8').slice(before).split('\n').filter(Boolean).map((l) => JSON.parse(l) as string);
      out.push({ scenario: s.id, status, statements: await explainAll(meta.databaseUrl!, distinctStatements(lines)) });
      log(`  ${s.id}: ${status}, ${out.at(-1)!.statements.length} statement(s)`);
    }
  } finally {
    await server.stop();
  }
  return out;
}

/**
 * With --buffer-pool-mb, MariaDB's buffer pool is resized for the run (SET GLOBAL, online) and the
 * data set's tables and indexes are read once, so the run starts warm; the old size comes back after.
 * Without it the server's own setting is measured as it is.
 */
async function sizeBufferPool(mb: number, meta: DatasetMeta): Promise<() => Promise<void>> {
  const conn = await mysql.createConnection(MYSQL_ROOT_URL);
  const [[before]] = (await conn.query('SELECT @@innodb_buffer_pool_size AS size')) as unknown as [[{ size: number }]];
  await conn.query('SET GLOBAL innodb_buffer_pool_size = ?', [mb * 2 ** 20]);
  for (let i = 0; i < 120; i++) {
    const [[status]] = (await conn.query("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_resize_status'")) as unknown as [[{ Value: string }]];
    if (!status || !/resiz|Withdraw|Latch/i.test(status.Value) || /Completed|finished/i.test(status.Value)) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  const started = Date.now();
  const [indexes] = await conn.query(
    "SELECT DISTINCT table_name AS t, index_name AS i FROM information_schema.statistics WHERE table_schema = ?", [meta.name]);
  for (const { t, i } of indexes as Array<{ t: string; i: string }>) {
    await conn.query(`SELECT COUNT(*) FROM \`${meta.name}\`.\`${t}\` FORCE INDEX (\`${i}\`)`);
  }
  const [rows] = await conn.query('SELECT table_name AS t FROM information_schema.tables WHERE table_schema = ?', [meta.name]);
  // COUNT(*) on the primary key may be answered from a smaller index: a column read forces the rows in.
  for (const { t } of rows as Array<{ t: string }>) await conn.query(`SELECT SUM(LENGTH(created_at)) FROM \`${meta.name}\`.\`${t}\``).catch(() => undefined);
  log(`  buffer pool ${mb} MB (was ${Math.round(Number(before.size) / 2 ** 20)} MB), warmed in ${Math.round((Date.now() - started) / 1000)} s`);
  await conn.end();
  return async () => {
    const c = await mysql.createConnection(MYSQL_ROOT_URL);
    await c.query('SET GLOBAL innodb_buffer_pool_size = ?', [before.size]);
    await c.end();
  };
}

async function machineFacts(): Promise<RunResults['machine']> {
  const conn = await mysql.createConnection(MYSQL_ROOT_URL);
  try {
    const [[row]] = (await conn.query('SELECT VERSION() AS version, @@innodb_buffer_pool_size AS pool')) as unknown as [[{ version: string; pool: number }]];
    return {
      cores: availableParallelism(),
      memoryGb: Math.round(totalmem() / 2 ** 30),
      freeMemoryGb: Math.round(freemem() / 2 ** 30),
      loadAverage: loadavg().map((x) => Math.round(x * 100) / 100),
      node: process.version,
      mariadb: row.version,
      innodbBufferPoolMb: Math.round(Number(row.pool) / 2 ** 20),
    };
  } finally {
    await conn.end();
  }
}

/** `--only import` (and the smoke run): the roster import, apart from the load scenarios. */
async function measureImport(): Promise<void> {
  log(`== roster import: ${smoke ? 200 : 5000} students on MariaDB and SQLite`);
  const results = await benchImport({ rows: smoke ? 200 : 5000, smoke, log });
  const facts = await machineFacts();
  if (!smoke) {
    writeImportReport(results, `Run of ${new Date().toISOString()}: ${facts.cores} cores, Node ${process.version}, MariaDB ${facts.mariadb}; in process (\`runImport\`), a fresh school each time.`);
  }
}

/** `--only publish-fanout` (and the smoke run): a school-wide notice to every family, written and then drained by one instance. */
async function measureFanout(): Promise<void> {
  const families = smoke ? 100 : 10_000;
  log(`== ${FANOUT_ID}: a school-wide notice to ${families} families on MariaDB`);
  const result = await benchFanout({ families, smoke, nodeFlags: nodeFlags('node-flags'), log });
  const facts = await machineFacts();
  if (!smoke) {
    writeFanoutReport(result, `Run of ${new Date().toISOString()}: ${facts.cores} cores, Node ${process.version}, MariaDB ${facts.mariadb}, load average at the end ${facts.loadAverage.join(" / ")}.`);
  }
}

/**
 * `--only attachments`, the smoke run and the full run: uploads (one 12-megapixel photo at a time,
 * then 20 photos at once) and /files against express.static, the service on the main data set.
 */
async function measureAttachments(main: Dataset): Promise<void> {
  log(`== attachments: uploads and /files on ${main.meta.name}`);
  const entry = fromSource ? null : buildService();
  const ids = await identitiesFor(main.meta, true);
  const service = await startService(main.meta, entry, 'service (attachments)');
  try {
    const bench = await benchAttachments({
      service,
      staffToken: ids.staff[0]!.token,
      parentToken: ids.parents[0]!.token,
      startCeiling: async (dir) => {
        const port = await freePort();
        return startServer({
          name: 'ceiling-static', args: ['--import', 'tsx', path.join(benchDir, 'ceiling-static.ts')],
          env: { PATH: process.env.PATH, NODE_ENV: 'production', ...mallocEnv, PORT: String(port), STATIC_DIR: dir }, cwd: repoRoot, port, readyPath: null,
        });
      },
      sizes: smoke ? smokeSizes : fullSizes,
      load,
      log,
    });
    const facts = await machineFacts();
    writeAttachmentsReport(
      bench,
      `Run of ${new Date().toISOString()}: ${facts.cores} cores, ${facts.memoryGb} GB, Node ${process.version}, MariaDB ${facts.mariadb}, load average at start ${facts.loadAverage.join(' / ')}; ` +
        `the service as \`${fromSource ? 'tsx src/server.ts' : 'node'}\` runs it on \`${main.meta.name}\` with local storage; /files and express.static at ${load.connections} connections, ${load.seconds} s measured after ${load.warmupSeconds} s.`,
      !smoke,
    );
  } catch (err) {
    throw new Error(`${(err as Error).message}\n--- service output ---\n${service.output()}`);
  } finally {
    await service.stop();
    if (args.profile) summariseProfile('service (attachments)').forEach((line) => log(line));
  }
}

async function main() {
  if (only?.has('import') || smoke) await measureImport();
  if (only?.has(FANOUT_ID) || smoke) await measureFanout();
  if (only && [...only].every((id) => id === 'import' || id === FANOUT_ID)) return;
  const started = Date.now();
  const results: RunResults = {
    startedAt: new Date(started).toISOString(),
    smoke,
    settings: { ...load, serviceFrom: fromSource ? 'tsx src/server.ts' : 'node (tsc build of src/server.ts)' },
    machine: await machineFacts(),
    datasets: [],
    bcrypt: null,
    service: [],
    ceilings: [],
    oneSchool: null,
    sqlite: [],
    explain: [],
    seconds: 0,
  };

  log(`== data sets${smoke ? ' (smoke)' : ''}`);
  const main = await ensureDataset(sets.main.name, sets.main.schools, false);
  const one = await ensureDataset(sets.one.name, sets.one.schools, false);
  if (!only || only.has('attachments')) await measureAttachments(main);
  if (only && [...only].every((id) => apart.includes(id))) return;
  const lite = args['skip-sqlite'] ? null : await ensureDataset(sets.sqlite.name, sets.sqlite.schools, true);
  for (const d of [main, one, lite]) {
    if (d) results.datasets.push({ name: d.meta.name, dialect: d.meta.dialect, schools: d.meta.schools, rows: d.meta.rows, generateSeconds: d.meta.seconds, generatedNow: d.generated });
  }

  const restorePool = args['buffer-pool-mb'] ? await sizeBufferPool(Number(args['buffer-pool-mb']), main.meta) : null;
  try {
    await measure(results, main, one, lite);
  } finally {
    await restorePool?.();
  }
}

async function measure(results: RunResults, main: Dataset, one: Dataset, lite: Dataset | null) {
  results.machine.innodbBufferPoolMb = (await machineFacts()).innodbBufferPoolMb;
  log('== bcrypt cost 10 bound');
  results.bcrypt = await measureBcrypt(smoke ? 1 : 5);
  log(`  ${results.bcrypt.comparesPerSecond} compares/s on ${results.bcrypt.cores} cores (${results.bcrypt.msPerCompare} ms each)`);

  const entry = fromSource ? null : buildService();
  const feed = scenarios.find((s) => s.id === 'parent-feed')!;

  log(`== ${main.meta.name}: ${main.meta.schools} schools, ${load.connections} connections, ${load.seconds} s each`);
  const ids = await identitiesFor(main.meta);
  const ceilingAnswers = new Map<string, string>();
  if (selected.includes(feed)) {
    for (const kind of ['node', 'express'] as const) {
      const ceiling = await startCeiling(main.meta, kind);
      try {
        ceilingAnswers.set(`ceiling-${kind}`, await firstAnswer(ceiling, feed, ids));
        results.ceilings.push(await runScenario(ceiling, feed, ids, `ceiling-${kind}`));
      } finally {
        await ceiling.stop();
        if (args.profile) summariseProfile(`ceiling-${kind}`).forEach((line) => log(line));
      }
    }
  }
  const service = await startService(main.meta, entry);
  try {
    results.rssIdleMb = service.rssMb();
    if (ceilingAnswers.size) checkSameAnswers(feed.id, ceilingAnswers, await firstAnswer(service, feed, ids));
    if (selected.some((s) => s.id === 'console-list')) await consoleSignIn(service.url, ids);
    for (const s of selected) results.service.push(await runScenario(service, s, ids, 'service'));
  } catch (err) {
    throw new Error(`${(err as Error).message}\n--- service output ---\n${service.output()}`);
  } finally {
    await service.stop();
    if (args.profile) summariseProfile('service').forEach((line) => log(line));
  }

  if (selected.includes(feed) && rounds > 0) results.rounds = await alternate(main, args.small ? null : one, entry, ids, feed);

  if (selected.includes(feed) && !args.small) {
    log(`== ${one.meta.name}: the parent feed at one school`);
    const oneIds = await identitiesFor(one.meta);
    const oneService = await startService(one.meta, entry, 'service (one school)');
    try {
      results.oneSchool = await runScenario(oneService, feed, oneIds, 'one school');
    } finally {
      await oneService.stop();
    }
  }

  if (lite) {
    log(`== ${lite.meta.name}: embedded SQLite, ${lite.meta.schools} school(s)`);
    const liteIds = await identitiesFor(lite.meta);
    const liteService = await startService(lite.meta, entry, 'service (SQLite)');
    try {
      if (selected.some((s) => s.id === 'console-list')) await consoleSignIn(liteService.url, liteIds);
      for (const s of selected) results.sqlite.push(await runScenario(liteService, s, liteIds, 'sqlite'));
    } finally {
      await liteService.stop();
    }
  }

  log('== EXPLAIN of each scenario\'s statements');
  results.explain = await capturePlans(main.meta, ids);

  results.seconds = Math.round((Date.now() - t0) / 1000);
  printSummary(results, log);
  writeReport(results, { readme: !smoke && !only });
  const inRounds = (results.rounds ?? []).flatMap((r) => [r.ceiling, r.feed, ...(r.boardCeiling ? [r.boardCeiling] : []), ...(r.board ? [r.board] : []), ...(r.oneSchool ? [r.oneSchool] : [])]);
  const failed = [...results.ceilings, ...results.service, ...inRounds, ...(results.oneSchool ? [results.oneSchool] : []), ...results.sqlite].filter((r) => r.status === 'failed').length;
  log(`== done in ${results.seconds} s; ${failed} scenario(s) failed`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
