import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Principal } from '../../src/context.js';
import { Session } from '../../src/models/index.js';
import type { UserType } from '../../src/models/session.js';
import { operatorPrincipal } from '../../src/services/access/guards.js';
import { mayEndSession, revokeSessionById } from '../../src/services/auth/sessions.js';
import { consoleApi, noticeOf, signInConsole } from '../admin/console-client.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { adminUser, bearer, expectError, parent, parentLogin, school, staffLogin, staffMember, type SchoolFixture } from '../helpers/fixtures.js';

/**
 * Who may end another account's session: a super_admin any of its school; an admin or it_contact
 * those of parents, of staff and its own, never another admin user's; the operator any. One rule,
 * in the service every door calls.
 */
let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;

beforeAll(async () => {
  t = await startTestApp({ ADMIN_CONSOLE_ENABLED: 'true' });
  a = await school(t);
  b = await school(t);
});
afterAll(async () => t.close());

type Role = 'super_admin' | 'admin' | 'it_contact';
interface Account { type: UserType; id: number; token: string; app: string }

async function account(fixture: SchoolFixture, kind: Role | 'parent' | 'staff'): Promise<Account> {
  if (kind === 'parent') {
    const p = await parent(t.ctx, fixture.schoolId);
    return { type: 'parent', id: p.id, token: await parentLogin(t, p.phone, p.pin, fixture.schoolId), app: 'parent-app' };
  }
  if (kind === 'staff') {
    const s = await staffMember(fixture.schoolId);
    return { type: 'staff', id: s.id, token: await staffLogin(t, s.phone, s.pin, fixture.schoolId), app: 'teachers-app' };
  }
  const admin = await adminUser(t, fixture.schoolId, kind);
  return { type: 'admin', id: admin.id, token: admin.token, app: 'web-app' };
}

const sessionOf = async (who: Account) => (await Session.findOne({ where: { user_type: who.type, user_id: who.id, active: true }, order: [['id', 'DESC']], raw: true }))!.id;
const principalOf = (who: Account, fixture: SchoolFixture, role?: Role): Principal => ({ type: who.type, userId: who.id, schoolId: fixture.schoolId, sessionId: 0, ...(role ? { role } : {}) });
const stillIn = async (who: Account) => (await t.api.get(`/${who.app}/sessions`).query(who.type === 'staff' ? { school_id: a.schoolId } : {}).set(bearer(who.token))).status;

