import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Address, Group, GroupMember, Notification, Parent, Staff, StaffStudent, Student } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { adminUser, bearer, expectError, school, staffLogin, staffMember, type SchoolFixture } from '../helpers/fixtures.js';
import { csv, oneRosterSet, staffHeader, studentHeader, zip } from '../helpers/roster.js';

/**
 * Roster import of the school's own CSV files through POST /web-app/imports: matching (students by
 * roll number, guardians and staff by phone), idempotence, all or nothing with every error by line
 * and field, partial, dry run, the new guardians' set-up links, the 20 MiB limit and the tenant
 * boundary.
 */
let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  b = await school(t);
});
afterAll(async () => t.close());

const post = (kind: string, body: string | Buffer, query: Record<string, string> = {}, token = a.adminToken, type = 'text/csv') =>
  t.api.post('/web-app/imports').query({ kind, ...query }).set(bearer(token)).set('Content-Type', type).send(body);

const students = (schoolId: string) => Student.findAll({ where: { school_id: schoolId }, order: [['roll_no', 'ASC']], raw: true });

const family = [
  ['IMP-1', 'Asha Rao', 'female', '5', '2016-04-12', 'B+', '98765 00001', 'Ravi Rao', 'Meena Rao', 'ravi@example.com', '12 Lake Rd, Flat 4\nNear the temple', 'Pune', 411001, 'Bus 4; Football'],
  ['IMP-2', 'Kiran Rao', 'male', '6', null, null, '9876500001', 'Ravi Rao', null, null, null, null, null, null],
  ['IMP-3', 'Dev "DJ" Shah', null, 'UKG', null, 'O-', '9876500002', 'Nikhil Shah', null, null, '3 Hill St', 'Mumbai', null, null],
];

