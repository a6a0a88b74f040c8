import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { Designation, Staff } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { bearer, parent, school, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';
import { consoleApi, noticeOf, signInConsole, type ConsoleApi } from '../admin/console-client.js';

/** The console's refusals in the office's words (CONTRACT.md section 27, "Messages"), and its Designation filter. */
let t: TestApp;
let a: SchoolFixture;
let sa: ConsoleApi;

beforeAll(async () => {
  t = await startTestApp({ ADMIN_CONSOLE_ENABLED: 'true' });
  a = await school(t);
  sa = consoleApi(await signInConsole(t, a.adminEmail));
}, 180_000);
afterAll(async () => t.close());

const ROBOTIC = /Invalid input|Invalid option|Unrecognized key|Too small|Too big|expected \w+|received|\b[a-z]+_[a-z_]+\b|\{\{|YYYY/;

describe('deleting a designation that staff hold', () => {
  it('says what was refused and why (as the REST 409 and the bulk delete do), not "ID is in use."', async () => {
    const held = (await Designation.findOne({ where: { school_id: a.schoolId, name: 'Office Staff' } }))!;
    await staffMember(a.schoolId, { designation: 'Office Staff' });

    const rest = await t.api.delete(`/web-app/designations/${held.id}`).set(bearer(a.adminToken));
    expect(rest.status).toBe(409);
    expect(rest.body.message).toMatch(/hold this designation/);

    const res = await sa.remove('designations', held.id);
    expect(noticeOf(res)!.type).toBe('error');
    expect(await Designation.findByPk(held.id)).not.toBeNull();
    expect(noticeOf(res)!.message).not.toBe('ID is in use.');
    expect(noticeOf(res)!.message).toMatch(/staff member\(s\) hold this designation/);
    expect(res.body.record?.errors?.id).toBeUndefined();
  });
});

describe('Reset PIN refusals name the field by its label', () => {
  it('a 3-digit PIN typed in "New PIN (optional)" is refused naming the PIN, not "Pin"', async () => {
    const p = await parent(t.ctx, a.schoolId);
    const s = await staffMember(a.schoolId);
    const st = await student(a.schoolId, p.id);
    for (const [resource, id, action] of [['parents', p.id, 'resetPin'], ['staff', s.id, 'resetPin'], ['students', st.id, 'resetParentPin']] as const) {
      const res = await sa.perform(resource, id, action, { pin: '123' });
      expect(noticeOf(res)!.type).toBe('error');
      expect(res.body.record.errors.pin.message).toMatch(/^(New )?PIN /);
    }
  });
});

describe('the Staff list filter on Designation', () => {
  it('picked from the select of designations, lists only the staff holding that designation', async () => {
    const own = await school(t);
    const api = consoleApi(await signInConsole(t, own.adminEmail));
    expect(noticeOf(await api.create('designations', { name: 'Teacher' }))!.type).toBe('success');
    const teacher = await staffMember(own.schoolId, { designation: 'Teacher', name: 'Plain Teacher' });
    const classTeacher = await staffMember(own.schoolId, { designation: 'Class Teacher', name: 'Class Teacher One' });
    const listed = (await api.list('staff', { 'filters.designation': 'Teacher' })).body.records.map((r: { id: string }) => Number(r.id));
    expect(listed).toContain(teacher.id);
    expect(listed).not.toContain(classTeacher.id);
  });
});

describe('a refused date of birth on the student form', () => {
  it('reads as sentences, not two messages run together with a format code', async () => {
    const st = await student(a.schoolId, null);
    const res = await sa.edit('students', st.id, { date_of_birth: '12/04/2016' });
    expect(noticeOf(res)!.type).toBe('error');
    const message = res.body.record.errors.date_of_birth.message as string;
    expect(message).not.toMatch(ROBOTIC);
    expect(message.match(/Date of birth/g)!.length).toBe(1);
  });
});

describe('a staff member\'s own permissions naming no known feature', () => {
  it('are refused in words, not with zod\'s "Unrecognized key"', async () => {
    const res = await sa.create('staff', { name: 'Odd Rbac', phone_no: '9876511112', 'rbac.cooking': 'view' });
    expect(noticeOf(res)!.type).toBe('error');
    expect(await Staff.count({ where: { school_id: a.schoolId, name: 'Odd Rbac' } })).toBe(0);
    expect(noticeOf(res)!.message).not.toMatch(ROBOTIC);
  });
});
