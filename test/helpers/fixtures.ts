import { expect } from '@jest/globals';
import { AdminUser, Parent, Staff, Student } from '../../src/models/index.js';
import { hashSecretValue } from '../../src/services/auth/passwords.js';
import { createSchool } from '../../src/services/schools/schools.js';
import type { AppContext } from '../../src/context.js';
import type { TestApp } from './app.js';

export const ADMIN_PASSWORD = 'correct horse battery';

let seq = 0;
const next = () => ++seq;

export interface SchoolFixture {
  schoolId: string;
  adminId: number;
  adminEmail: string;
  adminToken: string;
}

/** A school with its base data and a signed-in super_admin. */
export async function school(t: TestApp, schoolId = `school-${next()}-${Math.random().toString(36).slice(2, 6)}`): Promise<SchoolFixture> {
  const adminEmail = `admin-${schoolId}@example.org`.toLowerCase();
  const { admin } = await createSchool(t.ctx, { school_id: schoolId, school_name: `School ${schoolId}`, admin: { name: 'Head Admin', email: adminEmail, password: ADMIN_PASSWORD } });
  const adminToken = await signIn(t, adminEmail, ADMIN_PASSWORD);
  return { schoolId, adminId: admin.id, adminEmail, adminToken };
}

export async function signIn(t: TestApp, email: string, password: string): Promise<string> {
  const res = await t.api.post('/web-app/signin').send({ email, password });
  expect(res.status).toBe(200);
  return res.body.data.access_token as string;
}

export async function adminUser(t: TestApp, schoolId: string, role: 'super_admin' | 'admin' | 'it_contact') {
  const email = `${role}-${next()}@${schoolId}.example.org`.toLowerCase();
  const admin = await AdminUser.create({ school_id: schoolId, name: `${role} user`, email, password_hash: await hashSecretValue(ADMIN_PASSWORD), role });
  return { id: admin.id, email, token: await signIn(t, email, ADMIN_PASSWORD) };
}

export const uniquePhone = () => `9${String(100000000 + next() * 7919 + Math.floor(Math.random() * 1000)).slice(-9)}`;

export async function parent(ctx: AppContext, schoolId: string, opts: { phone?: string; pin?: string; father_name?: string } = {}) {
  void ctx;
  const phone = opts.phone ?? uniquePhone();
  const pin = opts.pin ?? '1234';
  const row = await Parent.create({ school_id: schoolId, father_name: opts.father_name ?? 'Ravi Rao', phone_no: phone, pin_hash: await hashSecretValue(pin) });
  return { id: row.id, phone, pin };
}

export async function student(schoolId: string, parentId: number | null, opts: Partial<{ name: string; grade: string; roll_no: string; status: 'registered' | 'active' | 'inactive' | 'archived'; phone_no: string }> = {}) {
  const n = next();
  const row = await Student.create({
    school_id: schoolId, parent_id: parentId, student_full_name: opts.name ?? `Student ${n}`, gender: 'female', grade: opts.grade ?? '5',
    date_of_birth: '2016-04-12', blood_group: 'B+', phone_no: opts.phone_no ?? null, roll_no: opts.roll_no ?? `R${n}`, status: opts.status ?? 'active',
  });
  return row;
}

export async function staffMember(schoolId: string, opts: Partial<{ phone: string; pin: string; designation: string; rbac: Record<string, string>; status: number; name: string; email: string }> = {}) {
  const phone = opts.phone ?? uniquePhone();
  const pin = opts.pin ?? '4321';
  const row = await Staff.create({
    school_id: schoolId, name: opts.name ?? 'Teacher', designation: opts.designation ?? 'Class Teacher', phone_no: phone,
    email: opts.email ?? `t${next()}@${schoolId}.example.org`, pin_hash: await hashSecretValue(pin), rbac: (opts.rbac as never) ?? null, status: opts.status ?? 1,
  });
  return { id: row.id, phone, pin, row };
}

export async function parentLogin(t: TestApp, phone: string, pin: string, schoolId?: string): Promise<string> {
  const res = await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: phone, pin, ...(schoolId ? { school_id: schoolId } : {}) });
  expect(res.status).toBe(200);
  return res.body.data.access_token as string;
}

export async function staffLogin(t: TestApp, phone: string, pin: string, schoolId: string): Promise<string> {
  const res = await t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: phone, pin, school_id: schoolId });
  expect(res.status).toBe(200);
  return res.body.data.access_token as string;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** The contract's error body, with the code expected. */
export function expectError(res: { status: number; body: Record<string, unknown> }, status: number, code: string) {
  expect({ status: res.status, code: (res.body.error as { code?: string } | undefined)?.code, success: res.body.success }).toEqual({ status, code, success: false });
  expect(typeof res.body.message).toBe('string');
}