describe('students CSV', () => {
  it('creates the students, one parent per phone with a set-up link by SMS, and their addresses (BOM, quotes, commas and line breaks)', async () => {
    const file = csv(studentHeader, family.map((r) => [...r.slice(0, 13), null]), { bom: true, eol: '\r\n' });
    const res = await post('students', file);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ kind: 'students', dry_run: false, rows: 3, created: 3, updated: 0, unchanged: 0, guardians_created: 2, applied: true, errors: [] });
    const rows = await students(a.schoolId);
    expect(rows.map((s) => [s.roll_no, s.student_full_name, s.grade, s.status])).toEqual([
      ['IMP-1', 'Asha Rao', '5', 'active'], ['IMP-2', 'Kiran Rao', '6', 'active'], ['IMP-3', 'Dev "DJ" Shah', 'UKG', 'active'],
    ]);
    // Siblings share the parent of their phone (written with spaces in one row and without in the other).
    expect(rows[0]!.parent_id).toBe(rows[1]!.parent_id);
    const ravi = await Parent.findByPk(rows[0]!.parent_id!, { raw: true });
    expect(ravi).toMatchObject({ phone_no: '9876500001', father_name: 'Ravi Rao', mother_name: 'Meena Rao', email: 'ravi@example.com', pin_hash: null });
    expect(ravi!.pin_setup_token_hash).toMatch(/^[0-9a-f]{64}$/);
    const sms = await Notification.findAll({ where: { school_id: a.schoolId, channel: 'sms' }, raw: true });
    expect(sms.map((n) => n.target_id).sort()).toEqual([rows[0]!.parent_id, rows[2]!.parent_id].sort());
    expect(sms[0]!.body).toMatch(/set-pin\?token=/);
    const address = await Address.findOne({ where: { school_id: a.schoolId, owner_type: 'student', owner_id: rows[0]!.id }, raw: true });
    expect(address).toMatchObject({ address: '12 Lake Rd, Flat 4\nNear the temple', city: 'Pune', pincode: 411001, address_type: 'current' });
  });

  it('changes nothing when the same file comes again, and only what differs when a row changes', async () => {
    const again = await post('students', csv(studentHeader, family.map((r) => [...r.slice(0, 13), null])));
    expect(again.body.data).toMatchObject({ created: 0, updated: 0, unchanged: 3, guardians_created: 0 });
    expect(await Notification.count({ where: { school_id: a.schoolId, channel: 'sms' } })).toBe(2);
    const changed = family.map((r) => [...r.slice(0, 13), null]);
    changed[2] = ['IMP-3', 'Dev Shah', null, '1', null, null, '9876500002', null, null, null, '5 Hill St', null, null, null];
    const res = await post('students', csv(studentHeader, changed));
    expect(res.body.data).toMatchObject({ created: 0, updated: 1, unchanged: 2 });
    const dev = (await students(a.schoolId)).find((s) => s.roll_no === 'IMP-3')!;
    // Empty cells keep what the school has (the blood group stays O-).
    expect({ name: dev.student_full_name, grade: dev.grade, blood: dev.blood_group }).toEqual({ name: 'Dev Shah', grade: '1', blood: 'O-' });
    expect(await Address.findAll({ where: { owner_type: 'student', owner_id: dev.id }, attributes: ['address', 'city'], raw: true })).toEqual([{ address: '5 Hill St', city: 'Mumbai' }]);
    // A guardian matched by phone takes the file's new details (the same parent, no new link).
    const renamed = changed.map((r) => [...r]);
    renamed[0] = ['IMP-1', 'Asha Rao', 'female', '5', '2016-04-12', 'B+', '98765 00001', 'Ravi K. Rao', 'Meena Rao', 'ravi.rao@example.com', '12 Lake Rd, Flat 4\nNear the temple', 'Pune', 411001, null];
    // Rows naming one guardian phone must agree, else each import would change the parent back and forth.
    const split = await post('students', csv(studentHeader, renamed));
    expectError(split, 422, 'UNPROCESSABLE');
    expect(split.body.data.errors).toEqual([{ line: 4, field: 'father_name', message: 'differs from line 2 for the same guardian phone' }]);
    renamed[1]![7] = 'Ravi K. Rao';
    const guardian = await post('students', csv(studentHeader, renamed));
    expect(guardian.status).toBe(201);
    const ravi = await Parent.findAll({ where: { school_id: a.schoolId, phone_no: '9876500001' }, raw: true });
    expect(ravi.map((p) => [p.father_name, p.email])).toEqual([['Ravi K. Rao', 'ravi.rao@example.com']]);
    expect(await Notification.count({ where: { school_id: a.schoolId, channel: 'sms' } })).toBe(2);
  });

  it("counts the file's address as verified, the one the parent gave in the app and has yet to confirm too", async () => {
    const ravi = (await Parent.findOne({ where: { school_id: a.schoolId, phone_no: '9876500001' } }))!;
    await ravi.update({ email: 'ravi.app@example.com', unverified_email: 'ravi.app@example.com' });
    const row = ['IMP-1', 'Asha Rao', 'female', '5', '2016-04-12', 'B+', '9876500001', 'Ravi K. Rao', 'Meena Rao', 'ravi.app@example.com', null, null, null, null];
    expect((await post('students', csv(studentHeader, [row]))).status).toBe(201);
    expect(await Parent.findByPk(ravi.id, { attributes: ['email', 'unverified_email'], raw: true })).toEqual({ email: 'ravi.app@example.com', unverified_email: null });
  });

  it('rejects a file with any invalid row as a whole (422), listing every error by line and field', async () => {
    const before = await students(a.schoolId);
    const file = csv(studentHeader, [
      ['IMP-10', 'Good Row', null, '5', null, null, null, null, null, null, null, null, null, null],
      ['IMP-11', 'Bad Grade', null, '13', null, null, null, null, null, null, null, null, null, null],
      ['IMP-12', 'Bad Date\nand a line break', null, '5', '12/04/2016', null, null, null, null, null, null, null, null, null],
      ['IMP-10', 'Twice', null, '5', null, null, null, null, null, null, null, null, null, null],
      ['IMP-13', '', null, '5', null, null, 'not a phone', null, null, null, null, null, null, null],
    ]);
    const res = await post('students', file);
    expectError(res, 422, 'UNPROCESSABLE');
    const errors = res.body.error.details.map((e: { line: number; field: string }) => [e.line, e.field]);
    expect(errors).toEqual([[3, 'grade'], [4, 'date_of_birth'], [6, 'roll_no'], [7, 'phone_no'], [7, 'student_full_name']]);
    expect(res.body.data).toMatchObject({ applied: false, created: 0, rows: 5 });
    expect(await students(a.schoolId)).toEqual(before);
  });

  it('names the line a row starts on in a Windows (CRLF) file whose quoted fields hold line breaks', async () => {
    const file = [
      'roll_no,student_full_name,grade,address',
      'IMP-30,Good,5,"1 Lake Rd\r\nFlat 2"',
      '',
      'IMP-31,Bad Grade,13,"2 Hill St\r\nBlock C\r\nPune"',
      'IMP-32,Also Bad,14,',
    ].join('\r\n') + '\r\n';
    const res = await post('students', file);
    expectError(res, 422, 'UNPROCESSABLE');
    expect(res.body.error.details.map((e: { line: number; field: string }) => [e.line, e.field])).toEqual([[5, 'grade'], [8, 'grade']]);
  });

  it('refuses a row with more cells than the header names (an unquoted comma), a column named twice, and names the line an unclosed quote starts on', async () => {
    const extra = await post('students', 'roll_no,student_full_name,grade,city,address\nIMP-40,Asha,5,Pune,12 Lake Rd, Flat 4\nIMP-41,Kiran,5,,\n');
    expectError(extra, 422, 'UNPROCESSABLE');
    expect(extra.body.error.details).toEqual([{ line: 2, field: 'row', message: 'has 6 cells where the header names 5: quote a value that holds a comma' }]);
    expect(await Student.count({ where: { school_id: a.schoolId, roll_no: ['IMP-40', 'IMP-41'] } })).toBe(0);
    // A trailing empty cell is no value lost.
    expect((await post('students', 'roll_no,student_full_name,grade\nIMP-42,Dia,5,\n', { dry_run: 'true' })).body.data).toMatchObject({ created: 1, errors: [] });
    const twice = await post('students', 'roll_no,student_full_name,grade,grade\nIMP-43,Asha,5,6\n');
    expect(twice.body.error.details).toEqual([{ line: 1, field: 'grade', message: 'is named twice in the header' }]);
    const rows = Array.from({ length: 20 }, (_, i) => `IMP-5${i},Ok,5`).join('\n');
    const unclosed = await post('students', `roll_no,student_full_name,grade\nIMP-44,Ok,5\nIMP-45,"Unclosed,5\n${rows}\n`);
    expectError(unclosed, 422, 'UNPROCESSABLE');
    expect(unclosed.body.error.details).toEqual([{ line: 3, field: 'file', message: 'is not readable as CSV: a quoted value that starts on this line is never closed' }]);
  });

  it('applies, in a partial import, none of the rows that disagree with an earlier one on their guardian', async () => {
    const file = 'roll_no,student_full_name,grade,phone_no,father_name\nGC-1,Asha,5,9876511111,Ravi Rao\nGC-2,Kiran,5,9876511111,Ravi Kumar\n';
    const dry = await post('students', file, { partial: 'true', dry_run: 'true' });
    expect(dry.body.data).toMatchObject({ rows: 2, created: 1, errors: [{ line: 3, field: 'father_name', message: 'differs from line 2 for the same guardian phone' }] });
    expect((await post('students', file, { partial: 'true' })).body.data).toMatchObject({ rows: 2, created: 1, applied: true });
    expect((await students(a.schoolId)).filter((s) => s.roll_no.startsWith('GC-')).map((s) => s.roll_no)).toEqual(['GC-1']);
  });

  it('names a required column the header lacks, on line 1', async () => {
    const res = await post('students', 'roll_no,name,grade\nIMP-20,Asha,5\n');
    expectError(res, 422, 'UNPROCESSABLE');
    expect(res.body.error.details).toEqual([{ line: 1, field: 'student_full_name', message: expect.stringMatching(/required column/) }]);
  });

  it('applies the valid rows of a partial import and reports the others', async () => {
    const file = csv(studentHeader, [
      ['IMP-30', 'Partial One', null, '5', null, null, null, null, null, null, null, null, null, null],
      ['IMP-31', 'Partial Two', null, 'Grade X', null, null, null, null, null, null, null, null, null, null],
    ]);
    const res = await post('students', file, { partial: 'true' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ partial: true, applied: true, created: 1, errors: [{ line: 3, field: 'grade' }] });
    expect((await students(a.schoolId)).map((s) => s.roll_no)).toContain('IMP-30');
    expect((await students(a.schoolId)).map((s) => s.roll_no)).not.toContain('IMP-31');
  });

  it('counts what a dry run would do and writes nothing', async () => {
    const before = await Student.count({ where: { school_id: a.schoolId } });
    const file = csv(studentHeader, [
      ['IMP-40', 'Dry One', null, '5', null, null, '9876500040', 'New Parent', null, null, null, null, null, null],
      ['IMP-1', 'Asha Rao Renamed', null, '5', null, null, null, null, null, null, null, null, null, null],
      ['IMP-2', 'Kiran Rao', 'male', '6', null, null, '9876500001', null, null, null, null, null, null, null],
    ]);
    const res = await post('students', file, { dry_run: 'true' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ dry_run: true, applied: false, created: 1, updated: 1, unchanged: 1, guardians_created: 1 });
    expect(await Student.count({ where: { school_id: a.schoolId } })).toBe(before);
    expect(await Parent.count({ where: { school_id: a.schoolId, phone_no: '9876500040' } })).toBe(0);
  });
});

