import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Attendance } from '../../src/models/index.js';
import { excuseLeave } from '../../src/services/attendance/attendance.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { assign } from '../helpers/classroom.js';
import { bearer, expectError, parent, parentLogin, school, staffLogin, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';

let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;
let t1: { id: number; token: string };
let t2: { id: number; token: string };
let tb: { id: number; token: string };
let c1: number;
let c2: number;
let c3: number;
let archived: number;
let otherSchoolChild: number;
let p1Token: string;
let p2Token: string;

async function member(schoolId: string, designation: string) {
  const s = await staffMember(schoolId, { designation });
  return { id: s.id, token: await staffLogin(t, s.phone, s.pin, schoolId) };
}

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  b = await school(t);
  t1 = await member(a.schoolId, 'Class Teacher');
  t2 = await member(a.schoolId, 'Subject Teacher');
  tb = await member(b.schoolId, 'Class Teacher');
  const p1 = await parent(t.ctx, a.schoolId);
  const p2 = await parent(t.ctx, a.schoolId);
  c1 = (await student(a.schoolId, p1.id, { grade: '5', name: 'Asha' })).id;
  c2 = (await student(a.schoolId, p2.id, { grade: '6', name: 'Bala' })).id;
  c3 = (await student(a.schoolId, p2.id, { grade: '5', name: 'Chitra' })).id;
  archived = (await student(a.schoolId, p1.id, { grade: '5', name: 'Dev', status: 'archived' })).id;
  const pb = await parent(t.ctx, b.schoolId);
  otherSchoolChild = (await student(b.schoolId, pb.id, { grade: '5' })).id;
  await assign(a.schoolId, t1.id, c1, c2, archived);
  await assign(a.schoolId, t2.id, c1);
  await assign(b.schoolId, tb.id, otherSchoolChild);
  p1Token = await parentLogin(t, p1.phone, p1.pin, a.schoolId);
  p2Token = await parentLogin(t, p2.phone, p2.pin, a.schoolId);
});
afterAll(async () => t.close());

const mark = (token: string, date: string, records: Array<{ student_id: unknown; status: unknown }>) =>
  t.api.put('/teachers-app/attendance').set(bearer(token)).send({ date, records });
const marksOn = async (date: string) =>
  Object.fromEntries((await Attendance.findAll({ where: { school_id: a.schoolId, date }, raw: true })).map((r) => [r.student_id, r.status]));

