import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BcryptBound } from './bcrypt-bound.js';
import { shape, type StatementPlan } from './explain.js';
import { dataDir, writeReadmeSection } from './layout.js';
import type { LoadOptions, LoadResult } from './load.js';

export interface ScenarioResult {
  id: string;
  title: string;
  request: string;
  read: boolean;
  target: string;
  status: 'ok' | 'failed';
  reason?: string;
  load?: LoadResult;
}

/** One turn of the alternated rounds: the feed and the board, each on the Express ceiling and on the service, and the feed at one school. */
export interface Round {
  ceiling: ScenarioResult;
  feed: ScenarioResult;
  /** The Express ceiling's board, the board's like-for-like peer. */
  boardCeiling?: ScenarioResult;
  board?: ScenarioResult;
  oneSchool?: ScenarioResult;
}

export interface RunResults {
  startedAt: string;
  smoke: boolean;
  settings: LoadOptions & { serviceFrom: string };
  machine: { cores: number; memoryGb: number; freeMemoryGb: number; loadAverage: number[]; node: string; mariadb: string; innodbBufferPoolMb: number };
  datasets: Array<{ name: string; dialect: string; schools: number; rows: Record<string, number>; generateSeconds: number; generatedNow: boolean }>;
  bcrypt: BcryptBound | null;
  service: ScenarioResult[];
  ceilings: ScenarioResult[];
  oneSchool: ScenarioResult | null;
  rounds?: Round[];
  sqlite: ScenarioResult[];
  explain: Array<{ scenario: string; status: number; statements: StatementPlan[] }>;
  rssIdleMb?: number | null;
  seconds: number;
}

export const TARGETS = { ceilingShare: 0.7, p99Ms: 40, loginShare: 0.9, rssMb: 250, schoolsLatencyRatio: 1.3, roundsShare: 0.85, roundsP99Ratio: 1.2, roundsSchoolsRatio: 1.2 };

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? null : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** The ceiling's run of the same read in a round. */
const peerOf = (r: Round, which: 'feed' | 'board') => (which === 'board' ? r.boardCeiling : r.ceiling);

/** Each round's share of the ceiling's requests a second and p99 as a multiple of the ceiling's, for the feed or the board, and their medians. */
function roundRatios(rounds: Round[], which: 'feed' | 'board') {
  const each = rounds.flatMap((r) => {
    const peer = peerOf(r, which);
    const c = peer?.load;
    const s = r[which]?.load;
    return c && s && peer!.status === 'ok' && r[which]!.status === 'ok' ? [{ share: s.rps / c.rps, p99: s.p99 / c.p99 }] : [];
  });
  return { each, share: median(each.map((x) => x.share)), p99: median(each.map((x) => x.p99)) };
}

/** Each round's mean latency of the feed on the main data set as a multiple of one school's, and their median. */
function roundSchoolsRatios(rounds: Round[]) {
  const each = rounds.flatMap((r) => (r.feed.load && r.oneSchool?.load && r.feed.status === 'ok' && r.oneSchool.status === 'ok' ? [r.feed.load.mean / r.oneSchool.load.mean] : []));
  return { each, ratio: median(each) };
}

const pct = (x: number | null) => (x === null ? '—' : `${Math.round(x * 100)}%`);
const rps = (r?: ScenarioResult) => (r?.status === 'ok' && r.load ? r.load.rps : null);