describe('groups in the students CSV', () => {
  it('puts students in their groups by name, making the new groups, and a second import adds only what is missing', async () => {
    const file = (rows: Array<[string, string]>) => csv(studentHeader, rows.map(([roll, groups]) => [roll, `Student ${roll}`, null, '5', null, null, null, null, null, null, null, null, null, groups]));
    const first = await post('students', file([['GRP-1', 'Bus 4; Football'], ['GRP-2', 'bus 4'], ['GRP-3', '']]));
    expect(first.body.data).toMatchObject({ created: 3 });
    const groups = await Group.findAll({ where: { school_id: a.schoolId, deleted_key: 0 }, order: [['name', 'ASC']], raw: true });
    expect(groups.map((g) => g.name)).toEqual(['Bus 4', 'Football']);
    const members = async (name: string) => {
      const g = groups.find((x) => x.name === name)!;
      const rows = await GroupMember.findAll({ where: { school_id: a.schoolId, group_id: g.id }, raw: true });
      return (await Student.findAll({ where: { id: rows.map((r) => r.student_id) }, raw: true })).map((st) => st.roll_no).sort();
    };
    expect(await members('Bus 4')).toEqual(['GRP-1', 'GRP-2']);
    expect(await members('Football')).toEqual(['GRP-1']);
    const again = await post('students', file([['GRP-1', 'Bus 4; Football'], ['GRP-2', 'bus 4'], ['GRP-3', 'Football']]));
    expect(again.body.data).toMatchObject({ created: 0, updated: 1, unchanged: 2, groups_created: 0, new_groups: [] });
    expect(await members('Football')).toEqual(['GRP-1', 'GRP-3']);
  });

  it('reports the groups it creates (groups_created, new_groups sorted); a dry run the ones applying would create', async () => {
    const file = csv(studentHeader, [
      ['NGR-1', 'Student NGR-1', null, '5', null, null, null, null, null, null, null, null, null, 'Choir; bus 4; Yoga'],
      ['NGR-2', 'Student NGR-2', null, '5', null, null, null, null, null, null, null, null, null, 'chess club; YOGA'],
    ]);
    const dry = await post('students', file, { dry_run: 'true' });
    expect(dry.status).toBe(200);
    expect(dry.body.data).toMatchObject({ dry_run: true, groups_created: 3, new_groups: ['chess club', 'Choir', 'Yoga'] });
    expect(await Group.count({ where: { school_id: a.schoolId, name: ['Choir', 'Yoga', 'chess club'] } })).toBe(0);
    const applied = await post('students', file);
    expect(applied.status).toBe(201);
    expect(applied.body.data).toMatchObject({ dry_run: false, groups_created: 3, new_groups: ['chess club', 'Choir', 'Yoga'] });
    expect((await Group.findAll({ where: { school_id: a.schoolId, name: ['Choir', 'Yoga', 'chess club'] }, raw: true })).map((g) => g.name).sort()).toEqual(['Choir', 'Yoga', 'chess club'].sort());
    const again = await post('students', file, { dry_run: 'true' });
    expect(again.body.data).toMatchObject({ groups_created: 0, new_groups: [] });
    // Another school has none of them yet.
    const elsewhere = await post('students', file, { dry_run: 'true' }, b.adminToken);
    expect(elsewhere.body.data).toMatchObject({ groups_created: 4, new_groups: ['bus 4', 'chess club', 'Choir', 'Yoga'] });
    // A file refused whole creates nothing, and says so.
    const refused = await post('students', csv(studentHeader, [['NGR-3', 'Student NGR-3', null, 'Year 14', null, null, null, null, null, null, null, null, null, 'Drama']]));
    expectError(refused, 422, 'UNPROCESSABLE');
    expect(refused.body.data).toMatchObject({ applied: false, groups_created: 0, new_groups: [] });
    // Staff files make no groups.
    expect((await post('staff', csv(staffHeader, [['Ravi Menon', 'Class Teacher', '9000077777', null, null]]), { dry_run: 'true' })).body.data).toMatchObject({ groups_created: 0, new_groups: [] });
  });
});

