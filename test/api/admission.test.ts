import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Address, Admission, Notification, Parent, School, Student } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { bearer, expectError, parent, parentLogin, school, student, uniquePhone, type SchoolFixture } from '../helpers/fixtures.js';

let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;

beforeAll(async () => {
  t = await startTestApp({ PUBLIC_APP_URL: 'https://apply.greenwood.example' });
  a = await school(t);
  b = await school(t);
});
afterAll(async () => t.close());

function form(schoolId: string, overrides: { student?: Record<string, unknown>; parent?: Record<string, unknown>; addresses?: unknown[] } = {}) {
  return {
    school_id: schoolId,
    student: { student_full_name: 'Asha Rao', gender: 'female', grade: '5', date_of_birth: '2016-04-12', blood_group: 'B+', roll_no: null, ...overrides.student },
    parent: { father_name: 'Ravi Rao', mother_name: 'Meena Rao', phone_no: uniquePhone(), email: 'ravi@example.com', ...overrides.parent },
    addresses: overrides.addresses ?? [{ address_type: 'current', address: '12 Lake Rd', city: 'Pune', pincode: 411001 }],
  };
}

const submit = (body: unknown) => t.api.post('/web-app/admission-form').send(body as object);
const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;
const fields = (res: { body: { error: { details: Array<{ field: string }> } } }) => res.body.error.details.map((d) => d.field);