export function derived(res: RunResults) {
  const node = rps(res.ceilings.find((c) => c.target === 'ceiling-node'));
  const express = rps(res.ceilings.find((c) => c.target === 'ceiling-express'));
  const feed = res.service.find((s) => s.id === 'parent-feed');
  const login = res.service.find((s) => s.id === 'login');
  const rssPeak = Math.max(0, ...res.service.map((s) => s.load?.rssPeakMb ?? 0)) || null;
  const oneMean = res.oneSchool?.load?.mean ?? null;
  const fullMean = feed?.load?.mean ?? null;
  return {
    node,
    express,
    feedVsNode: node && rps(feed) ? rps(feed)! / node : null,
    feedVsExpress: express && rps(feed) ? rps(feed)! / express : null,
    loginShare: res.bcrypt && rps(login) ? rps(login)! / res.bcrypt.comparesPerSecond : null,
    rssPeak,
    schoolsLatencyRatio: oneMean && fullMean ? fullMean / oneMean : null,
    roundsFeed: roundRatios(res.rounds ?? [], 'feed'),
    roundsBoard: roundRatios(res.rounds ?? [], 'board'),
    roundsSchools: roundSchoolsRatios(res.rounds ?? []),
    fullScans: res.explain.flatMap((e) => e.statements.flatMap((s) => s.fullScans.map((f) => `${e.scenario}: ${f}`))),
    // Every scenario reads or writes the database: one with no statement captured was not checked at all.
    uncaptured: res.explain.filter((e) => e.statements.length === 0).map((e) => e.scenario),
  };
}

const cpu = (l: ScenarioResult['load']) => (l?.cpuMsPerRequest == null ? '—' : `${l.cpuMsPerRequest}, ${l.dbCpuMsPerRequest ?? '—'}`);

function scenarioRows(list: ScenarioResult[], express: number | null): string[] {
  const rows = ['| scenario | request | req/s | p50 ms | p99 ms | ÷ Express ceiling | CPU ms/req (service, db) | peak RSS MB | result |', '|---|---|---:|---:|---:|---:|---:|---:|---|'];
  for (const r of list) {
    const l = r.load;
    const share = l && express && r.read ? pct(l.rps / express) : '—';
    const result = r.status === 'ok' ? 'ok' : `**failed**: ${(r.reason ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ')}`;
    rows.push(`| ${r.title} | \`${r.request}\` | ${l?.rps ?? '—'} | ${l?.p50 ?? '—'} | ${l?.p99 ?? '—'} | ${share} | ${cpu(l)} | ${l?.rssPeakMb ?? '—'} | ${result} |`);
  }
  return rows;
}

const mark = (ok: boolean | null) => (ok === null ? 'not measured' : ok ? 'met' : '**not met**');