describe('marking attendance', () => {
  it('saves marks and updates them on a second call (upsert)', async () => {
    const res = await mark(t1.token, '2026-04-01', [{ student_id: c1, status: 'present' }, { student_id: c2, status: 'absent' }]);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ date: '2026-04-01', saved: 2 });
    expect(await marksOn('2026-04-01')).toEqual({ [c1]: 'present', [c2]: 'absent' });

    expect((await mark(t1.token, '2026-04-01', [{ student_id: c2, status: 'late' }])).status).toBe(200);
    expect(await marksOn('2026-04-01')).toEqual({ [c1]: 'present', [c2]: 'late' });
    expect(await Attendance.count({ where: { school_id: a.schoolId, date: '2026-04-01' } })).toBe(2);
    const row = await Attendance.findOne({ where: { school_id: a.schoolId, student_id: c2, date: '2026-04-01' } });
    expect(row?.marked_by_staff_id).toBe(t1.id);
  });

  it('fails the whole request with 403 when one student is not assigned, saving nothing', async () => {
    await mark(t1.token, '2026-04-02', [{ student_id: c1, status: 'late' }]);
    const res = await mark(t1.token, '2026-04-02', [{ student_id: c1, status: 'absent' }, { student_id: c3, status: 'present' }]);
    expectError(res, 403, 'FORBIDDEN');
    expect(await marksOn('2026-04-02')).toEqual({ [c1]: 'late' });

    expectError(await mark(t1.token, '2026-04-03', [{ student_id: c2, status: 'present' }, { student_id: otherSchoolChild, status: 'present' }]), 403, 'FORBIDDEN');
    expectError(await mark(t1.token, '2026-04-03', [{ student_id: 2_000_000_000, status: 'present' }]), 403, 'FORBIDDEN');
    expect(await Attendance.count({ where: { date: '2026-04-03' } })).toBe(0);
  });

  it('refuses bad input with 400', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ date: '2026-04-04', records: [{ student_id: c1, status: 'sick' }] }, 'records.0.status'],
      [{ date: '04/04/2026', records: [{ student_id: c1, status: 'present' }] }, 'date'],
      [{ date: '2026-02-30', records: [{ student_id: c1, status: 'present' }] }, 'date'],
      [{ records: [{ student_id: c1, status: 'present' }] }, 'date'],
      [{ date: '2026-04-04', records: [] }, 'records'],
      [{ date: '2026-04-04' }, 'records'],
      [{ date: '2026-04-04', records: [{ student_id: 0, status: 'present' }] }, 'records.0.student_id'],
      [{ date: '2026-04-04', records: [{ student_id: c1, status: 'present' }, { student_id: c1, status: 'absent' }] }, 'records.1.student_id'],
    ];
    for (const [body, field] of cases) {
      const res = await t.api.put('/teachers-app/attendance').set(bearer(t1.token)).send(body);
      expectError(res, 400, 'BAD_REQUEST');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect(await Attendance.count({ where: { date: '2026-04-04' } })).toBe(0);
  });

  it('needs attendance.manage', async () => {
    expectError(await mark(t2.token, '2026-04-05', [{ student_id: c1, status: 'present' }]), 403, 'FORBIDDEN');
    expectError(await t.api.get('/teachers-app/attendance').set(bearer(t2.token)).query({ date: '2026-04-05' }), 403, 'FORBIDDEN');
    expect(await Attendance.count({ where: { date: '2026-04-05' } })).toBe(0);
  });

  it('keeps one mark per student and date under concurrent requests', async () => {
    const statuses = ['present', 'absent', 'late', 'excused'];
    // Half of the requests name the students in the opposite order, so their row locks are taken the other way round.
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => {
      const records = [{ student_id: c1, status: statuses[i % 4] }, { student_id: c2, status: statuses[(i + 1) % 4] }];
      return mark(t1.token, '2026-04-06', i % 2 ? records.reverse() : records);
    }));
    expect(results.map((r) => r.status)).toEqual(Array(16).fill(200));
    expect(await Attendance.count({ where: { school_id: a.schoolId, date: '2026-04-06' } })).toBe(2);
  });
});

describe("the teacher's roll", () => {
  it("lists the caller's assigned, unarchived students with their mark or null", async () => {
    await mark(t1.token, '2026-04-07', [{ student_id: c1, status: 'absent' }]);
    const res = await t.api.get('/teachers-app/attendance').set(bearer(t1.token)).query({ date: '2026-04-07' });
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { student_id: number; status: string | null }) => [r.student_id, r.status])).toEqual([[c1, 'absent'], [c2, null]]);
    expect(res.body.data[0]).toMatchObject({ student_full_name: 'Asha', grade: '5', marked_by_staff_id: t1.id, marked_at: expect.stringMatching(/Z$/) });

    const grade6 = await t.api.get('/teachers-app/attendance').set(bearer(t1.token)).query({ date: '2026-04-07', grade: '6' });
    expect(grade6.body.data.map((r: { student_id: number }) => r.student_id)).toEqual([c2]);
    const other = await t.api.get('/teachers-app/attendance').set(bearer(tb.token)).query({ date: '2026-04-07' });
    expect(other.body.data.map((r: { student_id: number; status: string | null }) => [r.student_id, r.status])).toEqual([[otherSchoolChild, null]]);
    expectError(await t.api.get('/teachers-app/attendance').set(bearer(t1.token)), 400, 'BAD_REQUEST');
  });
});