describe('POST /web-app/admission-form', () => {
  it('saves the student as registered, a new parent, the addresses and the application, and answers 201', async () => {
    const s = await school(t);
    const body = form(s.schoolId);
    const res = await submit(body);
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      student_id: expect.any(Number), parent_id: expect.any(Number), roll_no: '1', status: 'registered',
      admission_token: expect.any(String),
      pin_setup: { url: expect.stringMatching(/^https:\/\/apply\.greenwood\.example\/set-pin\?token=/), expires_at: expect.any(String) },
    });
    const days = (Date.parse(res.body.data.pin_setup.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);

    const student = await Student.findByPk(res.body.data.student_id);
    expect(student).toMatchObject({ school_id: s.schoolId, student_full_name: 'Asha Rao', grade: '5', status: 'registered', parent_id: res.body.data.parent_id, phone_no: body.parent.phone_no });
    const parentRow = await Parent.findByPk(res.body.data.parent_id);
    expect(parentRow).toMatchObject({ school_id: s.schoolId, father_name: 'Ravi Rao', mother_name: 'Meena Rao', phone_no: body.parent.phone_no, pin_hash: null });
    expect(await Address.findAll({ where: { owner_type: 'student', owner_id: student!.id }, raw: true })).toEqual([
      expect.objectContaining({ school_id: s.schoolId, address: '12 Lake Rd', city: 'Pune', pincode: 411001 }),
    ]);
    expect(await Admission.count({ where: { school_id: s.schoolId, student_id: student!.id } })).toBe(1);
    // Neither the admission token nor the set-up token is stored in the clear.
    const stored = JSON.stringify([await Admission.findOne({ where: { student_id: student!.id }, raw: true }), parentRow!.toJSON()]);
    expect(stored).not.toContain(res.body.data.admission_token.split('.')[1]);
    expect(stored).not.toContain(tokenOf(res.body.data.pin_setup.url).split('.')[1]);
  });

  it('writes the PIN set-up link to the SMS outbox for the new parent', async () => {
    const body = form(a.schoolId);
    const res = await submit(body);
    const rows = await Notification.findAll({ where: { school_id: a.schoolId, target_type: 'parent', target_id: res.body.data.parent_id } });
    expect(rows).toHaveLength(1);
    // The phone as sending reads it: a national number of the school's country (SMS_DEFAULT_COUNTRY, IN), in E.164.
    expect(rows[0]).toMatchObject({ event: 'admission_pin_setup', channel: 'sms', status: 'pending', address: `+91${body.parent.phone_no}` });
    expect(rows[0]!.body).toContain(res.body.data.pin_setup.url);
    expect([...rows[0]!.body].length).toBeLessThanOrEqual(320);
    expect(rows[0]!.body).toContain(`School ${a.schoolId}`);
  });

  it('links a second child to the existing parent, who keeps the PIN and gets no set-up link', async () => {
    const family = await parent(t.ctx, a.schoolId, { pin: '5555', father_name: 'Existing Father' });
    const res = await submit(form(a.schoolId, { student: { student_full_name: 'Second Child' }, parent: { phone_no: family.phone, father_name: 'Someone Else' } }));
    expect(res.status).toBe(201);
    expect(res.body.data.parent_id).toBe(family.id);
    expect(res.body.data).not.toHaveProperty('pin_setup');
    expect((await Parent.findByPk(family.id))!.father_name).toBe('Existing Father');
    expect(await Notification.count({ where: { target_type: 'parent', target_id: family.id } })).toBe(0);
    const login = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: family.phone, pin: '5555', school_id: a.schoolId });
    expect(login.status).toBe(200);
    expect(login.body.data.children).toEqual([{ id: res.body.data.student_id, name: 'Second Child', roll_no: res.body.data.roll_no, grade: '5', status: 'registered' }]);
  });

  it('gives the next free roll number, and refuses a roll number that is taken (409)', async () => {
    const s = await school(t);
    const first = await submit(form(s.schoolId, { student: { roll_no: '41' } }));
    expect(first.body.data.roll_no).toBe('41');
    await submit(form(s.schoolId, { student: { roll_no: 'A-900' } }));
    expect((await submit(form(s.schoolId))).body.data.roll_no).toBe('42');
    const phone = uniquePhone();
    const dup = await submit(form(s.schoolId, { student: { roll_no: '41' }, parent: { phone_no: phone } }));
    expectError(dup, 409, 'CONFLICT');
    expect(dup.body.error.details).toEqual([{ field: 'student.roll_no', message: 'already exists' }]);
    expect(await Parent.count({ where: { phone_no: phone } })).toBe(0);
    expect((await submit(form(b.schoolId, { student: { roll_no: '41' } }))).status).toBe(201);
  });

  it('keeps roll numbers distinct and creates one parent when admissions of one new family arrive at once', async () => {
    const s = await school(t);
    const phone = uniquePhone();
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => submit(form(s.schoolId, { student: { student_full_name: `Twin ${i}` }, parent: { phone_no: phone } }))));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(new Set(results.map((r) => r.body.data.roll_no))).toEqual(new Set(['1', '2', '3', '4', '5', '6', '7', '8']));
    expect(new Set(results.map((r) => r.body.data.parent_id)).size).toBe(1);
    expect(results.filter((r) => r.body.data.pin_setup).length).toBe(1);
    expect(await Parent.count({ where: { school_id: s.schoolId, phone_no: phone } })).toBe(1);
  });

  it('names each invalid field of the form', async () => {
    const body = form(a.schoolId, { student: { student_full_name: '' }, addresses: [{ address: '1 Main St', pincode: 'not-a-pincode' }] });
    const res = await submit(body);
    expectError(res, 400, 'BAD_REQUEST');
    expect(fields(res)).toEqual(expect.arrayContaining(['student.student_full_name', 'addresses.0.pincode']));
    const phone = await submit(form(a.schoolId, { parent: { phone_no: 'call me' } }));
    expect(fields(phone)).toEqual(['parent.phone_no']);
    const grade = await submit(form(a.schoolId, { student: { grade: 'Grade 99' } }));
    expectError(grade, 400, 'BAD_REQUEST');
    expect(fields(grade)).toEqual(['student.grade']);
  });

  it('needs a valid school: 400 without one, 404 for an unknown one, 403 for a suspended one', async () => {
    const { school_id: _drop, ...noSchool } = form(a.schoolId);
    const missing = await submit(noSchool);
    expectError(missing, 400, 'BAD_REQUEST');
    expect(fields(missing)).toContain('school_id');
    expectError(await submit(form('no-such-school')), 404, 'NOT_FOUND');
    const s = await school(t);
    await School.update({ status: 'suspended' }, { where: { id: s.schoolId } });
    expectError(await submit(form(s.schoolId)), 403, 'FORBIDDEN');
  });

  it('rolls back the student and the parent when an address fails to save', async () => {
    const body = form(a.schoolId, { student: { student_full_name: 'Rolled Back' } });
    const spy = jest.spyOn(Address, 'bulkCreate').mockRejectedValueOnce(new Error('disk full'));
    try {
      const res = await submit(body);
      expectError(res, 500, 'SERVER_ERROR');
    } finally {
      spy.mockRestore();
    }
    expect(await Student.count({ where: { school_id: a.schoolId, student_full_name: 'Rolled Back' } })).toBe(0);
    expect(await Parent.count({ where: { school_id: a.schoolId, phone_no: body.parent.phone_no } })).toBe(0);
    expect(await Notification.count({ where: { school_id: a.schoolId, address: body.parent.phone_no } })).toBe(0);
    // The same form goes through once the addresses can be saved.
    expect((await submit(body)).status).toBe(201);
  });
});

