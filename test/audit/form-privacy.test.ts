import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Model, ModelStatic } from 'sequelize';
import { AuditEvent, CalendarFeed, Form, FormResponse, Webhook, WebhookDelivery, allModels } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { bearer, expectError, parent, parentLogin, school, staffLogin, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';

/**
 * Forms and the calendar feed in the data rights of section 21: the export's form_responses, and an
 * erasure that blanks the family's text answers, signatures, ips and user agents (choices,
 * consents, numbers and the counts stay) and revokes an erased parent's calendar feed.
 */
let t: TestApp;
let a: SchoolFixture;
let teacher: string;
let formIds: { perStudent: number; perFamily: number };

beforeAll(async () => {
  t = await startTestApp({ PUBLIC_APP_URL: 'https://school.example.org' });
  a = await school(t);
  await Webhook.create({ school_id: a.schoolId, url: 'https://sis.example.org/hooks', events: ['*'], secret: 'form-privacy-secret' });
  const s = await staffMember(a.schoolId, { rbac: { activities: 'create' } });
  teacher = await staffLogin(t, s.phone, s.pin, a.schoolId);
  const slip = {
    questions: [
      { id: 'ok', type: 'consent', label: 'I allow the trip' },
      { id: 'lunch', type: 'choice', label: 'Lunch', options: [{ id: 'veg', label: 'Vegetarian', capacity: 50 }, { id: 'egg', label: 'Egg' }] },
      { id: 'notes', type: 'text', label: 'Anything we should know?' },
      { id: 'age', type: 'number', label: 'Age' },
    ],
  };
  const perStudent = await t.api.post('/teachers-app/activities').set(bearer(teacher)).send({ school_id: a.schoolId, title: 'Trip', form: slip });
  const perFamily = await t.api.post('/teachers-app/activities').set(bearer(teacher)).send({ school_id: a.schoolId, title: 'Picnic', form: { ...slip, per_student: false } });
  formIds = { perStudent: perStudent.body.data.form.id, perFamily: perFamily.body.data.form.id };
});
afterAll(async () => t.close());

/** A family that answered both forms with its names in the text, signature and browser, and subscribed to the calendar. */
async function family(father: string, child: string, siblings: string[] = []) {
  const p = await parent(t.ctx, a.schoolId, { father_name: father });
  const kid = await student(a.schoolId, p.id, { name: child, grade: '5' });
  for (const name of siblings) await student(a.schoolId, p.id, { name, grade: '6' });
  const token = await parentLogin(t, p.phone, p.pin, a.schoolId);
  const answer = (formId: number, body: Record<string, unknown>) =>
    t.api.post(`/parent-app/forms/${formId}/responses`).set(bearer(token)).set('User-Agent', `${father}'s phone`).send(body);
  const answers = { ok: 'agree', lunch: 'veg', notes: `${child} is allergic to nuts`, age: 9 };
  const mine = (await answer(formIds.perStudent, { student_id: kid.id, answers, signature: father })).body.data;
  const ours = (await answer(formIds.perFamily, { answers, signature: father })).body.data;
  const url = (await t.api.post('/parent-app/calendar/feed').set(bearer(token))).body.data.url as string;
  return { parentId: p.id, studentId: kid.id, roll: kid.roll_no, token, responses: { mine: mine.id as number, ours: ours.id as number }, url };
}

async function erase(studentId: number, roll: string) {
  expect((await t.api.post(`/web-app/students/${studentId}/archive`).set(bearer(a.adminToken))).status).toBe(200);
  const res = await t.api.post(`/web-app/students/${studentId}/erase`).set(bearer(a.adminToken)).send({ confirm: roll });
  expect(res.status).toBe(200);
}

/** Every table's rows, searched for the given texts. */
async function traces(values: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const model of allModels as unknown as ModelStatic<Model>[]) {
    for (const row of (await model.findAll({ raw: true })) as unknown as Array<Record<string, unknown>>) {
      const text = JSON.stringify(row);
      for (const v of values) if (text.includes(v)) found.push(`${model.getTableName()}: ${v}`);
    }
  }
  return [...new Set(found)];
}

