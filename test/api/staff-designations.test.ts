import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { up as strayDesignations } from '../../migrations/0021-staff-designations.js';
import { AppError } from '../../src/errors.js';
import { Designation, Staff } from '../../src/models/index.js';
import { operatorPrincipal } from '../../src/services/access/guards.js';
import { createStaff, staffPermissions, updateStaff } from '../../src/services/staff/staff.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { adminUser, bearer, expectError, school, staffMember, uniquePhone, type SchoolFixture } from '../helpers/fixtures.js';
import { csv, staffHeader } from '../helpers/roster.js';

let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  b = await school(t);
  // A designation school B has and school A does not.
  expect((await t.api.post('/web-app/designations').set(bearer(b.adminToken)).send({ name: 'Bus Driver', rbac: { students: 'view' } })).status).toBe(201);
});
afterAll(async () => t.close());

const newStaff = (overrides: Record<string, unknown> = {}) => ({ name: 'Anita Desai', designation: 'Class Teacher', phone_no: uniquePhone(), ...overrides });

/** The refusal every door gives: 400 with `details` naming designation, the message naming the value. */
function expectDesignationRefused(res: { status: number; body: Record<string, any> }, value: string) {
  expectError(res, 400, 'BAD_REQUEST');
  expect(res.body.error.details).toEqual([{ field: 'designation', message: `"${value}" is not one of the school's designations` }]);
  expect(res.body.message).toContain(value);
}