describe('OneRoster', () => {
  for (const version of ['1.1', '1.2'] as const) {
    it(`imports a ${version} set: students with their grade codes, guardians, classes as groups, teachers assigned their classes' students`, async () => {
      const prefix = version === '1.1' ? 'V1-' : 'V2-';
      const set = oneRosterSet(version, prefix);
      // A set may sit in a folder inside the archive.
      const archive = await zip(Object.fromEntries(Object.entries(set).map(([name, text]) => [`export/${name}`, text])));
      // Each version into a school of its own: the teachers' phones are the same in both sets.
      const target = version === '1.1' ? b : await school(t);
      const res = await post('oneroster', archive, {}, target.adminToken, 'application/zip');
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ kind: 'oneroster', created: 5, errors: [] });
      const rows = await Student.findAll({ where: { school_id: target.schoolId, roll_no: [`${prefix}OR-1`, `${prefix}OR-2`, `${prefix}OR-3`, `${prefix}OR-9`] }, order: [['roll_no', 'ASC']], raw: true });
      expect(rows.map((r) => [r.roll_no, r.student_full_name, r.grade, r.gender, r.date_of_birth && String(r.date_of_birth).slice(0, 10)])).toEqual([
        [`${prefix}OR-1`, 'Asha Rao', '5', 'female', '2016-04-12'], [`${prefix}OR-2`, 'Ravi Rao', 'UKG', 'male', '2020-01-30'], [`${prefix}OR-3`, 'Meera Das', 'LKG', null, null],
      ]);
      const guardian = await Parent.findByPk(rows[0]!.parent_id!, { raw: true });
      expect(guardian).toMatchObject({ phone_no: '+919876543001', father_name: 'Ravi Rao Sr', email: 'ravi@example.com' });
      expect(rows[1]!.parent_id).toBe(rows[0]!.parent_id);
      expect((await Parent.findByPk(rows[2]!.parent_id!, { raw: true }))!.phone_no).toBe('9876543002');
      const maths = await Group.findOne({ where: { school_id: target.schoolId, name: 'Maths 5A', deleted_key: 0 }, raw: true });
      expect((await GroupMember.findAll({ where: { group_id: maths!.id }, raw: true })).map((m) => m.student_id).sort()).toEqual([rows[0]!.id, rows[1]!.id].sort());
      const maya = await Staff.findOne({ where: { school_id: target.schoolId, phone_no: '9000043001' }, raw: true });
      expect(maya).toMatchObject({ name: 'Maya Iyer', designation: 'Subject Teacher', email: 'maya@school.example' });
      expect((await StaffStudent.findAll({ where: { school_id: target.schoolId, staff_id: maya!.id }, raw: true })).map((x) => x.student_id).sort()).toEqual([rows[0]!.id, rows[1]!.id].sort());
      const arun = await Staff.findOne({ where: { school_id: target.schoolId, phone_no: '9000043002' }, raw: true });
      expect((await StaffStudent.findAll({ where: { school_id: target.schoolId, staff_id: arun!.id }, raw: true })).map((x) => x.student_id).sort()).toEqual([rows[0]!.id, rows[2]!.id].sort());
      // The same set again changes nothing.
      const again = await post('oneroster', archive, {}, target.adminToken, 'application/zip');
      expect(again.body.data).toMatchObject({ created: 0, updated: 0, unchanged: 5 });
    });
  }

  it('reports a missing file, a grade code the school lacks and a student without a roll number, by file and line', async () => {
    const set = oneRosterSet('1.1', 'BAD-');
    delete set['classes.csv'];
    const missing = await post('oneroster', await zip(set), {}, b.adminToken, 'application/zip');
    expectError(missing, 422, 'UNPROCESSABLE');
    expect(missing.body.error.details).toEqual([{ file: 'classes.csv', line: 1, field: 'file', message: expect.stringMatching(/missing/) }]);
    const full = oneRosterSet('1.1', 'BAD-');
    full['users.csv'] = full['users.csv']!.replace(',05\n', ',13\n').replace('BAD-OR-2', '');
    const bad = await post('oneroster', await zip(full), {}, b.adminToken, 'application/zip');
    expectError(bad, 422, 'UNPROCESSABLE');
    expect(bad.body.error.details.map((e: { file: string; line: number; field: string }) => [e.file, e.line, e.field])).toEqual([['users.csv', 2, 'grades'], ['users.csv', 3, 'identifier']]);
  });

  it('reports a malformed e-mail, birth date or sex rather than importing the person without it', async () => {
    const set = oneRosterSet('1.1', 'ODD-');
    set['users.csv'] = set['users.csv']!.replace('ravi@example.com', 'not-an-email').replace('maya@school.example', 'also bad');
    set['demographics.csv'] = set['demographics.csv']!.replace('2016-04-12', '12/04/2016').replace('2020-01-30,male', '2020-01-30,unknown');
    const res = await post('oneroster', await zip(set), { dry_run: 'true' }, b.adminToken, 'application/zip');
    const found = (res.body.data.errors as Array<{ file: string; field: string; message: string }>).map((e) => [e.file, e.field, e.message]);
    expect(found).toEqual(expect.arrayContaining([
      ['users.csv', 'email', 'is not a valid e-mail address'],
      ['demographics.csv', 'birthDate', 'is not a date YYYY-MM-DD'],
      ['demographics.csv', 'sex', 'must be one of male, female or other (or left empty)'],
    ]));
    // The guardian's row is reported once, however many children name it; the teacher's too.
    expect(found.filter(([, field]) => field === 'email')).toHaveLength(2);
    // The rows are the users read, however many errors each has.
    const clean = await post('oneroster', await zip(oneRosterSet('1.1', 'ODD-')), { dry_run: 'true' }, b.adminToken, 'application/zip');
    expect(res.body.data.rows).toBe(clean.body.data.rows);
  });
});