/** The results as markdown: the tables, the targets, the data sets and the plans. */
export function markdown(res: RunResults): string {
  const d = derived(res);
  const m = res.machine;
  const out: string[] = [];
  out.push(`Run of ${res.startedAt} (${res.seconds} s): ${m.cores} cores, ${m.memoryGb} GB, Node ${m.node}, MariaDB ${m.mariadb} (buffer pool ${m.innodbBufferPoolMb} MB), load average at start ${m.loadAverage.join(' / ')}. ` +
    `${res.settings.connections} connections, ${res.settings.seconds} s measured after a ${res.settings.warmupSeconds} s warm-up; service run as ${res.settings.serviceFrom}.`);
  out.push('');
  out.push(`### MariaDB, ${res.datasets[0]?.schools ?? '?'} schools`);
  out.push('');
  out.push(...scenarioRows(res.service, d.express));
  out.push('');
  out.push('The "÷ Express ceiling" column divides each read by ceiling (b) of the parent feed; only the feed row is a like-for-like ratio.');
  out.push('');
  out.push('### Ceilings (parent feed)');
  out.push('');
  out.push('| server | req/s | p50 ms | p99 ms | CPU ms/req (server, db) | service as a share |');
  out.push('|---|---:|---:|---:|---:|---:|');
  for (const c of res.ceilings) {
    const share = c.target === 'ceiling-node' ? d.feedVsNode : d.feedVsExpress;
    out.push(`| ${c.target === 'ceiling-node' ? '(a) bare node:http + mysql2 prepared' : '(b) Express 5 + mysql2 prepared'} | ${c.load?.rps ?? c.reason} | ${c.load?.p50 ?? '—'} | ${c.load?.p99 ?? '—'} | ${cpu(c.load)} | ${pct(share)} |`);
  }
  out.push('');
  const rounds = res.rounds ?? [];
  if (rounds.length > 0) {
    out.push(`### Alternated rounds (parent feed and noticeboard, each against ceiling (b) serving it)`);
    out.push('');
    out.push(`The servers up side by side, taking turns: each round the feed on the Express ceiling and on the service, each server's ${res.settings.seconds} s measured in two halves placed symmetrically (ceiling, service, service, ceiling in odd rounds; service, ceiling, ceiling, service in even ones), one school's feed in halves just before and just after them, then the same for the noticeboard; each share and p99 multiple is within its round, the halves' responses pooled, against the ceiling's run of the same read.`);
    out.push('');
    out.push('| round | ceiling (b) feed req/s, p99 ms, CPU ms/req | feed req/s (share), p99 ms (÷ ceiling\'s), CPU ms/req | ceiling (b) noticeboard req/s, p99 ms, CPU ms/req | noticeboard req/s (share), p99 ms (÷), CPU ms/req | one school\'s feed: mean ms (feed\'s mean ÷ it) |');
    out.push('|---:|---:|---:|---:|---:|---:|');
    rounds.forEach((r, i) => {
      const peer = (x?: ScenarioResult) => (!x ? '—' : x.load ? `${x.load.rps}, ${x.load.p99}, ${x.load.cpuMsPerRequest ?? '—'}` : (x.reason ?? x.status));
      const cell = (which: 'feed' | 'board') => {
        const x = r[which];
        const c = peerOf(r, which)?.load;
        return !x ? '—' : !x.load || !c ? (x.reason ?? x.status) : `${x.load.rps} (${pct(x.load.rps / c.rps)}), ${x.load.p99} (${(x.load.p99 / c.p99).toFixed(2)}x), ${x.load.cpuMsPerRequest ?? '—'}`;
      };
      const o = r.oneSchool;
      const oneCell = !o ? '—' : o.load && r.feed.load ? `${o.load.mean} (${(r.feed.load.mean / o.load.mean).toFixed(2)}x)` : (o.reason ?? o.status);
      out.push(`| ${i + 1} | ${peer(r.ceiling)} | ${cell('feed')} | ${peer(r.boardCeiling)} | ${cell('board')} | ${oneCell} |`);
    });
    const med = (x: ReturnType<typeof roundRatios>) => (x.share === null ? '—' : `${pct(x.share)}, ${x.p99!.toFixed(2)}x`);
    out.push(`| median | | ${med(d.roundsFeed)} | | ${med(d.roundsBoard)} | ${d.roundsSchools.ratio === null ? '—' : `${d.roundsSchools.ratio.toFixed(2)}x`} |`);
    out.push('');
  }
  out.push('### Targets');
  out.push('');
  const reads = res.service.filter((s) => s.read && s.id !== 'console-list');
  const p99ok = res.service.filter((s) => s.id !== 'login' && s.load);
  out.push('| target | measured | verdict |');
  out.push('|---|---|---|');
  out.push(`| parent feed >= 70% of ceiling (b) | ${pct(d.feedVsExpress)} | ${mark(d.feedVsExpress === null ? null : d.feedVsExpress >= TARGETS.ceilingShare)} |`);
  out.push(`| every read >= 70% of ceiling (b) | ${reads.map((s) => `${s.id} ${s.load && d.express ? pct(s.load.rps / d.express) : s.status}`).join(', ')} | ${mark(d.express === null || reads.some((s) => !s.load) ? null : reads.every((s) => s.load!.rps / d.express! >= TARGETS.ceilingShare))} |`);
  // The ceilings' own p99 in the same run: what the machine allows the feed before any of the service's work.
  const ceilingP99 = res.ceilings.filter((c) => c.load).map((c) => `${c.target === 'ceiling-node' ? '(a)' : '(b)'} ${c.load!.p99}`).join(', ');
  out.push(`| p99 < 40 ms at ${res.settings.connections} connections (all but logins) | ${p99ok.map((s) => `${s.id} ${s.load!.p99}`).join(', ') || '—'}${ceilingP99 ? `; the feed's ceilings ${ceilingP99}` : ''} | ${mark(p99ok.length === 0 ? null : p99ok.every((s) => s.load!.p99 < TARGETS.p99Ms))} |`);
  for (const [label, x] of [['parent feed', d.roundsFeed], ['noticeboard', d.roundsBoard]] as const) {
    if (x.share === null) continue;
    out.push(`| ${label} >= ${pct(TARGETS.roundsShare)} of ceiling (b)'s ${label}, p99 within ${TARGETS.roundsP99Ratio}x of its (median of ${x.each.length} alternated rounds) | ${pct(x.share)}, ${x.p99!.toFixed(2)}x (rounds: ${x.each.map((e) => `${pct(e.share)} ${e.p99.toFixed(2)}x`).join('; ')}) | ${mark(x.share >= TARGETS.roundsShare && x.p99! <= TARGETS.roundsP99Ratio)} |`);
  }
  const sch = d.roundsSchools;
  if (sch.ratio !== null) {
    out.push(`| feed latency at ${res.datasets[0]?.schools} schools <= ${TARGETS.roundsSchoolsRatio}x one school (mean; median of ${sch.each.length} alternated rounds) | ${sch.ratio.toFixed(2)}x (rounds: ${sch.each.map((x) => `${x.toFixed(2)}x`).join('; ')}) | ${mark(sch.ratio <= TARGETS.roundsSchoolsRatio)} |`);
  }
  out.push(`| logins >= 90% of the bcrypt bound (${res.bcrypt?.comparesPerSecond ?? '?'} compares/s) | ${pct(d.loginShare)} | ${mark(d.loginShare === null ? null : d.loginShare >= TARGETS.loginShare)} |`);
  out.push(`| server RSS < 250 MB at load, console loaded | idle ${res.rssIdleMb ?? '?'} MB, peak ${d.rssPeak ?? '?'} MB | ${mark(d.rssPeak === null ? null : d.rssPeak < TARGETS.rssMb)} |`);
  const one = res.oneSchool?.load;
  const full = res.service.find((s) => s.id === 'parent-feed')?.load;
  out.push(`| feed latency at ${res.datasets[0]?.schools} schools <= 1.3x one school (mean) | ${full && one ? `${full.mean} ms vs ${one.mean} ms (p99 ${full.p99} vs ${one.p99}): ${d.schoolsLatencyRatio!.toFixed(2)}x` : '—'} | ${mark(d.schoolsLatencyRatio === null ? null : d.schoolsLatencyRatio <= TARGETS.schoolsLatencyRatio)} |`);
  const uncaptured = d.uncaptured.length > 0 ? `; no statement captured for ${d.uncaptured.join(', ')}` : '';
  out.push(`| EXPLAIN: no full scan of a large table | ${d.fullScans.length === 0 ? 'none' : d.fullScans.join('; ')}${uncaptured} | ${mark(res.explain.length === 0 || d.uncaptured.length > 0 ? null : d.fullScans.length === 0)} |`);
  out.push('');
  if (res.sqlite.length > 0) {
    out.push(`### Embedded SQLite, ${res.datasets.find((x) => x.dialect === 'sqlite')?.schools ?? '?'} schools`);
    out.push('');
    out.push(...scenarioRows(res.sqlite, null));
    out.push('');
  }
  out.push('### Data sets');
  out.push('');
  out.push('| data set | schools | rows | generated in |');
  out.push('|---|---:|---|---:|');
  for (const x of res.datasets) {
    const rows = Object.entries(x.rows).map(([t, n]) => `${t} ${n.toLocaleString('en')}`).join(', ');
    out.push(`| ${x.name} (${x.dialect}) | ${x.schools} | ${rows} | ${x.generateSeconds} s |`);
  }
  out.push('');
  out.push('### EXPLAIN plans (MariaDB, the statements the service ran for one request of each scenario)');
  out.push('');
  // The session check and other shared statements are shown once, where they first appear.
  const shownUnder = new Map<string, string>();
  for (const e of res.explain) {
    out.push(`#### ${e.scenario} (answered ${e.status})`);
    out.push('');
    for (const st of e.statements) {
      const first = shownUnder.get(shape(st.sql));
      if (first) {
        out.push(`- the same statement as under ${first}: \`${st.sql.replace(/\s+/g, ' ').slice(0, 90)}…\``);
        out.push('');
        continue;
      }
      shownUnder.set(shape(st.sql), e.scenario);
      out.push('```sql');
      out.push(st.sql.length > 1500 ? st.sql.slice(0, 1500) + ' …' : st.sql);
      out.push('```');
      if (st.note) out.push(`_${st.note}_`);
      if (st.plan) {
        out.push('');
        out.push('| id | select_type | table | type | key | rows | Extra |');
        out.push('|---|---|---|---|---|---:|---|');
        for (const p of st.plan) out.push(`| ${p.id ?? ''} | ${p.select_type} | ${p.table ?? ''} | ${p.type ?? ''} | ${p.key ?? ''} | ${p.rows ?? ''} | ${p.Extra ?? ''} |`);
      }
      out.push('');
    }
  }
  return out.join('\n');
}

/** Saves the raw results under bench/.data, and rewrites the README's results section for a full run. */
export function writeReport(res: RunResults, o: { readme: boolean }): void {
  mkdirSync(dataDir, { recursive: true });
  const name = res.smoke ? 'results-smoke' : 'results';
  writeFileSync(path.join(dataDir, `${name}.json`), JSON.stringify(res, (key, value) => (key === 'latencies' ? undefined : value), 2) + '\n');
  writeFileSync(path.join(dataDir, `${name}.md`), markdown(res) + '\n');
  if (!o.readme) return;
  writeReadmeSection('results', markdown(res));
}

export function printSummary(res: RunResults, log: (line: string) => void): void {
  const d = derived(res);
  log('== summary');
  for (const r of [...res.ceilings, ...res.service, ...(res.oneSchool ? [res.oneSchool] : []), ...res.sqlite]) {
    const l = r.load;
    log(`  ${r.target.padEnd(16)} ${r.id.padEnd(20)} ${r.status === 'ok' ? `${String(l!.rps).padStart(6)} req/s  p50 ${l!.p50} ms  p99 ${l!.p99} ms  cpu/req ${l!.cpuMsPerRequest} ms (db ${l!.dbCpuMsPerRequest ?? '—'})` : `FAILED ${r.reason}`}`);
  }
  log(`  feed vs ceiling (a) node:http ${pct(d.feedVsNode)}, (b) Express ${pct(d.feedVsExpress)}; logins ${pct(d.loginShare)} of bcrypt bound; peak RSS ${d.rssPeak ?? '?'} MB`);
  for (const [label, x] of [['feed', d.roundsFeed], ['board', d.roundsBoard]] as const) {
    if (x.share !== null) log(`  ${label} in ${x.each.length} alternated round(s), median: ${pct(x.share)} of ceiling (b)'s ${label}, p99 ${x.p99!.toFixed(2)}x its`);
  }
  if (d.roundsSchools.ratio !== null) log(`  feed mean latency in alternated rounds, ${res.datasets[0]?.schools} schools / one school, median: ${d.roundsSchools.ratio.toFixed(2)}x`);
  if (d.schoolsLatencyRatio !== null) log(`  feed mean latency, ${res.datasets[0]?.schools} schools / one school: ${d.schoolsLatencyRatio.toFixed(2)}x`);
  log(`  full scans in EXPLAIN: ${d.fullScans.length === 0 ? 'none' : d.fullScans.join('; ')}${d.uncaptured.length > 0 ? `; no statement captured for ${d.uncaptured.join(', ')}` : ''}`);
}
