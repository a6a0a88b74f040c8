import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Form, FormResponse } from '../../src/models/index.js';
import { issueSession } from '../../src/services/auth/sessions.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { bearer, parent, school, staffLogin, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';

/**
 * Sign-up slots are never overbooked and nobody answers twice, whatever arrives at once: twenty
 * submissions fired together, on SQLite and on MariaDB (TEST_DATABASE_URL), against the real app.
 */
let t: TestApp;
let a: SchoolFixture;
let teacher: string;
const families: Array<{ token: string; child: number }> = [];

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  const s = await staffMember(a.schoolId, { rbac: { activities: 'create' } });
  teacher = await staffLogin(t, s.phone, s.pin, a.schoolId);
  for (let i = 0; i < 20; i++) {
    const p = await parent(t.ctx, a.schoolId, { father_name: `Parent ${i}` });
    const child = await student(a.schoolId, p.id, { name: `Child ${i}`, grade: '5' });
    // Sessions as a login makes them, without twenty bcrypt compares.
    const session = await issueSession(t.ctx, { type: 'parent', id: p.id, schoolId: a.schoolId }, {});
    families.push({ token: session.access_token, child: child.id });
  }
});
afterAll(async () => t.close());

async function formOf(form: Record<string, unknown>): Promise<{ activity: number; form: number }> {
  const res = await t.api.post('/teachers-app/activities').set(bearer(teacher)).send({ school_id: a.schoolId, title: 'Volunteers', form });
  expect(res.status).toBe(201);
  return { activity: res.body.data.id, form: res.body.data.form.id };
}

const respond = (token: string, formId: number, body: Record<string, unknown>) => t.api.post(`/parent-app/forms/${formId}/responses`).set(bearer(token)).send(body);

const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((out, s) => ({ ...out, [s]: (out[s] ?? 0) + 1 }), {});

describe('items with forms posted at once', () => {
  it('creates every one of ten activities with a form and an audience sent together (no deadlock on MySQL)', async () => {
    const slip = { questions: [{ id: 'ok', type: 'consent', label: 'May come' }] };
    const posted = await Promise.all(families.slice(0, 10).map((_f, i) => t.api.post('/teachers-app/activities').set(bearer(teacher))
      .send({ school_id: a.schoolId, title: `Trip ${i}`, form: slip, audience: { grades: ['5'] } })));
    expect(posted.map((r) => r.status)).toEqual(Array(10).fill(201));
    expect(new Set(posted.map((r) => r.body.data.form.id)).size).toBe(10);
    expect(await Form.count({ where: { school_id: a.schoolId, entity_id: posted.map((r) => r.body.data.id) } })).toBe(10);
  });

  it('changes every one of ten activities given a form and an audience together', async () => {
    const plain = await Promise.all(Array.from({ length: 10 }, (_, i) => t.api.post('/teachers-app/activities').set(bearer(teacher)).send({ school_id: a.schoolId, title: `Plain ${i}` })));
    const slip = { questions: [{ id: 'ok', type: 'consent', label: 'May come' }] };
    const changed = await Promise.all(plain.map((r) => t.api.put(`/teachers-app/activities/${r.body.data.id}`).set(bearer(teacher))
      .send({ school_id: a.schoolId, form: slip, audience: { grades: ['5'] } })));
    expect(changed.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(changed.map((r) => r.body.data.audience)).toEqual(Array(10).fill({ grades: ['5'], group_ids: [], student_ids: [] }));
  });
});

describe('capacity under concurrent submissions', () => {
  it('takes exactly 5 of 20 submissions fired at once for 5 places, and refuses the rest with 409 naming the option', async () => {
    const { activity, form } = await formOf({
      questions: [{ id: 'slot', type: 'choice', label: 'Field trip helper', required: true, options: [{ id: 'bus', label: 'On the bus', capacity: 5 }, { id: 'none', label: 'Not this time' }] }],
    });
    const answers = await Promise.all(families.map((f) => respond(f.token, form, { student_id: f.child, answers: { slot: 'bus' } })));
    expect(tally(answers.map((r) => r.status))).toEqual({ 201: 5, 409: 15 });
    for (const refused of answers.filter((r) => r.status === 409)) {
      expect(refused.body.error).toEqual({ code: 'CONFLICT', details: [{ field: 'answers.slot', option: 'bus', message: expect.any(String) }] });
    }
    expect(await FormResponse.count({ where: { form_id: form } })).toBe(5);
    const stored = (await Form.findByPk(form))!;
    expect(stored.counts).toEqual({ slot: { bus: 5, none: 0 } });
    expect(stored.response_count).toBe(5);
    const view = (await t.api.get(`/parent-app/activities/${activity}`).set(bearer(families[0]!.token))).body.data.form;
    expect(view.questions[0].options[0]).toEqual({ id: 'bus', label: 'On the bus', capacity: 5, remaining: 0 });
  });

  it('holds the capacity when twenty families change their responses at once', async () => {
    const { form } = await formOf({
      questions: [{ id: 'slot', type: 'choice', label: 'Meeting slot', options: [{ id: 'nine', label: '9:00', capacity: 3 }, { id: 'later', label: 'Later' }] }],
    });
    const first = await Promise.all(families.map((f) => respond(f.token, form, { student_id: f.child, answers: { slot: 'later' } })));
    expect(tally(first.map((r) => r.status))).toEqual({ 201: 20 });
    const moved = await Promise.all(first.map((r, i) =>
      t.api.put(`/parent-app/forms/${form}/responses/${r.body.data.id}`).set(bearer(families[i]!.token)).send({ answers: { slot: 'nine' } })));
    expect(tally(moved.map((r) => r.status))).toEqual({ 200: 3, 409: 17 });
    expect((await Form.findByPk(form))!.counts).toEqual({ slot: { nine: 3, later: 17 } });
    const rows = await FormResponse.findAll({ where: { form_id: form }, raw: true });
    expect(rows.filter((r) => JSON.parse(r.answers as unknown as string).slot === 'nine')).toHaveLength(3);
  });
});

describe('one response per child or family under concurrent submissions', () => {
  it('keeps one of twenty identical submissions for the same child', async () => {
    const { form } = await formOf({ questions: [{ id: 'ok', type: 'consent', label: 'Allowed', required: true }] });
    const f = families[3]!;
    const answers = await Promise.all(Array.from({ length: 20 }, () => respond(f.token, form, { student_id: f.child, answers: { ok: 'agree' }, signature: 'Parent 3' })));
    expect(tally(answers.map((r) => r.status))).toEqual({ 201: 1, 409: 19 });
    expect(answers.filter((r) => r.status === 409).every((r) => r.body.error.code === 'CONFLICT')).toBe(true);
    expect(await FormResponse.count({ where: { form_id: form } })).toBe(1);
    expect((await Form.findByPk(form))!.response_count).toBe(1);
  });

  it('keeps one of twenty submissions by the same family on a per-family form', async () => {
    const { form } = await formOf({ questions: [{ id: 'rsvp', type: 'choice', label: 'Coming?', options: [{ id: 'y', label: 'Yes', capacity: 100 }, { id: 'n', label: 'No' }] }], per_student: false });
    const f = families[4]!;
    const answers = await Promise.all(Array.from({ length: 20 }, () => respond(f.token, form, { answers: { rsvp: 'y' } })));
    expect(tally(answers.map((r) => r.status))).toEqual({ 201: 1, 409: 19 });
    expect((await Form.findByPk(form))!.counts).toEqual({ rsvp: { y: 1, n: 0 } });
  });
});