describe('staff CSV', () => {
  it('creates staff with their designation and assigns students by roll number; the same file again changes nothing', async () => {
    const file = csv(staffHeader, [
      ['Maya Iyer', 'Class Teacher', '9000050001', 'maya@a.example', 'IMP-1;IMP-2'],
      ['Arun Nair', 'subject teacher', '9000050002', null, 'IMP-3'],
    ]);
    const res = await post('staff', file);
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ kind: 'staff', created: 2, updated: 0, unchanged: 0 });
    const maya = await Staff.findOne({ where: { school_id: a.schoolId, phone_no: '9000050001' }, raw: true });
    expect(maya).toMatchObject({ name: 'Maya Iyer', designation: 'Class Teacher', email: 'maya@a.example', pin_hash: null, status: 1 });
    const assigned = await StaffStudent.findAll({ where: { school_id: a.schoolId, staff_id: maya!.id }, raw: true });
    const rolls = (await Student.findAll({ where: { id: assigned.map((x) => x.student_id) }, raw: true })).map((s) => s.roll_no).sort();
    expect(rolls).toEqual(['IMP-1', 'IMP-2']);
    expect((await post('staff', file)).body.data).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    const more = await post('staff', csv(staffHeader, [['Maya Iyer', 'Class Teacher', '9000050001', 'maya@a.example', 'IMP-3']]));
    expect(more.body.data).toMatchObject({ updated: 1 });
    expect(await StaffStudent.count({ where: { school_id: a.schoolId, staff_id: maya!.id } })).toBe(3);
    // A member matched by phone takes the file's new name, designation and e-mail.
    const renamed = await post('staff', csv(staffHeader, [['Maya K. Iyer', 'Subject Teacher', '9000050001', 'maya.iyer@a.example', null]]));
    expect(renamed.status).toBe(201);
    expect(renamed.body.data).toMatchObject({ updated: 1 });
    expect(await Staff.findByPk(maya!.id, { attributes: ['name', 'designation', 'email'], raw: true })).toEqual({ name: 'Maya K. Iyer', designation: 'Subject Teacher', email: 'maya.iyer@a.example' });
    expect((await post('staff', csv(staffHeader, [['Maya Iyer', 'Class Teacher', '9000050001', 'maya@a.example', null]]))).body.data).toMatchObject({ updated: 1 });
    // The staff member's designation rbac applies once they have a PIN.
    const member = await staffMember(a.schoolId);
    expect(member.id).toBeGreaterThan(0);
  });

  it('reports an unknown designation, a roll number of no student and an e-mail of another staff member', async () => {
    const res = await post('staff', csv(staffHeader, [
      ['One', 'Astronaut', '9000050011', null, null],
      ['Two', 'Class Teacher', '9000050012', null, 'IMP-1;NOPE-1'],
      ['Three', 'Class Teacher', '9000050013', 'maya@a.example', null],
    ]));
    expectError(res, 422, 'UNPROCESSABLE');
    expect(res.body.error.details.map((e: { line: number; field: string }) => [e.line, e.field])).toEqual([[2, 'designation'], [3, 'assigned_roll_nos'], [4, 'email']]);
    expect(res.body.error.details[1].message).toContain('NOPE-1');
    expect(await Staff.count({ where: { school_id: a.schoolId, phone_no: ['9000050011', '9000050012', '9000050013'] } })).toBe(0);
  });
});