describe('POST /parent-app/set-pin', () => {
  it('sets the new parent PIN once; the parent then logs in and sees the child', async () => {
    const body = form(a.schoolId, { student: { student_full_name: 'Pin Child' } });
    const admitted = (await submit(body)).body.data;
    const token = tokenOf(admitted.pin_setup.url);
    const res = await t.api.post('/parent-app/set-pin').send({ token, pin: '9731' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ parent_id: admitted.parent_id, school_id: a.schoolId });

    const login = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: body.parent.phone_no, pin: '9731' });
    expect(login.status).toBe(200);
    expect(login.body.data.parent).toEqual({ id: admitted.parent_id, father_name: 'Ravi Rao', school_id: a.schoolId });
    expect(login.body.data.children).toEqual([{ id: admitted.student_id, name: 'Pin Child', roll_no: admitted.roll_no, grade: '5', status: 'registered' }]);
    const detail = await t.api.get('/parent-app/student-detail').set(bearer(login.body.data.access_token));
    expect(detail.body.data).toMatchObject({ student: { id: admitted.student_id }, guardian: { father_name: 'Ravi Rao' } });

    const again = await t.api.post('/parent-app/set-pin').send({ token, pin: '1111' });
    expectError(again, 404, 'NOT_FOUND');
    await parentLogin(t, body.parent.phone_no, '9731', a.schoolId);
  });

  it('refuses an expired link (400) and leaves the parent without a PIN', async () => {
    const admitted = (await submit(form(a.schoolId))).body.data;
    await Parent.update({ pin_setup_expires_at: new Date(Date.now() - 1000) }, { where: { id: admitted.parent_id } });
    const res = await t.api.post('/parent-app/set-pin').send({ token: tokenOf(admitted.pin_setup.url), pin: '9731' });
    expectError(res, 400, 'BAD_REQUEST');
    expect(fields(res)).toEqual(['token']);
    expect((await Parent.findByPk(admitted.parent_id))!.pin_hash).toBeNull();
  });

  it("answers 404 for a wrong token or one moved to another school, and 400 for a bad PIN", async () => {
    const admitted = (await submit(form(a.schoolId))).body.data;
    const token = tokenOf(admitted.pin_setup.url);
    const secret = token.split('.')[1]!;
    expectError(await t.api.post('/parent-app/set-pin').send({ token: `${a.schoolId}.${'x'.repeat(43)}`, pin: '9731' }), 404, 'NOT_FOUND');
    expectError(await t.api.post('/parent-app/set-pin').send({ token: `${b.schoolId}.${secret}`, pin: '9731' }), 404, 'NOT_FOUND');
    expectError(await t.api.post('/parent-app/set-pin').send({ token: 'garbage', pin: '9731' }), 404, 'NOT_FOUND');
    expectError(await t.api.post('/parent-app/set-pin').send({ token, pin: '12' }), 400, 'BAD_REQUEST');
    expect((await t.api.post('/parent-app/set-pin').send({ token, pin: '9731' })).status).toBe(200);
  });
});

