import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Response } from 'supertest';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { bearer, parent, parentLogin, school, staffLogin, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';
import { responseCheck } from '../helpers/openapi-check.js';

/**
 * The rules the document states about requests (patterns, formats, conditions, "at least one field")
 * are the ones the service enforces: each value below is judged by the document's schema, read by
 * the same JSON Schema 2020-12 validator as every answer, and sent to the service, and both verdicts
 * must be the expected one (the service refuses with 400 exactly the values the document refuses).
 */
let t: TestApp;
let a: SchoolFixture;
let teacher: string;
let parentToken: string;
let child: number;
let gradeId: number;
let staffId: number;

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  const m = await staffMember(a.schoolId, { rbac: { diary: 'manage' } });
  staffId = m.id;
  teacher = await staffLogin(t, m.phone, m.pin, a.schoolId);
  const p = await parent(t.ctx, a.schoolId);
  child = (await student(a.schoolId, p.id, { grade: '5' })).id;
  parentToken = await parentLogin(t, p.phone, p.pin, a.schoolId);
  const grades = await t.api.get('/web-app/grades').query({ school_id: a.schoolId });
  gradeId = (grades.body.data as Array<{ id: number; name: string }>).find((g) => g.name === '5')!.id;
});
afterAll(async () => t.close());

interface Case {
  what: string;
  allowed: boolean;
  method: 'post' | 'put' | 'patch';
  path: string;
  body: Record<string, unknown>;
  send: () => Promise<Response>;
}

let digits = 0;
/** A phone number no one in the school has yet, written as the case wants it. */
const freshPhone = (written: (n: string) => string) => written(`98${String(70000000 + ++digits).padStart(8, '0')}`);

async function verdicts(cases: Case[]) {
  const check = responseCheck();
  const results = [];
  for (const c of cases) {
    const problems = check.requestViolations(c.method, c.path, c.body);
    const res = await c.send();
    results.push({ what: c.what, document: problems.length === 0, service: res.status !== 400 });
  }
  expect(results).toEqual(cases.map((c) => ({ what: c.what, document: c.allowed, service: c.allowed })));
}

const web = (method: Case['method'], path: string, token: string) => (body: Record<string, unknown>) => () => t.api[method](path).set(bearer(token)).send(body);

describe('the request rules of the document and of the service', () => {
  it('phone_no: 6 to 15 digits, an optional leading +, spaces, dots, dashes and brackets dropped', async () => {
    const staff = (what: string, allowed: boolean, phone: string): Case => {
      const body = { name: 'Anita Desai', phone_no: phone };
      return { what, allowed, method: 'post', path: '/web-app/staff', body, send: web('post', '/web-app/staff', a.adminToken)(body) };
    };
    await verdicts([
      staff('ten digits', true, freshPhone((n) => n)),
      staff('international, with spaces and dashes', true, freshPhone((n) => `+91 ${n.slice(0, 5)}-${n.slice(5)}`)),
      staff('brackets and dots', true, freshPhone((n) => `(${n.slice(0, 3)}) ${n.slice(3, 6)}.${n.slice(6)}`)),
      staff('six digits', true, '123456'),
      staff('five digits', false, '12345'),
      staff('sixteen digits', false, '1234567890123456'),
      staff('a letter', false, '98765x43210'),
      staff('a + inside', false, '98+76543210'),
      staff('only separators', false, '( ) - .'),
    ]);
  });

  it('dates are real calendar dates, YYYY-MM-DD', async () => {
    const diary = (what: string, allowed: boolean, due_date: string): Case => {
      const body = { school_id: a.schoolId, grade: '5', title: 'Homework', due_date };
      return { what, allowed, method: 'post', path: '/teachers-app/diary', body, send: web('post', '/teachers-app/diary', teacher)(body) };
    };
    await verdicts([
      diary('a date', true, '2026-11-24'),
      diary('29 February of a leap year', true, '2028-02-29'),
      diary('29 February of another year', false, '2026-02-29'),
      diary('month 13', false, '2026-13-01'),
      diary('one-digit month', false, '2026-1-01'),
      diary('a time', false, '2026-11-24T10:00:00Z'),
    ]);
  });

  it('a leave request carries its dates; other requests need none', async () => {
    const request = (what: string, allowed: boolean, body: Record<string, unknown>): Case => ({
      what, allowed, method: 'post', path: '/parent-app/write-to', body, send: web('post', '/parent-app/write-to', parentToken)(body),
    });
    await verdicts([
      request('a leave with both dates', true, { student_id: child, type: 'leave', message: 'A wedding', leave_from: '2026-12-01', leave_to: '2026-12-02' }),
      request('a leave without dates', false, { student_id: child, type: 'leave', message: 'A wedding' }),
      request('a leave without its end', false, { student_id: child, type: 'leave', message: 'A wedding', leave_from: '2026-12-01' }),
      request('a query without dates', true, { student_id: child, type: 'query', message: 'When is the trip?' }),
    ]);
  });

  it('a change names at least one field, school_id aside', async () => {
    const grade = (what: string, allowed: boolean, body: Record<string, unknown>): Case => ({
      what, allowed, method: 'put', path: `/web-app/grades/${gradeId}`, body, send: web('put', `/web-app/grades/${gradeId}`, a.adminToken)(body),
    });
    const staff = (what: string, allowed: boolean, body: Record<string, unknown>): Case => ({
      what, allowed, method: 'put', path: `/web-app/staff/${staffId}`, body, send: web('put', `/web-app/staff/${staffId}`, a.adminToken)(body),
    });
    await verdicts([
      grade('a grade renamed', true, { name: 'Class 5' }),
      grade('a grade, nothing', false, {}),
      grade('a grade, only the school', false, { school_id: a.schoolId }),
      grade('a grade, only an unknown field', false, { colour: 'blue' }),
      staff('a staff member renamed', true, { name: 'Meera Iyer' }),
      staff('a staff member, nothing', false, {}),
    ]);
  });

  it('a test push names its target', async () => {
    const push = (what: string, allowed: boolean, body: Record<string, unknown>): Case => ({
      what, allowed, method: 'post', path: '/web-app/diagnostics/test-push', body, send: web('post', '/web-app/diagnostics/test-push', a.adminToken)(body),
    });
    await verdicts([
      push('a device token', true, { fcm_token: 'device-token', title: 'Test' }),
      push('a staff member', true, { staff_id: staffId }),
      push('no target', false, { title: 'Test', body: 'Hello' }),
    ]);
  });

  it('a school_id the teachers app sends in a query has the form of a school id', async () => {
    const list = (value: string) => t.api.get('/teachers-app/write-to').query({ school_id: value }).set(bearer(teacher));
    const check = responseCheck();
    for (const [value, allowed] of [[a.schoolId, true], ['not a school!', false]] as const) {
      const url = `/teachers-app/write-to?${new URLSearchParams({ school_id: value })}`;
      expect({ value, document: check.queryViolations('get', url).length === 0, service: (await list(value)).status !== 400 })
        .toEqual({ value, document: allowed, service: allowed });
    }
  });
});
