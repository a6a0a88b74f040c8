import type { AppContext } from '../../context.js';
import { AppError, forbidden, unauthorized } from '../../errors.js';
import { parseJson } from '../../db.js';
import { AdminUser, School } from '../../models/index.js';
import { effectiveRbac, type Feature, type Level, type Rbac } from '../access/rbac.js';
import { assertNotLocked, clearFailures, recordFailure, type LockKey } from './lockout.js';
import { verifySecretValue } from './passwords.js';
import { recordAudit } from '../audit/audit.js';
import { accountEntity, issueSession, type DeviceInfo, type IssuedSession } from './sessions.js';

const BAD_CREDENTIALS = 'Invalid phone number or PIN';

/** An account a sign-in names by its phone or e-mail. */
interface Named {
  type: 'parent' | 'staff' | 'admin';
  id: number;
  schoolId: string | null;
  name?: string | null;
}

/**
 * A failed sign-in's events, each under the school of an account it named and with that account as
 * the actor; one that names no account is recorded once, with no school.
 */
async function recordFailedSignIn(action: 'login.failure' | 'login.lockout', type: Named['type'], accounts: Named[]): Promise<void> {
  const named: Array<Named | { type: Named['type']; id: null; schoolId: null; name?: undefined }> = accounts.length ? accounts : [{ type, id: null, schoolId: null }];
  await recordAudit(named.map((a) => ({
    schoolId: a.schoolId, action, entityType: accountEntity[a.type], entityId: a.id,
    actor: { actorType: a.type, actorId: a.id === null ? null : String(a.id), actorName: a.name ?? null },
  })));
}

/**
 * A sign-in's attempt fills `named` with the accounts its phone or e-mail names, then checks the
 * secret; with `lookupOnly` it stops before the check (a locked-out attempt is still recorded).
 */
type Attempt<T> = (named: Named[], lookupOnly: boolean) => Promise<T | null>;

/**
 * Sign-ins of one account (its phone or e-mail), judged one after another in this process: a burst
 * of guesses sent at once is not all checked before the first failures are counted, so the fifth
 * locks the rest out. Across instances the count can overshoot by at most one attempt each.
 */
const signingIn = new Map<string, Promise<unknown>>();
async function oneAtATime<T>(account: string, work: () => Promise<T>): Promise<T> {
  const mine = (signingIn.get(account) ?? Promise.resolve()).then(work);
  const settled = mine.catch(() => undefined);
  signingIn.set(account, settled);
  try {
    return await mine;
  } finally {
    if (signingIn.get(account) === settled) signingIn.delete(account);
  }
}

/** A sign-in's attempt under the lock-out of every account it may be for: locked if any is, a failure counted on each. */
function guarded<T>(ctx: AppContext, keys: LockKey[], type: Named['type'], attempt: Attempt<T>, message = BAD_CREDENTIALS): Promise<T> {
  return oneAtATime(keys[0]!.account, () => judged(ctx, keys, type, attempt, message));
}

async function judged<T>(ctx: AppContext, keys: LockKey[], type: Named['type'], attempt: Attempt<T>, message: string): Promise<T> {
  const named: Named[] = [];
  let hadFailures = false;
  try {
    for (const key of keys) if (await assertNotLocked(ctx, key)) hadFailures = true;
  } catch (err) {
    await attempt(named, true);
    await recordFailedSignIn('login.failure', type, named);
    throw err;
  }
  let result: T | null;
  try {
    result = await attempt(named, false);
  } catch (err) {
    // The right secret, but not enough to sign in (a phone at several schools): a failed sign-in too.
    if (err instanceof AppError) await recordFailedSignIn('login.failure', type, named);
    throw err;
  }
  if (result === null) {
    // The failure count is its own statement, as before: held in a transaction with the events,
    // concurrent failed sign-ins on MySQL deadlock on the lock-out table's unique key.
    let locked = false;
    for (const key of keys) if (await recordFailure(ctx, key)) locked = true;
    await recordFailedSignIn('login.failure', type, named);
    if (locked) await recordFailedSignIn('login.lockout', type, named);
    throw unauthorized(message);
  }
  // Most logins have no failures on record: skip the write (a commit, so an fsync on MySQL).
  if (hadFailures) for (const key of keys) await clearFailures(ctx, key);
  return result;
}

