import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AdminUser } from '../../src/models/index.js';
import { operatorPrincipal } from '../../src/services/access/guards.js';
import { createAdmin, createAdminUser, grantableRoles, updateAdmin } from '../../src/services/admins/admin-users.js';
import type { Principal } from '../../src/context.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { adminUser, bearer, expectError, school, type SchoolFixture } from '../helpers/fixtures.js';

/** The roles a school's doors give: admin, super_admin and it_contact; platform_admin is the command line's alone. */
let t: TestApp;
let a: SchoolFixture;

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
});
afterAll(async () => t.close());

const roleRefusal = { field: 'role', message: 'must be one of admin, super_admin, it_contact' };
let n = 0;
const newAdmin = (role: unknown) => ({ name: 'Ravi IT', email: `roles-${++n}@${a.schoolId}.example`, password: 'a long password', role });
const principalOf = (role: 'super_admin' | 'admin' | 'it_contact'): Principal => ({ type: 'admin', userId: a.adminId, schoolId: a.schoolId, sessionId: 0, role });

describe('a role other than admin, super_admin or it_contact', () => {
  it('is 400 naming role on POST and PUT /web-app/admins, and nothing changes', async () => {
    const before = await AdminUser.count({ where: { school_id: a.schoolId } });
    for (const role of ['platform_admin', 'owner', 'Admin', '', null]) {
      const res = await t.api.post('/web-app/admins').set(bearer(a.adminToken)).send(newAdmin(role));
      expectError(res, 400, 'BAD_REQUEST');
      expect(res.body.error.details).toEqual([roleRefusal]);
    }
    expect(await AdminUser.count({ where: { school_id: a.schoolId } })).toBe(before);
    const it = await adminUser(t, a.schoolId, 'it_contact');
    const res = await t.api.put(`/web-app/admins/${it.id}`).set(bearer(a.adminToken)).send({ role: 'platform_admin' });
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.body.error.details).toEqual([roleRefusal]);
    expect((await AdminUser.findByPk(it.id))!.role).toBe('it_contact');
    const promoted = await t.api.put(`/web-app/admins/${it.id}`).set(bearer(a.adminToken)).send({ role: 'admin' });
    expect(promoted.body.data.role).toBe('admin');
  });

  it('is 400 naming role through the services the console calls', async () => {
    for (const work of [
      createAdmin(t.ctx, principalOf('super_admin'), newAdmin('platform_admin') as never),
      createAdminUser({ school_id: a.schoolId, name: 'Op', email: `op-${++n}@x.example`, password: 'a long password', role: 'platform_admin' }),
      updateAdmin(t.ctx, operatorPrincipal(a.schoolId), a.adminId, { role: 'platform_admin' } as never),
    ]) {
      await expect(work).rejects.toMatchObject({ status: 400, details: [roleRefusal] });
    }
    expect(await AdminUser.count({ where: { role: 'platform_admin', school_id: a.schoolId } })).toBe(0);
  });

  it('is refused by the command line for a school with exit 2, and a platform_admin still comes from it alone', async () => {
    const env = cliEnv(t);
    const refused = await runCli(env, ['admin', 'create', '--school', a.schoolId, '--role', 'owner', '--email', `cli-${++n}@x.example`, '--name', 'X', '--password', 'a long password']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--role');
    const operator = await runCli(env, ['admin', 'create', '--role', 'platform_admin', '--email', `operator-${++n}@x.example`, '--name', 'Operator', '--password', 'a long password', '--json']);
    expect(operator.code).toBe(0);
    expect(operator.json).toMatchObject({ role: 'platform_admin', school_id: null });
  });
});

describe('the roles a signed-in user may grant', () => {
  it('are Admin, Super admin and IT contact, in that order, for a super_admin and the operator; none for the others', () => {
    const all = [{ role: 'admin', label: 'Admin' }, { role: 'super_admin', label: 'Super admin' }, { role: 'it_contact', label: 'IT contact' }];
    expect(grantableRoles(principalOf('super_admin'))).toEqual(all);
    expect(grantableRoles(operatorPrincipal(a.schoolId))).toEqual(all);
    expect(grantableRoles(principalOf('admin'))).toEqual([]);
    expect(grantableRoles(principalOf('it_contact'))).toEqual([]);
    expect(grantableRoles({ type: 'staff', userId: 1, schoolId: a.schoolId, sessionId: 0 })).toEqual([]);
  });
});

describe('the last super_admin, under requests at once', () => {
  it('stays when two super_admins demote or delete each other at the same moment: one is refused (409)', async () => {
    for (const act of ['demote', 'delete'] as const) {
      const s = await school(t);
      const other = await adminUser(t, s.schoolId, 'super_admin');
      const send = (id: number, token: string) =>
        act === 'demote' ? t.api.put(`/web-app/admins/${id}`).set(bearer(token)).send({ role: 'admin' }) : t.api.delete(`/web-app/admins/${id}`).set(bearer(token));
      const answers = await Promise.all([send(other.id, s.adminToken), send(s.adminId, other.token)]);
      expect({ act, statuses: answers.map((r) => r.status).sort() }).toEqual({ act, statuses: [200, 409] });
      expect(await AdminUser.count({ where: { school_id: s.schoolId, role: 'super_admin' } })).toBe(1);
    }
  });
});