async function refusal(work: Promise<unknown>): Promise<AppError> {
  const err = await work.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe("a staff member's designation names one of the school's designations", () => {
  it('POST /web-app/staff refuses a name that is no designation of the school (a typo, another school\'s), creating nothing', async () => {
    for (const value of ['Class Techer', 'Bus Driver']) {
      const body = newStaff({ designation: value });
      expectDesignationRefused(await t.api.post('/web-app/staff').set(bearer(a.adminToken)).send(body), value);
      expect(await Staff.count({ where: { school_id: a.schoolId, phone_no: body.phone_no } })).toBe(0);
    }
  });

  it('takes null (none: their own rbac only), and a designation in any case stored in its spelling', async () => {
    const none = await t.api.post('/web-app/staff').set(bearer(a.adminToken)).send(newStaff({ designation: null, rbac: { diary: 'create' } }));
    expect(none.status).toBe(201);
    const detail = await t.api.get(`/web-app/staff/${none.body.data.id}`).set(bearer(a.adminToken));
    expect(detail.body.data).toMatchObject({ designation: null, effective_rbac: { diary: 'create', students: 'none' } });
    const cased = await t.api.post('/web-app/staff').set(bearer(a.adminToken)).send(newStaff({ designation: '  subject TEACHER ' }));
    expect(cased.status).toBe(201);
    expect((await Staff.findByPk(cased.body.data.id))!.designation).toBe('Subject Teacher');
  });

  it('PUT /web-app/staff/:id refuses an unknown designation and keeps the one held', async () => {
    const s = await staffMember(a.schoolId, { designation: 'Principal' });
    expectDesignationRefused(await t.api.put(`/web-app/staff/${s.id}`).set(bearer(a.adminToken)).send({ designation: 'Princpal' }), 'Princpal');
    expect((await Staff.findByPk(s.id))!.designation).toBe('Principal');
    const cleared = await t.api.put(`/web-app/staff/${s.id}`).set(bearer(a.adminToken)).send({ designation: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.designation).toBeNull();
  });

  it('answers 404 for an unknown or another school\'s staff id before judging the body, and 403 to an it_contact', async () => {
    const theirs = await staffMember(b.schoolId);
    for (const id of [theirs.id, 999_999]) {
      for (const body of [{ designation: 'Nobody' }, { email: 'not an e-mail' }, {}]) {
        expectError(await t.api.put(`/web-app/staff/${id}`).set(bearer(a.adminToken)).send(body), 404, 'NOT_FOUND');
      }
    }
    expect((await Staff.findByPk(theirs.id))!.designation).toBe('Class Teacher');
    const itContact = await adminUser(t, a.schoolId, 'it_contact');
    const mine = await staffMember(a.schoolId);
    expectError(await t.api.put(`/web-app/staff/${mine.id}`).set(bearer(itContact.token)).send({ designation: 'Nobody' }), 403, 'FORBIDDEN');
  });

  it('refuses the same through the service the console calls', async () => {
    const principal = operatorPrincipal(a.schoolId);
    const created = await refusal(createStaff(t.ctx, principal, newStaff({ designation: 'Janitor' })));
    expect({ status: created.status, details: created.details }).toEqual({ status: 400, details: [{ field: 'designation', message: '"Janitor" is not one of the school\'s designations' }] });
    const s = await staffMember(a.schoolId);
    const updated = await refusal(updateStaff(t.ctx, principal, s.id, { designation: 'Janitor' }));
    expect(updated.status).toBe(400);
    expect((await refusal(updateStaff(t.ctx, operatorPrincipal(b.schoolId), s.id, { designation: 'Janitor' }))).status).toBe(404);
  });

  it('the staff import reports it as a row error on designation, through the API and the command line', async () => {
    const phone = uniquePhone();
    const text = csv(staffHeader, [['Ravi Menon', 'Bus Driver', phone, null, null]]);
    const res = await t.api.post('/web-app/imports').query({ kind: 'staff' }).set(bearer(a.adminToken)).set('Content-Type', 'text/csv').send(text);
    expectError(res, 422, 'UNPROCESSABLE');
    expect(res.body.error.details).toEqual([{ line: 2, field: 'designation', message: '"Bus Driver" is not one of the school\'s designations' }]);
    const dir = mkdtempSync(path.join(tmpdir(), 'sp-designation-'));
    writeFileSync(path.join(dir, 'staff.csv'), text);
    const run = await runCli(cliEnv(t), ['import', 'staff', '--school', a.schoolId, '--file', path.join(dir, 'staff.csv'), '--json']);
    expect(run.code).toBe(1);
    expect(run.json.errors).toEqual([{ line: 2, field: 'designation', message: '"Bus Driver" is not one of the school\'s designations' }]);
    expect(await Staff.count({ where: { school_id: a.schoolId, phone_no: phone } })).toBe(0);
  });
});

describe('effective permissions with their source', () => {
  it("gives each feature's level and whether it is the staff member's own or their designation's", async () => {
    await t.api.post('/web-app/designations').set(bearer(a.adminToken)).send({ name: 'Office Staff Plus', rbac: { noticeboard: 'create', students: 'view' } });
    const created = await t.api.post('/web-app/staff').set(bearer(a.adminToken)).send(newStaff({ designation: 'office staff plus', rbac: { write_to: 'manage', students: 'none' } }));
    const id = created.body.data.id as number;
    const expected = [
      { feature: 'activities', level: 'none', from: null, designation: null },
      { feature: 'noticeboard', level: 'create', from: 'designation', designation: 'Office Staff Plus' },
      { feature: 'students', level: 'none', from: 'own', designation: null },
      { feature: 'write_to', level: 'manage', from: 'own', designation: null },
      { feature: 'attendance', level: 'none', from: null, designation: null },
      { feature: 'diary', level: 'none', from: null, designation: null },
    ];
    expect(await staffPermissions(t.ctx, operatorPrincipal(a.schoolId), id)).toEqual(expected);
    const detail = await t.api.get(`/web-app/staff/${id}`).set(bearer(a.adminToken));
    expect(detail.body.data.permissions).toEqual(expected);
    await expect(staffPermissions(t.ctx, operatorPrincipal(b.schoolId), id)).rejects.toMatchObject({ status: 404 });
  });
});

describe('migration 0021', () => {
  it('gives each school a designation without permissions for every stray name its staff hold, so nobody\'s permissions change', async () => {
    const c = await school(t);
    const stray = async (designation: string) => {
      const s = await staffMember(c.schoolId, { rbac: { diary: 'view' } });
      await Staff.update({ designation }, { where: { id: s.id }, hooks: false });
      return s;
    };
    const librarian = await stray('Librarian');
    const lower = await stray('librarian');
    const cased = await stray('office staff');
    const blank = await stray('  ');
    const designations = () => Designation.findAll({ where: { school_id: c.schoolId }, order: [['id', 'ASC']] });
    const seeded = (await designations()).length;

    await strayDesignations(t.ctx.db.sequelize);
    const made = (await designations()).slice(seeded);
    // One designation for the name in both cases (which spelling first is up to the database), with no permissions.
    expect(made.map((d) => [d.name.toLowerCase(), d.rbac])).toEqual([['librarian', {}]]);
    const held = async (id: number) => (await Staff.findByPk(id))!.designation;
    expect([await held(librarian.id), await held(lower.id), await held(cased.id), await held(blank.id)]).toEqual([made[0]!.name, made[0]!.name, 'Office Staff', null]);
    for (const s of [librarian, lower]) {
      const me = await t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: s.phone, pin: s.pin, school_id: c.schoolId });
      expect(me.body.data.staff.rbac).toEqual({ activities: 'none', noticeboard: 'none', students: 'none', write_to: 'none', attendance: 'none', diary: 'view' });
    }
    // Another school's staff and designations are untouched, and running it again changes nothing.
    expect(await Designation.count({ where: { school_id: a.schoolId, name: 'Librarian' } })).toBe(0);
    const count = await Designation.count();
    await strayDesignations(t.ctx.db.sequelize);
    expect(await Designation.count()).toBe(count);
  });
});