/** A sign-in refused after its secret matched (a suspended school, a disabled account) is a failed sign-in all the same. */
async function refuse(account: Named, err: AppError): Promise<never> {
  await recordFailedSignIn('login.failure', account.type, [account]);
  throw err;
}

/** Why the account's school takes no sign-in, if it does not. */
async function schoolRefusal(ctx: AppContext, schoolId: string): Promise<AppError | null> {
  const [school] = await ctx.db.select<{ status: string }>('SELECT status FROM schools WHERE id = :id', { id: schoolId });
  if (!school) return unauthorized(BAD_CREDENTIALS);
  return school.status === 'active' ? null : forbidden('School access is suspended');
}

async function assertSchoolActive(ctx: AppContext, account: Named): Promise<void> {
  const refusal = await schoolRefusal(ctx, account.schoolId!);
  if (refusal) await refuse(account, refusal);
}

export interface ParentLoginInput extends DeviceInfo {
  phone_no: string;
  pin: string;
  school_id?: string;
}

export interface ChildEntry {
  id: number;
  name: string;
  roll_no: string;
  grade: string;
  status: string;
}

/** Every child linked to the parent that is not archived, by id. */
export async function childrenOf(ctx: AppContext, schoolId: string, parentId: number): Promise<ChildEntry[]> {
  const rows = await ctx.db.select<{ id: number; student_full_name: string; roll_no: string; grade: string; status: string }>(
    `SELECT id, student_full_name, roll_no, grade, status FROM students
      WHERE school_id = :school AND parent_id = :parent AND status <> :archived ORDER BY id ASC`,
    { school: schoolId, parent: parentId, archived: 'archived' },
  );
  return rows.map((s) => ({ id: Number(s.id), name: s.student_full_name, roll_no: s.roll_no, grade: s.grade, status: s.status }));
}

/**
 * The lock-outs a parent's sign-in counts on: the account's in its school, whether or not the app
 * sent school_id (without it, of every school the phone is a parent at), so that leaving school_id
 * out is no second set of guesses; a phone of no parent is counted on its own.
 */
async function parentLockKeys(ctx: AppContext, input: ParentLoginInput): Promise<LockKey[]> {
  const account = `parent:${input.phone_no}`;
  if (input.school_id) return [{ schoolId: input.school_id, account }];
  const schools = await ctx.db.select<{ school_id: string }>('SELECT DISTINCT school_id FROM parents WHERE phone_no = :phone', { phone: input.phone_no });
  return (schools.length ? schools.map((s) => s.school_id) : ['']).map((schoolId) => ({ schoolId, account }));
}

export async function parentLogin(ctx: AppContext, input: ParentLoginInput, device: DeviceInfo) {
  const parent = await guarded(ctx, await parentLockKeys(ctx, input), 'parent', async (named, lookupOnly) => {
    // Bound statements rather than models here: beside its bcrypt compare, a login's cost is its statements.
    const candidates = await ctx.db.select<{ id: number; school_id: string; father_name: string; pin_hash: string | null }>(
      `SELECT id, school_id, father_name, pin_hash FROM parents WHERE phone_no = :phone${input.school_id ? ' AND school_id = :school' : ''}`,
      input.school_id ? { phone: input.phone_no, school: input.school_id } : { phone: input.phone_no },
    );
    named.push(...candidates.map((c) => ({ type: 'parent' as const, id: Number(c.id), schoolId: c.school_id, name: c.father_name })));
    if (lookupOnly) return null;
    if (candidates.length === 0) {
      await verifySecretValue(input.pin, null);
      return null;
    }
    const matches: typeof candidates = [];
    for (const c of candidates) if (await verifySecretValue(input.pin, c.pin_hash)) matches.push(c);
    if (matches.length > 1) {
      const schools = await School.findAll({ where: { id: matches.map((m) => m.school_id) }, attributes: ['id', 'name'], raw: true });
      throw new AppError('BAD_REQUEST', 'This phone is registered at several schools: send school_id', {
        schools: schools.map((s) => ({ school_id: s.id, name: s.name })),
      });
    }
    return matches[0] ?? null;
  });
  const parentId = Number(parent.id);
  const account: Named = { type: 'parent', id: parentId, schoolId: parent.school_id, name: parent.father_name };
  await assertSchoolActive(ctx, account);
  const session = await issueSession(ctx, account, device);
  return {
    ...publicSession(session),
    parent: { id: parentId, father_name: parent.father_name, school_id: parent.school_id },
    children: await childrenOf(ctx, parent.school_id, parentId),
  };
}

