import { QueryTypes } from 'sequelize';
import type { Database } from '../src/db.js';
import { Session } from '../src/models/index.js';
import { hashSecret, newSecret, TokenSigner } from '../src/services/auth/tokens.js';
import {
  adminEmail, adminId, BENCH_PASSWORD, BENCH_PIN, childrenOfParent, parentId, parentPhone, perSchool, rng, schoolId, staffId, studentId,
} from './layout.js';
import type { Call } from './load.js';

const json = { 'content-type': 'application/json' };
const behindTls = { 'x-forwarded-proto': 'https' };

interface Account {
  schoolId: string;
  userId: number;
  token: string;
}
interface ParentAccount extends Account {
  children: number[];
  activityId: number | null;
}

/** Signed-in accounts spread over every school of the data set, each with a session row of its own. */
export interface Identities {
  parents: ParentAccount[];
  staff: Account[];
  admins: Account[];
  logins: Array<{ phone_no: string; school_id: string }>;
  consoleCookies: string[];
  consoleError: string | null;
  consoleAccounts: Array<{ email: string; password: string }>;
}

export interface IdentityCounts {
  parents: number;
  staff: number;
  admins: number;
  logins: number;
  consoles: number;
}

/**
 * Mints sessions the way a login would (a sessions row holding the token's hash, a JWT signed with
 * the server's secret) without paying bcrypt for each: the login scenario measures that on its own.
 */
export async function mintIdentities(db: Database, jwtSecret: string, schools: number, n: IdentityCounts): Promise<Identities> {
  const signer = new TokenSigner(jwtSecret);
  const r = rng(schools * 7919 + n.parents);
  const now = new Date();
  const expires = new Date(now.getTime() + 7 * 86_400_000);
  const rows: Array<Record<string, unknown>> = [];
  const mint = (type: 'parent' | 'staff' | 'admin', school: number, userId: number): Account => {
    const secret = newSecret();
    rows.push({
      school_id: schoolId(school), token_hash: hashSecret(secret), user_type: type, user_id: userId, device_name: 'bench', user_agent: 'autocannon',
      ip: '127.0.0.1', last_seen_at: now, expires_at: expires, active: true,
    });
    return {
      schoolId: schoolId(school),
      userId,
      token: signer.sign({ sub: String(userId), school_id: schoolId(school), type, session_token: secret }, expires),
    };
  };

  // Round-robin over the schools, a random account within each, so every school takes its share.
  const newest = new Map<number, number | null>();
  const parents: ParentAccount[] = [];
  for (let i = 0; i < n.parents; i++) {
    const school = i % schools;
    const k = Math.floor(r() * perSchool.parents);
    const account = mint('parent', school, parentId(school, k));
    parents.push({ ...account, children: childrenOfParent(k).map((c) => studentId(school, c)), activityId: null });
    newest.set(school, null);
  }
  // Class and subject teachers (local 1-25) are the staff with assigned students.
  const staff = Array.from({ length: n.staff }, (_, i) => mint('staff', i % schools, staffId(i % schools, 1 + Math.floor(r() * 25))));
  const admins = Array.from({ length: n.admins }, (_, i) => mint('admin', i % schools, adminId(i % schools, i % 2)));
  for (let i = 0; i < rows.length; i += 1000) await Session.bulkCreate(rows.slice(i, i + 1000) as never[]);

  for (const school of newest.keys()) {
    const [row] = await db.sequelize.query<{ id: number }>(
      `SELECT id FROM activities WHERE school_id = :school AND status = 'published' AND deleted_status = 0 AND audience_scope = 0
        ORDER BY created_at DESC, id DESC LIMIT 1`,
      { replacements: { school: schoolId(school) }, type: QueryTypes.SELECT },
    );
    newest.set(school, row ? Number(row.id) : null);
  }
  for (const p of parents) p.activityId = newest.get(Number(p.schoolId.slice(-4)) - 1) ?? null;

  const logins = Array.from({ length: n.logins }, (_, i) => {
    const school = i % schools;
    return { phone_no: parentPhone(parentId(school, Math.floor(r() * perSchool.parents))), school_id: schoolId(school) };
  });
  const consoleAccounts = Array.from({ length: n.consoles }, (_, i) => ({ email: adminEmail(i % schools, 0), password: BENCH_PASSWORD }));
  return { parents, staff, admins, logins, consoleCookies: [], consoleError: null, consoleAccounts };
}

/**
 * Signs in to the AdminJS console as a browser would (a form post) and keeps each session cookie.
 * Under NODE_ENV=production the cookie is Secure: the requests say they came through a TLS proxy,
 * as they do in production, or no cookie would be set over plain HTTP.
 */