describe('API reference', () => {
  it('documents the admission, student and grade routes', async () => {
    const doc = (await t.api.get('/openapi.json')).body;
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining([
      '/web-app/admission-form', '/web-app/student-info', '/web-app/update-student', '/parent-app/set-pin', '/web-app/grades', '/web-app/grades/{id}',
      '/web-app/students', '/web-app/students/{id}', '/web-app/students/{id}/reset-password', '/teachers-app/students', '/parent-app/student-detail',
    ]));
    expect(doc.paths['/web-app/admission-form'].post.security).toEqual([]);
    expect(doc.paths['/web-app/admission-form'].post.requestBody.content['application/json'].example.student.student_full_name).toBe('Asha Rao');
  });
});

describe('student-info and update-student', () => {
  const info = (schoolId: string, token: string) => t.api.get('/web-app/student-info').query({ school_id: schoolId, admission_token: token });
  const patch = (body: Record<string, unknown>) => t.api.patch('/web-app/update-student').send(body);

  it('shows the application with its status to the holder of the token', async () => {
    const body = form(a.schoolId, { student: { student_full_name: 'Info Child' } });
    const admitted = (await submit(body)).body.data;
    const res = await info(a.schoolId, admitted.admission_token);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      student_id: admitted.student_id, parent_id: admitted.parent_id, status: 'registered', roll_no: admitted.roll_no,
      student: { student_full_name: 'Info Child', grade: '5', date_of_birth: '2016-04-12' },
      parent: { father_name: 'Ravi Rao', phone_no: body.parent.phone_no },
      addresses: [{ address_type: 'current', address: '12 Lake Rd', city: 'Pune', pincode: 411001 }],
      submitted_at: expect.stringMatching(/Z$/),
    });
  });

  it("shows an applicant who gave another family's phone what they typed, never that family's stored names or e-mail", async () => {
    const family = await parent(t.ctx, a.schoolId, { father_name: 'Stored Father' });
    await Parent.update({ mother_name: 'Stored Mother', email: 'stored.private@example.org' }, { where: { id: family.id } });
    await student(a.schoolId, family.id);
    const typed = form(a.schoolId, { parent: { phone_no: family.phone, father_name: 'Typed Father', mother_name: null, email: null } });
    const admitted = (await submit(typed)).body.data;
    expect((await info(a.schoolId, admitted.admission_token)).body.data.parent).toEqual({ father_name: 'Typed Father', mother_name: null, phone_no: family.phone, email: null });
    // Nor after moving an application onto that phone.
    const other = (await submit(form(a.schoolId))).body.data;
    const moved = await patch({ school_id: a.schoolId, admission_token: other.admission_token, section: 'parent', data: { phone_no: family.phone } });
    expect(moved.status).toBe(200);
    expect(JSON.stringify(moved.body)).not.toMatch(/Stored Father|Stored Mother|stored\.private/);
    expect(JSON.stringify((await info(a.schoolId, other.admission_token)).body)).not.toMatch(/Stored Father|Stored Mother|stored\.private/);
  });

  it('answers 404 for a wrong token, or the right token with another school', async () => {
    const admitted = (await submit(form(a.schoolId))).body.data;
    expectError(await info(a.schoolId, `${a.schoolId}.${'y'.repeat(43)}`), 404, 'NOT_FOUND');
    expectError(await info(b.schoolId, admitted.admission_token), 404, 'NOT_FOUND');
    expectError(await patch({ school_id: b.schoolId, admission_token: admitted.admission_token, section: 'student', data: { grade: '6' } }), 404, 'NOT_FOUND');
    expectError(await t.api.get('/web-app/student-info').query({ school_id: a.schoolId }), 400, 'BAD_REQUEST');
  });

  it('updates one section at a time while the student is registered', async () => {
    const admitted = (await submit(form(a.schoolId))).body.data;
    const keys = { school_id: a.schoolId, admission_token: admitted.admission_token };

    const student = await patch({ ...keys, section: 'student', data: { student_full_name: 'Asha Renamed', grade: '6' } });
    expect(student.status).toBe(200);
    expect(student.body.data.student).toMatchObject({ student_full_name: 'Asha Renamed', grade: '6' });

    const parentRes = await patch({ ...keys, section: 'parent', data: { father_name: 'Ravi K. Rao' } });
    expect(parentRes.body.data.parent.father_name).toBe('Ravi K. Rao');
    expect((await Parent.findByPk(admitted.parent_id))!.father_name).toBe('Ravi K. Rao');

    const addresses = await patch({ ...keys, section: 'addresses', data: [{ address: '7 Hill Rd', city: 'Pune', pincode: 411002 }, { address_type: 'permanent', address: '3 Farm Ln' }] });
    expect(addresses.body.data.addresses).toEqual([
      { address_type: 'current', address: '7 Hill Rd', city: 'Pune', pincode: 411002 },
      { address_type: 'permanent', address: '3 Farm Ln', city: null, pincode: null },
    ]);
    expect(await Address.count({ where: { owner_type: 'student', owner_id: admitted.student_id } })).toBe(2);

    const badGrade = await patch({ ...keys, section: 'student', data: { grade: 'Grade 99' } });
    expectError(badGrade, 400, 'BAD_REQUEST');
    expect(fields(badGrade)).toEqual(['data.grade']);
    expectError(await patch({ ...keys, section: 'fees', data: {} }), 400, 'BAD_REQUEST');
    expect((await info(a.schoolId, admitted.admission_token)).body.data.student.grade).toBe('6');
  });

  it('is locked (409) once the student leaves registered', async () => {
    const admitted = (await submit(form(a.schoolId, { student: { student_full_name: 'Locked Child' } }))).body.data;
    const activate = await t.api.put(`/web-app/students/${admitted.student_id}`).set(bearer(a.adminToken)).send({ status: 'active' });
    expect(activate.status).toBe(200);
    const res = await patch({ school_id: a.schoolId, admission_token: admitted.admission_token, section: 'student', data: { student_full_name: 'Changed Later' } });
    expectError(res, 409, 'CONFLICT');
    expect((await Student.findByPk(admitted.student_id))!.student_full_name).toBe('Locked Child');
    expect((await info(a.schoolId, admitted.admission_token)).body.data.status).toBe('active');
  });

  it("does not let an applicant change the details of a parent who has other children", async () => {
    const family = await parent(t.ctx, a.schoolId, { father_name: 'Original Father' });
    const admitted = (await submit(form(a.schoolId, { parent: { phone_no: family.phone } }))).body.data;
    await submit(form(a.schoolId, { parent: { phone_no: family.phone } }));
    const res = await patch({ school_id: a.schoolId, admission_token: admitted.admission_token, section: 'parent', data: { father_name: 'Intruder' } });
    expectError(res, 409, 'CONFLICT');
    expect((await Parent.findByPk(family.id))!.father_name).toBe('Original Father');
  });

  it('relinks the application to a new phone, with a set-up link for the new parent', async () => {
    const admitted = (await submit(form(a.schoolId))).body.data;
    const phone = uniquePhone();
    const res = await patch({ school_id: a.schoolId, admission_token: admitted.admission_token, section: 'parent', data: { phone_no: phone, father_name: 'New Number' } });
    expect(res.status).toBe(200);
    expect(res.body.data.parent).toMatchObject({ phone_no: phone, father_name: 'New Number' });
    expect(res.body.data.pin_setup.url).toContain('/set-pin?token=');
    expect(res.body.data.parent_id).not.toBe(admitted.parent_id);
    expect((await Student.findByPk(admitted.student_id))!.parent_id).toBe(res.body.data.parent_id);
    expect(await Notification.count({ where: { event: 'admission_pin_setup', address: `+91${phone}` } })).toBe(1);
  });
});