describe('revokeSessionById, the rule every door uses', () => {
  it('lets a super_admin end any session of its school: a parent\'s, a staff member\'s, another admin\'s', async () => {
    const head = await account(a, 'super_admin');
    for (const kind of ['parent', 'staff', 'admin', 'it_contact', 'super_admin'] as const) {
      const target = await account(a, kind);
      await revokeSessionById(t.ctx, principalOf(head, a, 'super_admin'), await sessionOf(target));
      expect(await stillIn(target)).toBe(401);
    }
  });

  it("lets an admin or an it_contact end a parent's, a staff member's and its own, and refuses another admin user's with a sentence, leaving it active", async () => {
    for (const role of ['admin', 'it_contact'] as const) {
      const me = await account(a, role);
      for (const kind of ['parent', 'staff'] as const) {
        const target = await account(a, kind);
        await revokeSessionById(t.ctx, principalOf(me, a, role), await sessionOf(target));
        expect(await stillIn(target)).toBe(401);
      }
      for (const kind of ['super_admin', 'admin', 'it_contact'] as const) {
        const other = await account(a, kind);
        await expect(revokeSessionById(t.ctx, principalOf(me, a, role), await sessionOf(other)))
          .rejects.toMatchObject({ status: 403, message: "Only a super admin can end another admin's session" });
        expect(await stillIn(other)).toBe(200);
      }
      await revokeSessionById(t.ctx, principalOf(me, a, role), await sessionOf(me));
      expect(await stillIn(me)).toBe(401);
    }
  });

  it("lets the operator end any session of any school; another school's session is 404 to a school's admin", async () => {
    const theirs = await account(b, 'super_admin');
    const head = await account(a, 'super_admin');
    await expect(revokeSessionById(t.ctx, principalOf(head, a, 'super_admin'), await sessionOf(theirs))).rejects.toMatchObject({ status: 404 });
    expect(await stillIn(theirs)).toBe(200);
    await revokeSessionById(t.ctx, operatorPrincipal(b.schoolId), await sessionOf(theirs));
    expect(await stillIn(theirs)).toBe(401);
  });

  it('lets a parent or a staff member end only their own', async () => {
    const p = await account(a, 'parent');
    const s = await account(a, 'staff');
    await expect(revokeSessionById(t.ctx, principalOf(p, a), await sessionOf(s))).rejects.toMatchObject({ status: 403 });
    await expect(revokeSessionById(t.ctx, principalOf(s, a), await sessionOf(p))).rejects.toMatchObject({ status: 403 });
    expect([await stillIn(p), await stillIn(s)]).toEqual([200, 200]);
  });

  it('answers, for the console, whether a session may be ended', () => {
    const admin: Principal = { type: 'admin', userId: 7, schoolId: a.schoolId, sessionId: 0, role: 'admin' };
    expect(mayEndSession(admin, { user_type: 'parent', user_id: 7 })).toBe(true);
    expect(mayEndSession(admin, { user_type: 'staff', user_id: 3 })).toBe(true);
    expect(mayEndSession(admin, { user_type: 'admin', user_id: 7 })).toBe(true);
    expect(mayEndSession(admin, { user_type: 'admin', user_id: 8 })).toBe(false);
    expect(mayEndSession({ ...admin, role: 'super_admin' }, { user_type: 'admin', user_id: 8 })).toBe(true);
    expect(mayEndSession(operatorPrincipal(a.schoolId), { user_type: 'admin', user_id: 8 })).toBe(true);
  });
});

describe('the REST paths', () => {
  it("DELETE /web-app/sessions/:id ends only the caller's own: another admin's session is 404, even to a super_admin", async () => {
    const other = await account(a, 'it_contact');
    expectError(await t.api.delete(`/web-app/sessions/${await sessionOf(other)}`).set(bearer(a.adminToken)), 404, 'NOT_FOUND');
    expect(await stillIn(other)).toBe(200);
  });
});

describe("the console's Revoke", () => {
  it("is not offered to an admin on a super_admin's session and, called anyway, is refused with the reason, the session staying active; a parent's it ends", async () => {
    const admin = await adminUser(t, a.schoolId, 'admin');
    const api = consoleApi(await signInConsole(t, admin.email));
    const head = await account(a, 'super_admin');
    const offered = async (console: typeof api, session: number) =>
      ((await console.show('sessions', session)).body.record.recordActions as Array<{ name: string }>).some((action) => action.name === 'revoke');
    // Not offered on a session the admin may not end; called anyway, it is refused in words.
    expect(await offered(api, await sessionOf(head))).toBe(false);
    const refused = await api.act('sessions', await sessionOf(head), 'revoke');
    expect(noticeOf(refused)).toMatchObject({ type: 'error', message: expect.stringContaining("Only a super admin can end another admin's session") });
    expect(await stillIn(head)).toBe(200);
    const family = await account(a, 'parent');
    expect(await offered(api, await sessionOf(family))).toBe(true);
    expect(noticeOf(await api.act('sessions', await sessionOf(family), 'revoke'))?.type).toBe('success');
    expect(await stillIn(family)).toBe(401);
    // The super_admin's console ends the other admin's session.
    const sa = consoleApi(await signInConsole(t, a.adminEmail));
    expect(await offered(sa, await sessionOf(head))).toBe(true);
    expect(noticeOf(await sa.act('sessions', await sessionOf(head), 'revoke'))?.type).toBe('success');
    expect(await stillIn(head)).toBe(401);
  });
});
