/**
 * `npm run demo`: the service on a fresh embedded (SQLite) database in ./data-demo, recreated on every
 * run, with the demo school seeded (seeders/demo.ts); prints the sign-ins for each app and example
 * calls, then runs the real server (src/server.ts) until Ctrl-C.
 *
 * DATABASE_URL and DATA_DIR are ignored on purpose: the demo never touches a real database. Other
 * settings (PORT, HOST, ADMIN_CONSOLE_ENABLED, ...) apply as usual. `--data-dir DIR` picks another
 * folder; a folder the demo did not create is never deleted.
 */
import 'dotenv/config';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEMO_ADMIN_PASSWORD, demoCredentials, seedDemo } from '../seeders/demo.js';
import { createContext } from '../src/bootstrap.js';
import { ConfigError, loadConfig, type Config } from '../src/config.js';
import { createSchool } from '../src/services/schools/schools.js';

const SCHOOL_ID = 'demo';
const SCHOOL_NAME = 'Demo Public School';
const MARKER = '.school-platform-demo';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: flags } = parseArgs({ options: { 'data-dir': { type: 'string', default: path.join(root, 'data-demo') } } });
const dataDir = path.resolve(flags['data-dir']!);

/** A clean folder each run; only one that carries the demo's marker may be wiped. */
function recreateDataDir(): void {
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0 && !existsSync(path.join(dataDir, MARKER))) {
    throw new ConfigError(`${dataDir} exists and was not made by the demo: refusing to delete it (pass --data-dir to use another folder)`);
  }
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(path.join(dataDir, MARKER), 'Made by `npm run demo`; deleted and recreated on each run.\n');
}

const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' };

/** The address to print: a server listening on every interface is reached on the loopback one. */
function baseUrl(config: Config): string {
  const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

async function seed() {
  const config = loadConfig(env);
  const ctx = await createContext({ ...config, runJobs: false });
  try {
    const credentials = demoCredentials(SCHOOL_ID);
    await createSchool(ctx, {
      school_id: SCHOOL_ID,
      school_name: SCHOOL_NAME,
      admin: { name: 'Demo Administrator', email: credentials.admin.email, password: DEMO_ADMIN_PASSWORD },
    });
    const { counts } = await seedDemo(ctx, SCHOOL_ID);
    return { config, credentials, counts };
  } finally {
    await ctx.db.close();
  }
}

function banner({ config, credentials, counts }: Awaited<ReturnType<typeof seed>>): string {
  const base = baseUrl(config);
  const { admin, office, itContact, teacher, principal, parent } = credentials;
  const json = (body: unknown) => `'${JSON.stringify(body)}'`;
  return [
    '',
    `School platform demo: school "${SCHOOL_ID}" (${SCHOOL_NAME}) on a fresh database in ${path.relative(process.cwd(), dataDir) || dataDir}`,
    `  ${Object.entries(counts).map(([what, n]) => `${n} ${what.replace(/_/g, ' ')}`).join(', ')}`,
    '',
    config.adminConsoleEnabled ? `Admin console:  ${base}/admin   (sign in with any of the three web admin app sign-ins below)` : 'Admin console:  off (ADMIN_CONSOLE_ENABLED=false)',
    `API reference:  ${base}/docs`,
    '',
    'Sign-ins:',
    `  Web admin app  e-mail ${admin.email}, password ${admin.password}  (super_admin)`,
    `                 e-mail ${office.email}, password ${office.password}  (admin)`,
    `                 e-mail ${itContact.email}, password ${itContact.password}  (it_contact)`,
    `  Teachers app   phone ${teacher.phone_no}, PIN ${teacher.pin}, school ${SCHOOL_ID}  (${teacher.name}, ${teacher.designation})`,
    `                 phone ${principal.phone_no}, PIN ${principal.pin}, school ${SCHOOL_ID}  (${principal.name}, ${principal.designation})`,
    `  Parent app     phone ${parent.phone_no}, PIN ${parent.pin}  (${parent.father_name}, two children)`,
    '',
    'Try it:',
    '  # 1. sign in as the school admin and keep the token',
    `  TOKEN=$(curl -s -X POST ${base}/web-app/signin -H 'Content-Type: application/json' \\`,
    `    -d ${json({ email: admin.email, password: admin.password })} | node -pe 'JSON.parse(require("fs").readFileSync(0)).data.access_token')`,
    '  # 2. read the noticeboard with it',
    `  curl -s "${base}/web-app/noticeboard?school_id=${SCHOOL_ID}" -H "Authorization: Bearer $TOKEN"`,
    "  # 3. log in as a parent: the answer lists the parent's children",
    `  curl -s -X POST ${base}/parent-app/parent-auth-verification -H 'Content-Type: application/json' -d ${json({ phone_no: parent.phone_no, pin: parent.pin })}`,
    '',
    'Ctrl-C stops the server.',
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  recreateDataDir();
  const seeded = await seed();
  // The real server, as `npm start` runs it, on the database just seeded.
  const server = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/server.ts')], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
  const exited = new Promise<number>((resolve) => server.on('exit', (code, signal) => resolve(code ?? (signal ? 0 : 1))));
  const url = `${baseUrl(seeded.config)}/readyz`;
  for (;;) {
    if (server.exitCode !== null) break;
    if (await fetch(url).then((r) => r.ok, () => false)) {
      process.stdout.write(banner(seeded));
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  process.exitCode = await exited;
}

main().catch((err) => {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exitCode = 1;
});