describe("the parent's view", () => {
  beforeAll(async () => {
    await Attendance.destroy({ where: { school_id: a.schoolId } });
    await Attendance.bulkCreate([
      { school_id: a.schoolId, student_id: c1, date: '2026-05-01', status: 'present' },
      { school_id: a.schoolId, student_id: c1, date: '2026-05-02', status: 'absent' },
      { school_id: a.schoolId, student_id: c1, date: '2026-05-03', status: 'late' },
      { school_id: a.schoolId, student_id: c1, date: '2026-05-04', status: 'present' },
      { school_id: a.schoolId, student_id: c1, date: '2026-05-05', status: 'excused' },
      { school_id: a.schoolId, student_id: c2, date: '2026-05-01', status: 'absent' },
    ]);
  });

  it('returns the marks, oldest first, with a summary', async () => {
    const res = await t.api.get('/parent-app/attendance').set(bearer(p1Token)).query({ student_id: c1 });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      student_id: c1, from: null, to: null,
      marks: [
        { date: '2026-05-01', status: 'present' }, { date: '2026-05-02', status: 'absent' }, { date: '2026-05-03', status: 'late' },
        { date: '2026-05-04', status: 'present' }, { date: '2026-05-05', status: 'excused' },
      ],
      summary: { present: 2, absent: 1, late: 1, excused: 1 },
    });
  });

  it('bounds the range by from and to, both included', async () => {
    const res = await t.api.get('/parent-app/attendance').set(bearer(p1Token)).query({ student_id: c1, from: '2026-05-02', to: '2026-05-04' });
    expect(res.body.data.marks.map((m: { date: string }) => m.date)).toEqual(['2026-05-02', '2026-05-03', '2026-05-04']);
    expect(res.body.data.summary).toEqual({ present: 1, absent: 1, late: 1, excused: 0 });
    expectError(await t.api.get('/parent-app/attendance').set(bearer(p1Token)).query({ from: '2026-05-04', to: '2026-05-02' }), 400, 'BAD_REQUEST');
  });

  it("defaults to the first child, and refuses another family's student with 403", async () => {
    const res = await t.api.get('/parent-app/attendance').set(bearer(p2Token));
    expect(res.body.data).toMatchObject({ student_id: c2, summary: { present: 0, absent: 1, late: 0, excused: 0 } });
    expectError(await t.api.get('/parent-app/attendance').set(bearer(p2Token)).query({ student_id: c1 }), 403, 'FORBIDDEN');
    expectError(await t.api.get('/parent-app/attendance').set(bearer(p1Token)).query({ student_id: otherSchoolChild }), 403, 'FORBIDDEN');
  });
});

describe('excusing a leave', () => {
  it('marks every date excused where no mark exists, leaving existing marks untouched', async () => {
    await mark(t1.token, '2026-06-02', [{ student_id: c1, status: 'present' }]);
    const marked = await excuseLeave(t.ctx, { schoolId: a.schoolId, studentId: c1, from: '2026-06-01', to: '2026-06-04', staffId: null });
    expect(marked).toBe(3);
    const rows = await Attendance.findAll({ where: { school_id: a.schoolId, student_id: c1, date: ['2026-06-01', '2026-06-02', '2026-06-03', '2026-06-04'] }, order: [['date', 'ASC']], raw: true });
    expect(rows.map((r) => [r.date, r.status])).toEqual([['2026-06-01', 'excused'], ['2026-06-02', 'present'], ['2026-06-03', 'excused'], ['2026-06-04', 'excused']]);
    expect(rows[1].marked_by_staff_id).toBe(t1.id);
    expect(await excuseLeave(t.ctx, { schoolId: a.schoolId, studentId: c1, from: '2026-06-01', to: '2026-06-04', staffId: null })).toBe(0);
  });

  it("writes in the caller's transaction, so a rollback undoes it", async () => {
    await expect(t.ctx.db.sequelize.transaction(async (transaction) => {
      expect(await excuseLeave(t.ctx, { schoolId: a.schoolId, studentId: c2, from: '2026-06-10', to: '2026-06-11', staffId: t1.id }, transaction)).toBe(2);
      throw new Error('resolve failed');
    })).rejects.toThrow('resolve failed');
    expect(await Attendance.count({ where: { school_id: a.schoolId, student_id: c2, date: ['2026-06-10', '2026-06-11'] } })).toBe(0);
  });

  it('crosses month ends and marks a single day', async () => {
    expect(await excuseLeave(t.ctx, { schoolId: a.schoolId, studentId: c2, from: '2026-02-27', to: '2026-03-02', staffId: t1.id })).toBe(4);
    expect(await excuseLeave(t.ctx, { schoolId: a.schoolId, studentId: c2, from: '2026-07-15', to: '2026-07-15', staffId: t1.id })).toBe(1);
    const res = await t.api.get('/parent-app/attendance').set(bearer(p2Token)).query({ from: '2026-02-01', to: '2026-03-31' });
    expect(res.body.data.marks).toEqual([
      { date: '2026-02-27', status: 'excused' }, { date: '2026-02-28', status: 'excused' }, { date: '2026-03-01', status: 'excused' }, { date: '2026-03-02', status: 'excused' },
    ]);
  });
});
