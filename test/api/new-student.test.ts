import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Address, Admission, AuditEvent, Notification, Parent, Student, Webhook, WebhookDelivery } from '../../src/models/index.js';
import { AppError } from '../../src/errors.js';
import { operatorPrincipal } from '../../src/services/access/guards.js';
import { createStudentFromForm, type StudentForm } from '../../src/services/students/new-student.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import {
  adminUser, bearer, expectError, parent, parentLogin, school, staffLogin, staffMember, student, uniquePhone, type SchoolFixture,
} from '../helpers/fixtures.js';

let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;

beforeAll(async () => {
  t = await startTestApp({ PUBLIC_APP_URL: 'https://office.greenwood.example' });
  a = await school(t);
  b = await school(t);
  // Every event of school A would be delivered: none must come of a student the office adds.
  await Webhook.create({ school_id: a.schoolId, url: 'https://hooks.example/a', events: ['*'], secret: 'x'.repeat(43) });
});
afterAll(async () => t.close());

function body(overrides: { student?: Record<string, unknown>; parent?: Record<string, unknown>; addresses?: unknown[]; school_id?: string } = {}) {
  return {
    ...(overrides.school_id ? { school_id: overrides.school_id } : {}),
    student: { student_full_name: 'Asha Rao', gender: 'female', grade: '5', date_of_birth: '2016-04-12', blood_group: 'B+', ...overrides.student },
    parent: { father_name: 'Ravi Rao', mother_name: 'Meena Rao', phone_no: uniquePhone(), email: 'ravi@example.com', ...overrides.parent },
    addresses: overrides.addresses ?? [{ address_type: 'current', address: '12 Lake Rd', city: 'Pune', pincode: 411001 }],
  };
}

const add = (token: string, sent: unknown) => t.api.post('/web-app/students').set(bearer(token)).send(sent as object);
const fields = (res: { body: { error: { details: Array<{ field: string }> } } }) => res.body.error.details.map((d) => d.field);
const counts = async (schoolId: string) => [await Student.count({ where: { school_id: schoolId } }), await Parent.count({ where: { school_id: schoolId } }), await Address.count({ where: { school_id: schoolId } })];

