/**
 * `--profile`: the service and the ceilings run under V8's sampling profiler (`--cpu-prof`); each
 * thread writes a .cpuprofile into bench/.data/profiles/<process> when the process stops (open it in
 * Chrome DevTools), and the run prints where the main thread's samples fell, by package and by function.
 * (Under tsx the module loader has a thread of its own, mostly idle; the busiest profile is the main one.)
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { dataDir } from './layout.js';

export const profileDir = path.join(dataDir, 'profiles');

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

const slug = (name: string) => name.replace(/[^\w-]+/g, '-');

/** Node's flags for a process named `name`; earlier profiles of that name are removed. */
export function profileArgs(name: string): string[] {
  const dir = path.join(profileDir, slug(name));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return ['--cpu-prof', '--cpu-prof-dir', dir];
}

/** Where a frame's code lives: a package, the project, Node itself, or V8's own work (GC, idle, the program). */
function owner(url: string, functionName: string): string {
  if (!url) return `(${functionName || 'anonymous'})`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return 'node';
  const rel = /\/(src|bench|\.build\/src)\/(.*)$/.exec(url);
  return rel ? `${rel[1] === 'bench' ? 'bench' : 'src'}/${rel[2]!.split('/')[0]}` : url;
}

const share = (n: number, total: number) => `${((100 * n) / total).toFixed(1)}%`;

/** The top entries by self time, by owner and by function, as lines to print. */
export function summariseProfile(name: string, top = 25): string[] {
  const dir = path.join(profileDir, slug(name));
  const candidates = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile')).map((f) => {
    const file = path.join(dir, f);
    const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const self = new Map<number, number>();
    for (const id of profile.samples) self.set(id, (self.get(id) ?? 0) + 1);
    const idle = [...self].filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)').reduce((n, [, c]) => n + c, 0);
    return { file, profile, byId, self, idle, busy: profile.samples.length - idle };
  });
  if (candidates.length === 0) return [`  profile ${name}: none written (${dir})`];
  const { file, profile, byId, self, idle, busy } = candidates.sort((a, b) => b.busy - a.busy)[0]!;
  const owners = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const [id, count] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') continue;
    const who = owner(url, functionName);
    owners.set(who, (owners.get(who) ?? 0) + count);
    const fn = `${functionName || '(anonymous)'} ${who}${url ? `:${lineNumber + 1}` : ''}`;
    functions.set(fn, (functions.get(fn) ?? 0) + count);
  }
  const rank = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, top);
  return [
    `  profile ${name}: ${profile.samples.length} samples, ${share(idle, profile.samples.length)} idle; shares of the busy samples (${file})`,
    '    by owner:',
    ...rank(owners).map(([k, v]) => `      ${share(v, busy).padStart(6)}  ${k}`),
    '    by function (self):',
    ...rank(functions).map(([k, v]) => `      ${share(v, busy).padStart(6)}  ${k}`),
  ];
}
