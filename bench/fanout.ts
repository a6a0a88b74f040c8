/**
 * The fan-out benchmark (`npm run bench -- --only publish-fanout`; the smoke run too): a school-wide
 * notice to 10,000 families (two in five with a device, three in ten e-mail only, three in ten SMS
 * only) on MariaDB, in a fresh database. bench/fanout-instance.ts loads them, then is the instance, in
 * a fresh process of its own (built by tsc, as `npm start` runs the service); the gateways'
 * stand-ins (bench/fanout-stubs.ts) answer each message after 50 ms from this one.
 * Targets: every delivery record written in under 2 s, the outbox drained at 500 messages a second or
 * more, the instance under 250 MB resident.
 */
import { spawn, spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import mysql from 'mysql2/promise';
import type { FanoutFigures } from './fanout-instance.js';
import { startFanoutStubs } from './fanout-stubs.js';
import { benchDir, dataDir, MYSQL_ROOT_URL, repoRoot, writeReadmeSection } from './layout.js';

export const FANOUT_ID = 'publish-fanout';
const GATEWAY_DELAY_MS = 50;
export const fanoutTargets = { publishSeconds: 2, messagesPerSecond: 500, rssMb: 250 };

export interface FanoutResult extends FanoutFigures {
  gateway_delay_ms: number;
  gateways: { push: number; sms: number; email: number };
  verdicts: { publish: boolean; drain: boolean; memory: boolean; delivered: boolean };
}

function serviceAccount(dir: string): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const file = path.join(dir, 'service-account.json');
  writeFileSync(file, JSON.stringify({
    type: 'service_account', project_id: 'fanout-bench', private_key_id: 'bench', private_key: privateKey, client_email: 'push@fanout-bench.iam.gserviceaccount.com',
    client_id: '1', token_uri: 'https://oauth2.googleapis.com/token',
  }));
  return file;
}

/**
 * The instance as `npm start` runs the service: compiled by tsc (with the service's build settings)
 * and run by node. Run by tsx instead, its loader thread and source maps would add about 30 MB and
 * a stack trace's cost wherever one is made.
 */
function buildInstance(): string {
  const out = path.join(benchDir, '.build', 'fanout');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const config = path.join(out, 'tsconfig.json');
  writeFileSync(config, JSON.stringify({
    extends: path.join(repoRoot, 'tsconfig.build.json'),
    compilerOptions: { outDir: out, rootDir: repoRoot },
    include: ['src', 'migrations', 'seeders'].map((d) => path.join(repoRoot, d)),
    files: [path.join(benchDir, 'fanout-instance.ts')],
  }));
  const tsc = path.join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', config], { cwd: repoRoot, encoding: 'utf8' });
  const entry = path.join(out, 'bench', 'fanout-instance.js');
  if (!existsSync(entry)) throw new Error(`the build produced no ${entry}:\n${r.stdout}${r.stderr}`);
  return entry;
}

function runInstance(env: NodeJS.ProcessEnv, entry: string | null, nodeFlags: string[], step: 'setup' | 'run'): Promise<FanoutFigures | null> {
  return new Promise((resolve, reject) => {
    const script = entry ? [entry] : ['--import', 'tsx', path.join(benchDir, 'fanout-instance.ts')];
    const child = spawn(process.execPath, [...nodeFlags, ...script, step], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const last = stdout.trim().split('\n').at(-1) ?? '';
      if (code === 0 && step === 'setup') resolve(null);
      else if (code === 0 && last.startsWith('{')) resolve(JSON.parse(last) as FanoutFigures);
      else reject(new Error(`the fan-out instance exited ${code}: ${stderr.slice(-2000) || stdout.slice(-2000)}`));
    });
  });
}