export async function consoleSignIn(baseUrl: string, ids: Identities): Promise<void> {
  ids.consoleCookies = [];
  ids.consoleError = null;
  for (const account of ids.consoleAccounts) {
    const res = await fetch(`${baseUrl}/admin/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...behindTls },
      body: new URLSearchParams(account).toString(),
    });
    const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
    if (res.status >= 400 || cookies.length === 0) {
      ids.consoleError = `POST /admin/login answered ${res.status}${cookies.length === 0 ? ' without a cookie' : ''}`;
      return;
    }
    ids.consoleCookies.push(cookies.join('; '));
  }
}

export interface Scenario {
  id: string;
  title: string;
  /** A read is held to the ceiling target; a write or a login is not. */
  read: boolean;
  request: string;
  /** A floor on the measured seconds, for requests slow enough that a short run would catch none. */
  minSeconds?: number;
  /** Why the scenario cannot run with these identities, if it cannot. */
  unavailable?(ids: Identities): string | null;
  next(ids: Identities): () => Call;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const searches = ['asha', 'rao', 'priya', 'sharma', 'kiran', '12', 'nair', 'vikram'];

/** Rotates over a list across all connections, so consecutive requests come from different accounts and schools. */
function rotate<T>(list: T[], make: (item: T, i: number) => Call): () => Call {
  let i = 0;
  return () => {
    const n = i++;
    return make(list[n % list.length]!, n);
  };
}

export const scenarios: Scenario[] = [
  {
    id: 'parent-feed', title: 'Parent activity feed', read: true, request: 'GET /parent-app/activities',
    next: (ids) => rotate(ids.parents, (p) => ({ method: 'GET', path: '/parent-app/activities', headers: bearer(p.token) })),
  },
  {
    id: 'parent-noticeboard', title: 'Parent noticeboard', read: true, request: 'GET /parent-app/noticeboard',
    next: (ids) => rotate(ids.parents, (p) => ({ method: 'GET', path: '/parent-app/noticeboard', headers: bearer(p.token) })),
  },
  {
    id: 'teacher-students', title: 'Teacher students list', read: true, request: 'GET /teachers-app/students?school_id=',
    next: (ids) => rotate(ids.staff, (s) => ({ method: 'GET', path: `/teachers-app/students?school_id=${s.schoolId}`, headers: bearer(s.token) })),
  },
  {
    id: 'web-students-search', title: 'Web students list with a search', read: true, request: 'GET /web-app/students?school_id=&search=',
    next: (ids) => rotate(ids.admins, (a, i) => ({
      method: 'GET', path: `/web-app/students?school_id=${a.schoolId}&search=${searches[i % searches.length]}`, headers: bearer(a.token),
    })),
  },
  {
    id: 'write-to-create', title: 'Write-to create', read: false, request: 'POST /parent-app/write-to',
    next: (ids) => rotate(ids.parents, (p, i) => ({
      method: 'POST', path: '/parent-app/write-to', headers: { ...json, ...bearer(p.token) },
      body: JSON.stringify({ type: 'query', student_id: p.children[i % p.children.length], subject: `Bench question ${i}`, message: 'When is the next parents meeting?' }),
    })),
  },
  {
    id: 'reaction-toggle', title: 'Reaction toggle', read: false, request: 'POST /parent-app/engagement/react',
    unavailable: (ids) => (ids.parents.some((p) => p.activityId !== null) ? null : 'no published activity to react to'),
    next: (ids) => rotate(ids.parents.filter((p) => p.activityId !== null), (p) => ({
      method: 'POST', path: '/parent-app/engagement/react', headers: { ...json, ...bearer(p.token) },
      body: JSON.stringify({ entity_type: 'activity', entity_id: p.activityId, reaction_type: 'like' }),
    })),
  },
  {
    id: 'login', title: 'Parent login (bcrypt cost 10)', read: false, request: 'POST /parent-app/parent-auth-verification', minSeconds: 3,
    next: (ids) => rotate(ids.logins, (l) => ({
      method: 'POST', path: '/parent-app/parent-auth-verification', headers: { ...json }, body: JSON.stringify({ ...l, pin: BENCH_PIN }),
    })),
  },
  {
    id: 'console-list', title: 'Console list page (AdminJS API)', read: true, request: 'GET /admin/api/resources/students/actions/list',
    unavailable: (ids) => ids.consoleError,
    next: (ids) => rotate(ids.consoleCookies, (cookie) => ({ method: 'GET', path: '/admin/api/resources/students/actions/list', headers: { cookie, ...behindTls } })),
  },
];