describe('export', () => {
  it('holds the family\'s responses with their answers, signature, signed_at, ip and user agent, for the school and for the parent', async () => {
    const f = await family('Omar Export', 'Lina Export');
    for (const doc of [
      (await t.api.get(`/web-app/students/${f.studentId}/export`).set(bearer(a.adminToken))).body.data,
      (await t.api.get('/parent-app/my-data').set(bearer(f.token))).body.data,
    ]) {
      expect(doc.form_responses.map((r: { id: number }) => r.id).sort()).toEqual([f.responses.mine, f.responses.ours].sort());
      expect(doc.form_responses.find((r: { id: number }) => r.id === f.responses.mine)).toMatchObject({
        form_id: formIds.perStudent, student_id: f.studentId, parent_id: f.parentId, answers: { ok: 'agree', lunch: 'veg', notes: 'Lina Export is allergic to nuts', age: 9 },
        signature: 'Omar Export', signed_at: expect.stringMatching(/Z$/), ip: expect.any(String), user_agent: "Omar Export's phone",
      });
    }
  });
});

describe('erasure', () => {
  it('blanks text answers, signatures, ips and user agents, keeps choices, consents, numbers and counts, and revokes the calendar feed', async () => {
    const f = await family('Yusuf Erased', 'Sana Erased');
    const counts = (await Form.findByPk(formIds.perStudent))!.counts;
    expect((await t.api.get(new URL(f.url).pathname)).status).toBe(200);
    await erase(f.studentId, f.roll);
    for (const id of [f.responses.mine, f.responses.ours]) {
      const row = (await FormResponse.findByPk(id))!;
      expect({ answers: row.answers, signature: row.signature, signed_at: row.signed_at, ip: row.ip, user_agent: row.user_agent }).toEqual({
        answers: { ok: 'agree', lunch: 'veg', notes: '', age: 9 }, signature: null, signed_at: null, ip: null, user_agent: null,
      });
    }
    expect((await Form.findByPk(formIds.perStudent))!.counts).toEqual(counts);
    expectError(await t.api.get(new URL(f.url).pathname), 404, 'NOT_FOUND');
    expect(await CalendarFeed.count({ where: { parent_id: f.parentId } })).toBe(0);
    const events = await AuditEvent.findAll({ where: { entity_type: 'form_response', entity_id: [String(f.responses.mine), String(f.responses.ours)] }, raw: true });
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.changes === null)).toBe(true);
    const delivered = await WebhookDelivery.findAll({ where: { school_id: a.schoolId, event: 'form.response_submitted' }, raw: true });
    const theirs = delivered.map((d) => JSON.parse(d.payload).data).filter((d) => [f.responses.mine, f.responses.ours].includes(d.entity_id));
    expect(theirs).toHaveLength(2);
    expect(theirs.every((d) => d.erased === true && d.answers === undefined)).toBe(true);
    expect(await traces(['Yusuf Erased', 'Sana Erased'])).toEqual([]);
  });

  it('keeps a parent who has another child: the erased child\'s response is blanked, the family\'s keeps all but the text quoting the child', async () => {
    const f = await family('Ravi Stays', 'Asha Goes', ['Kiran Stays']);
    await erase(f.studentId, f.roll);
    expect((await FormResponse.findByPk(f.responses.mine))!).toMatchObject({ answers: { ok: 'agree', lunch: 'veg', notes: '', age: 9 }, signature: null, ip: null, user_agent: null });
    expect((await FormResponse.findByPk(f.responses.ours))!).toMatchObject({ answers: { ok: 'agree', notes: '' }, signature: 'Ravi Stays', user_agent: "Ravi Stays's phone" });
    expect((await t.api.get(new URL(f.url).pathname)).status).toBe(200);
    expect(await traces(['Asha Goes'])).toEqual([]);
  });
});