describe('POST /web-app/students', () => {
  it('adds an active student with a new guardian, answering the PIN set-up link once and sending it by SMS; no admission, token or event', async () => {
    const sent = body();
    const res = await add(a.adminToken, sent);
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      student_id: expect.any(Number), parent_id: expect.any(Number), roll_no: expect.any(String), status: 'active',
      pin_setup: { url: expect.stringMatching(/^https:\/\/office\.greenwood\.example\/set-pin\?token=/), expires_at: expect.any(String) },
    });
    const { student_id: studentId, parent_id: parentId } = res.body.data;
    expect(await Student.findByPk(studentId, { raw: true })).toMatchObject({ school_id: a.schoolId, student_full_name: 'Asha Rao', status: 'active', parent_id: parentId, phone_no: sent.parent.phone_no });
    expect(await Parent.findByPk(parentId, { raw: true })).toMatchObject({ father_name: 'Ravi Rao', mother_name: 'Meena Rao', email: 'ravi@example.com', pin_hash: null });
    expect(await Address.count({ where: { school_id: a.schoolId, owner_type: 'student', owner_id: studentId } })).toBe(1);
    const sms = await Notification.findAll({ where: { school_id: a.schoolId, target_type: 'parent', target_id: parentId }, raw: true });
    expect(sms).toEqual([expect.objectContaining({ event: 'admission_pin_setup', channel: 'sms', address: `+91${sent.parent.phone_no}` })]);
    expect(sms[0]!.body).toContain(res.body.data.pin_setup.url);
    expect(await Admission.count({ where: { school_id: a.schoolId, student_id: studentId } })).toBe(0);
    expect(await WebhookDelivery.count({ where: { school_id: a.schoolId } })).toBe(0);
    const events = await AuditEvent.findAll({ where: { school_id: a.schoolId, entity_type: 'student', entity_id: String(studentId) }, raw: true });
    expect(events.map((e) => e.action)).toContain('student.create');
    expect(events.find((e) => e.action === 'student.create')).toMatchObject({ actor_type: 'admin', actor_id: String(a.adminId), door: 'api' });
    // The set-up link works once, and the parent then signs in and sees the child.
    const token = new URL(res.body.data.pin_setup.url).searchParams.get('token');
    expect((await t.api.post('/parent-app/set-pin').send({ token, pin: '2468' })).status).toBe(200);
    const login = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: sent.parent.phone_no, pin: '2468', school_id: a.schoolId });
    expect(login.body.data.children).toEqual([expect.objectContaining({ id: studentId, status: 'active' })]);
  });

  it('takes status registered, and refuses any other status with 400 naming student.status', async () => {
    const registered = await add(a.adminToken, body({ student: { status: 'registered' } }));
    expect(registered.status).toBe(201);
    expect(registered.body.data.status).toBe('registered');
    expect((await Student.findByPk(registered.body.data.student_id))!.status).toBe('registered');
    const before = await counts(a.schoolId);
    for (const status of ['inactive', 'archived', 'enrolled']) {
      const res = await add(a.adminToken, body({ student: { status } }));
      expectError(res, 400, 'BAD_REQUEST');
      expect(fields(res)).toEqual(['student.status']);
    }
    expect(await counts(a.schoolId)).toEqual(before);
  });

  it('is all or nothing: a bad field is a 400 naming it, and nothing is written', async () => {
    const before = await counts(a.schoolId);
    const notifications = await Notification.count({ where: { school_id: a.schoolId } });
    const cases: Array<[Parameters<typeof body>[0], string]> = [
      [{ student: { grade: 'Year 14' } }, 'student.grade'],
      [{ student: { student_full_name: '' } }, 'student.student_full_name'],
      [{ parent: { phone_no: '12' } }, 'parent.phone_no'],
      [{ parent: { email: 'nope' } }, 'parent.email'],
      [{ student: { date_of_birth: '2016-02-30' } }, 'student.date_of_birth'],
      [{ addresses: [{ address_type: 'current', city: 'Pune' }] }, 'addresses.0.address'],
    ];
    for (const [overrides, field] of cases) {
      const res = await add(a.adminToken, body(overrides));
      expectError(res, 400, 'BAD_REQUEST');
      expect(fields(res)).toContain(field);
    }
    expect(await counts(a.schoolId)).toEqual(before);
    expect(await Notification.count({ where: { school_id: a.schoolId } })).toBe(notifications);
  });

  it('answers 409 naming student.roll_no for a taken roll number, and gives the next free number when none is sent', async () => {
    await student(a.schoolId, null, { roll_no: '900' });
    const before = await counts(a.schoolId);
    const taken = await add(a.adminToken, body({ student: { roll_no: '900' } }));
    expectError(taken, 409, 'CONFLICT');
    expect(fields(taken)).toEqual(['student.roll_no']);
    expect(await counts(a.schoolId)).toEqual(before);
    const next = await add(a.adminToken, body());
    expect(Number(next.body.data.roll_no)).toBeGreaterThan(900);
  });

  it("links the student to the parent of a phone the school knows, who keeps their PIN and gets no set-up link; another school's parent of that phone is not touched", async () => {
    const family = await parent(t.ctx, a.schoolId, { pin: '5555', father_name: 'Existing Father' });
    const elsewhere = await parent(t.ctx, b.schoolId, { phone: family.phone, pin: '7777' });
    const res = await add(a.adminToken, body({ parent: { phone_no: family.phone, father_name: 'Someone Else' } }));
    expect(res.status).toBe(201);
    expect(res.body.data.parent_id).toBe(family.id);
    expect(res.body.data).not.toHaveProperty('pin_setup');
    expect((await Parent.findByPk(family.id))!.father_name).toBe('Existing Father');
    expect(await Notification.count({ where: { target_type: 'parent', target_id: [family.id, elsewhere.id] } })).toBe(0);
    const token = await parentLogin(t, family.phone, '5555', a.schoolId);
    const detail = await t.api.get('/parent-app/student-detail').query({ student_id: res.body.data.student_id }).set(bearer(token));
    expect(detail.status).toBe(200);
    expect(await Student.count({ where: { school_id: b.schoolId, parent_id: elsewhere.id } })).toBe(0);
  });

  it("takes the caller's own school_id, refuses another school's with 403, and refuses every role but super_admin and admin", async () => {
    expect((await add(a.adminToken, body({ school_id: a.schoolId }))).status).toBe(201);
    const before = await counts(b.schoolId);
    expectError(await add(a.adminToken, body({ school_id: b.schoolId })), 403, 'FORBIDDEN');
    expect(await counts(b.schoolId)).toEqual(before);
    const admin = await adminUser(t, a.schoolId, 'admin');
    expect((await add(admin.token, body())).status).toBe(201);
    const itContact = await adminUser(t, a.schoolId, 'it_contact');
    expectError(await add(itContact.token, body()), 403, 'FORBIDDEN');
    const s = await staffMember(a.schoolId, { rbac: { students: 'manage' } });
    expectError(await t.api.post('/web-app/students').set(bearer(await staffLogin(t, s.phone, s.pin, a.schoolId))).send(body()), 403, 'FORBIDDEN');
    expectError(await t.api.post('/web-app/students').send(body()), 401, 'UNAUTHORIZED');
  });
});