/** `nodeFlags` (run.ts's --node-flags): the instance run with them, `--cpu-prof` say. */
export async function benchFanout(options: { families: number; smoke: boolean; nodeFlags: string[]; log: (line: string) => void }): Promise<FanoutResult> {
  const name = options.smoke ? 'sp_bench_fanout_smoke' : 'sp_bench_fanout';
  const dir = path.join(dataDir, `${name}-run`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const conn = await mysql.createConnection(MYSQL_ROOT_URL);
  await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
  await conn.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4`);
  await conn.end();
  const stubs = await startFanoutStubs(GATEWAY_DELAY_MS);
  try {
    const secret = 'fanout-bench-secret-0123456789abcdef';
    const env = {
      PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: 'production', LOG_LEVEL: 'silent',
      DATABASE_URL: `${MYSQL_ROOT_URL}/${name}`, DATA_DIR: dir, JWT_SECRET: secret, ADMIN_COOKIE_SECRET: secret, PUBLIC_APP_URL: 'https://school.bench.example',
      PUSH_PROVIDER: 'fcm', FCM_SERVICE_ACCOUNT_FILE: serviceAccount(dir), HTTPS_PROXY: stubs.proxyUrl,
      SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: `AC${'0123456789abcdef'.repeat(2)}`, TWILIO_AUTH_TOKEN: 'fanout-bench-auth-token', TWILIO_FROM: '+15005550006',
      SMTP_URL: `smtp://127.0.0.1:${stubs.smtpPort}`, MAIL_FROM: 'news@school.bench.example',
      NODE_EXTRA_CA_CERTS: stubs.ca.caFile, FANOUT_FAMILIES: String(options.families),
    };
    // The families are loaded by one process, and the notice published and drained by a fresh one: the
    // instance, built as the service is, except in the smoke run, which checks the harness from source.
    const entry = options.smoke ? null : buildInstance();
    await runInstance(env, entry, [], 'setup');
    const figures = (await runInstance(env, entry, options.nodeFlags, 'run'))!;
    const gateways = stubs.counts();
    const result: FanoutResult = {
      ...figures, gateway_delay_ms: GATEWAY_DELAY_MS, gateways,
      verdicts: {
        publish: figures.publish_seconds < fanoutTargets.publishSeconds,
        drain: figures.messages_per_second >= fanoutTargets.messagesPerSecond,
        memory: figures.rss_peak_mb < fanoutTargets.rssMb,
        delivered: figures.failed === 0 && figures.sent === figures.records && gateways.push + gateways.sms + gateways.email === figures.sent,
      },
    };
    options.log(
      `  ${figures.families} families, ${figures.records} records written in ${figures.publish_seconds} s; drained in ${figures.drain_seconds} s ` +
      `(${figures.messages_per_second} messages/s: push ${gateways.push}, e-mail ${gateways.email}, SMS ${gateways.sms}); RSS idle ${figures.rss_idle_mb} MB, peak ${figures.rss_peak_mb} MB`,
    );
    if (!result.verdicts.delivered) throw new Error(`the fan-out did not deliver every record: ${JSON.stringify(result)}`);
    return result;
  } finally {
    await stubs.close();
  }
}

const verdict = (met: boolean) => (met ? 'met' : '**not met**');

/** Rewrites the fan-out section of bench/README.md with this run's figures. */
export function writeFanoutReport(r: FanoutResult, facts: string): void {
  const table = [
    '| measure | figure | target | verdict |',
    '|---|---:|---|---|',
    `| delivery records written by the publish (${r.families.toLocaleString('en')} families: ${r.mix.device.toLocaleString('en')} with a device, ${r.mix.email.toLocaleString('en')} e-mail, ${r.mix.sms.toLocaleString('en')} SMS) | ${r.records.toLocaleString('en')} in ${r.publish_seconds} s | < ${fanoutTargets.publishSeconds} s | ${verdict(r.verdicts.publish)} |`,
    `| drained by one instance, gateways answering in ${r.gateway_delay_ms} ms (push ${r.gateways.push.toLocaleString('en')}, e-mail ${r.gateways.email.toLocaleString('en')}, SMS ${r.gateways.sms.toLocaleString('en')}) | ${r.messages_per_second} messages/s (${r.drain_seconds} s) | >= ${fanoutTargets.messagesPerSecond} | ${verdict(r.verdicts.drain)} |`,
    `| instance resident memory (started with its gateway clients, peak) | ${r.rss_idle_mb} MB, ${r.rss_peak_mb} MB | < ${fanoutTargets.rssMb} MB | ${verdict(r.verdicts.memory)} |`,
  ];
  writeReadmeSection('fanout', `${facts}\n\n${table.join('\n')}`);
}