describe('the import route', () => {
  it('refuses a body over 20 MiB with 413', async () => {
    const big = Buffer.alloc(20 * 1024 * 1024 + 10, 'a');
    const res = await post('students', big);
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    expect(res.body.message).toContain('20 MiB');
  });

  it('answers 400 for no file, a CSV kind sent as zip, and a bad kind or flag', async () => {
    expectError(await t.api.post('/web-app/imports').query({ kind: 'students' }).set(bearer(a.adminToken)), 400, 'BAD_REQUEST');
    expectError(await post('students', Buffer.from('PK'), {}, a.adminToken, 'application/zip'), 400, 'BAD_REQUEST');
    expectError(await post('oneroster', 'a,b\n'), 400, 'BAD_REQUEST');
    expectError(await post('teachers', 'a,b\n'), 400, 'BAD_REQUEST');
    expectError(await post('students', 'a,b\n', { dry_run: 'yes' }), 400, 'BAD_REQUEST');
  });

  it('answers 422 for a OneRoster upload that is not a zip', async () => {
    const res = await post('oneroster', Buffer.from('this is not a zip'), {}, a.adminToken, 'application/zip');
    expectError(res, 422, 'UNPROCESSABLE');
    expect(res.body.error.details[0]).toMatchObject({ field: 'file', message: expect.stringMatching(/zip/) });
  });

  it('imports into the caller\'s school only, and is refused to it_contact and staff', async () => {
    const file = csv(studentHeader, [['IMP-1', 'Other School Asha', null, '5', null, null, null, null, null, null, null, null, null, null]]);
    const res = await post('students', file, {}, b.adminToken);
    expect(res.body.data).toMatchObject({ created: 1 });
    expect((await students(a.schoolId)).find((s) => s.roll_no === 'IMP-1')!.student_full_name).toBe('Asha Rao');
    expectError(await post('students', file, { school_id: a.schoolId }, b.adminToken), 403, 'FORBIDDEN');
    const it_contact = await adminUser(t, a.schoolId, 'it_contact');
    expectError(await post('students', file, {}, it_contact.token), 403, 'FORBIDDEN');
    const s = await staffMember(a.schoolId);
    expectError(await post('students', file, {}, await staffLogin(t, s.phone, s.pin, a.schoolId)), 403, 'FORBIDDEN');
    const admin = await adminUser(t, a.schoolId, 'admin');
    expect((await post('students', file, { dry_run: 'true' }, admin.token)).status).toBe(200);
  });
});