export interface StaffLoginInput {
  phone_no: string;
  pin: string;
  school_id: string;
}

export async function staffLogin(ctx: AppContext, input: StaffLoginInput, device: DeviceInfo) {
  const key: LockKey = { schoolId: input.school_id, account: `staff:${input.phone_no}` };
  const staff = await guarded(ctx, [key], 'staff', async (named, lookupOnly) => {
    const [row] = await ctx.db.select<StaffLoginRow>(
      `SELECT st.id, st.school_id, st.name, st.designation, st.status, st.rbac, st.pin_hash, d.rbac AS designation_rbac
         FROM staff st LEFT JOIN designations d ON d.school_id = st.school_id AND d.name = st.designation
        WHERE st.school_id = :school AND st.phone_no = :phone`,
      { school: input.school_id, phone: input.phone_no },
    );
    if (row) named.push({ type: 'staff', id: Number(row.id), schoolId: row.school_id, name: row.name });
    if (lookupOnly) return null;
    return (await verifySecretValue(input.pin, row?.pin_hash)) ? row! : null;
  });
  const id = Number(staff.id);
  const account: Named = { type: 'staff', id, schoolId: staff.school_id, name: staff.name };
  await assertSchoolActive(ctx, account);
  if (Number(staff.status) !== 1) await refuse(account, forbidden('This staff account is disabled'));
  const session = await issueSession(ctx, account, device);
  const rbac: Record<Feature, Level> = effectiveRbac(parseJson<Rbac>(staff.designation_rbac), parseJson<Rbac>(staff.rbac));
  return {
    ...publicSession(session),
    staff: { id, name: staff.name, designation: staff.designation, school_id: staff.school_id, rbac },
  };
}

interface StaffLoginRow {
  id: number;
  school_id: string;
  name: string;
  designation: string | null;
  status: number;
  rbac: string | null;
  pin_hash: string | null;
  designation_rbac: string | null;
}

export interface AdminLoginInput {
  email: string;
  password: string;
}

/** Checks an admin's e-mail and password with the lock-out; shared by /web-app/signin and the console. */
export async function verifyAdminCredentials(ctx: AppContext, input: AdminLoginInput): Promise<AdminUser> {
  const email = input.email.trim().toLowerCase();
  const admin = await guarded(
    ctx,
    [{ schoolId: '', account: `admin:${email}` }],
    'admin',
    async (named, lookupOnly) => {
      const row = await AdminUser.findOne({ where: { email } });
      if (row) named.push({ type: 'admin', id: row.id, schoolId: row.school_id, name: row.name });
      if (lookupOnly) return null;
      return (await verifySecretValue(input.password, row?.password_hash)) ? row : null;
    },
    'Invalid email or password',
  );
  if (admin.school_id) await assertSchoolActive(ctx, { type: 'admin', id: admin.id, schoolId: admin.school_id, name: admin.name });
  return admin;
}

export async function adminLogin(ctx: AppContext, input: AdminLoginInput, device: DeviceInfo) {
  const admin = await verifyAdminCredentials(ctx, input);
  if (admin.role === 'platform_admin' || !admin.school_id) {
    await refuse({ type: 'admin', id: admin.id, schoolId: admin.school_id, name: admin.name }, forbidden('The platform administrator signs in to the admin console only'));
  }
  const session = await issueSession(ctx, { type: 'admin', id: admin.id, schoolId: admin.school_id, name: admin.name }, device);
  return {
    ...publicSession(session),
    user: { id: admin.id, name: admin.name, email: admin.email, role: admin.role, school_id: admin.school_id },
  };
}

const publicSession = (s: IssuedSession) => ({ access_token: s.access_token, token_type: s.token_type, expires_at: s.expires_at });