describe("the service the console's New form calls, with the students CSV columns", () => {
  const form = (overrides: Record<string, unknown> = {}) => ({
    student_full_name: 'Kiran Shah', roll_no: null, gender: 'male', grade: '6', date_of_birth: '2015-08-01', blood_group: 'O+',
    phone_no: uniquePhone(), father_name: 'Dev Shah', mother_name: null, email: null, address: '4 Hill Rd', city: 'Pune', pincode: '411002', status: 'registered', ...overrides,
  }) as StudentForm;

  it('adds the student through the same service', async () => {
    const result = await createStudentFromForm(t.ctx, operatorPrincipal(a.schoolId), form());
    expect(result).toMatchObject({ status: 'registered', pin_setup: { url: expect.any(String) } });
    expect(await Student.findByPk(result.student_id, { raw: true })).toMatchObject({ student_full_name: 'Kiran Shah', grade: '6', status: 'registered' });
    expect(await Address.findAll({ where: { owner_type: 'student', owner_id: result.student_id }, raw: true })).toEqual([
      expect.objectContaining({ address: '4 Hill Rd', city: 'Pune', pincode: 411002 }),
    ]);
  });

  it('names the form\'s own field in a refusal', async () => {
    const refused = async (overrides: Record<string, unknown>) => {
      const err = await createStudentFromForm(t.ctx, operatorPrincipal(a.schoolId), form(overrides)).then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      return { status: (err as AppError).status, fields: ((err as AppError).details as Array<{ field: string }>).map((d) => d.field) };
    };
    expect(await refused({ grade: 'Year 14' })).toEqual({ status: 400, fields: ['grade'] });
    expect(await refused({ phone_no: 'call me' })).toEqual({ status: 400, fields: ['phone_no'] });
    expect(await refused({ address: null, city: 'Pune' })).toEqual({ status: 400, fields: ['address'] });
    expect(await refused({ status: 'archived' })).toEqual({ status: 400, fields: ['status'] });
    await student(a.schoolId, null, { roll_no: 'F-1' });
    expect(await refused({ roll_no: 'F-1' })).toEqual({ status: 409, fields: ['roll_no'] });
  });
});
