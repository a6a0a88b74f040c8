import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import { Activity, AuditEvent, Form, FormResponse, Notification, WebhookDelivery } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { adminUser, bearer, expectError, parent, parentLogin, school, staffLogin, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';

/** Forms on activities and notices: definitions, responses, results, closing, reminders; through the REST doors. */
let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;

interface Person {
  id: number;
  token: string;
}
interface Family extends Person {
  kids: number[];
}
let author: Person;
let colleague: Person;
let manager: Person;
let noticeStaff: Person;
let itContact: Person;
/** fam[0]: two children (grades 5 and 6); fam[1], fam[2]: one child in grade 5 each; fam[3]: a child in grade 7 only. */
const fam: Family[] = [];
let famB: Family;
let archivedKid: number;

async function staffPerson(schoolId: string, rbac: Record<string, string>, name = 'Teacher'): Promise<Person> {
  const s = await staffMember(schoolId, { rbac, name });
  return { id: s.id, token: await staffLogin(t, s.phone, s.pin, schoolId) };
}

async function family(schoolId: string, fatherName: string, kids: Array<{ name: string; grade: string }>): Promise<Family> {
  const p = await parent(t.ctx, schoolId, { father_name: fatherName });
  const ids: number[] = [];
  for (const k of kids) ids.push((await student(schoolId, p.id, { name: k.name, grade: k.grade })).id);
  return { id: p.id, token: await parentLogin(t, p.phone, p.pin, schoolId), kids: ids };
}

beforeAll(async () => {
  t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  a = await school(t);
  b = await school(t);
  author = await staffPerson(a.schoolId, { activities: 'create', noticeboard: 'create' }, 'Class Teacher');
  colleague = await staffPerson(a.schoolId, { activities: 'create', noticeboard: 'create' });
  manager = await staffPerson(a.schoolId, { activities: 'manage' });
  noticeStaff = await staffPerson(a.schoolId, { noticeboard: 'manage' });
  itContact = await adminUser(t, a.schoolId, 'it_contact');
  fam.push(await family(a.schoolId, 'Arjun Mehta', [{ name: 'Zara Mehta', grade: '5' }, { name: 'Kabir Mehta', grade: '6' }]));
  fam.push(await family(a.schoolId, 'Bala Iyer', [{ name: 'Anu Iyer', grade: '5' }]));
  fam.push(await family(a.schoolId, 'Chetan Rao', [{ name: 'Meera Rao', grade: '5' }]));
  fam.push(await family(a.schoolId, 'Dev Shah', [{ name: 'Ira Shah', grade: '7' }]));
  archivedKid = (await student(a.schoolId, fam[1]!.id, { name: 'Old Iyer', grade: '5', status: 'archived' })).id;
  famB = await family(b.schoolId, 'Other School', [{ name: 'Elsewhere', grade: '5' }]);
  await t.api.post('/web-app/webhooks').set(bearer(a.adminToken)).send({ url: 'http://127.0.0.1:9/hooks', events: ['form.response_submitted'] });
});
afterAll(async () => t.close());

const slip = (extra: Record<string, unknown> = {}) => ({
  questions: [
    { id: 'consent', type: 'consent', label: 'I allow my child to go on the museum trip', required: true },
    { id: 'lunch', type: 'choice', label: 'Lunch', required: true, options: [{ id: 'veg', label: 'Vegetarian' }, { id: 'egg', label: 'Egg' }] },
    { id: 'help', type: 'choice', label: 'I can help', multiple: true, options: [{ id: 'bus', label: 'On the bus', capacity: 2 }, { id: 'gate', label: 'At the gate' }] },
    { id: 'notes', type: 'text', label: 'Allergies' },
    { id: 'count', type: 'number', label: 'Siblings coming', min: 0, max: 3 },
  ],
  ...extra,
});

async function postActivity(who: Person, body: Record<string, unknown>) {
  return t.api.post('/teachers-app/activities').set(bearer(who.token)).send({ school_id: a.schoolId, title: 'Museum trip', ...body });
}

async function activityWithForm(form: Record<string, unknown>, body: Record<string, unknown> = { audience: { grades: ['5'] } }) {
  const res = await postActivity(author, { ...body, form });
  expect(res.status).toBe(201);
  return { id: res.body.data.id as number, formId: res.body.data.form.id as number, data: res.body.data };
}

const respond = (who: Person, formId: number, body: Record<string, unknown>) =>
  t.api.post(`/parent-app/forms/${formId}/responses`).set(bearer(who.token)).set('User-Agent', 'ParentApp/2.1').send(body);
const change = (who: Person, formId: number, responseId: number, body: Record<string, unknown>) =>
  t.api.put(`/parent-app/forms/${formId}/responses/${responseId}`).set(bearer(who.token)).send(body);
const results = (token: string, formId: number, app = 'web-app') => t.api.get(`/${app}/forms/${formId}/results`).set(bearer(token));
const updateForm = (activityId: number, form: unknown, who: Person = author) =>
  t.api.put(`/teachers-app/activities/${activityId}`).set(bearer(who.token)).send({ form });

const fields = (res: { body: { error?: { details?: Array<{ field: string }> } } }) => (res.body.error?.details ?? []).map((d) => d.field).sort();
const goodAnswers = { consent: 'agree', lunch: 'veg' };

describe('a form on an activity', () => {
  it('is stored with its defaults, shown to staff with response_count and to parents with my_responses; items without one show null', async () => {
    const { id, data } = await activityWithForm(slip({ per_student: true }));
    expect(data.form).toEqual({
      id: expect.any(Number),
      questions: [
        { id: 'consent', type: 'consent', label: 'I allow my child to go on the museum trip', required: true },
        { id: 'lunch', type: 'choice', label: 'Lunch', required: true, multiple: false, options: [{ id: 'veg', label: 'Vegetarian' }, { id: 'egg', label: 'Egg' }] },
        { id: 'help', type: 'choice', label: 'I can help', required: false, multiple: true, options: [{ id: 'bus', label: 'On the bus', capacity: 2, remaining: 2 }, { id: 'gate', label: 'At the gate' }] },
        { id: 'notes', type: 'text', label: 'Allergies', required: false },
        { id: 'count', type: 'number', label: 'Siblings coming', required: false, min: 0, max: 3 },
      ],
      due_at: null, per_student: true, editable: true, closed: false, response_count: 0,
    });
    const plain = (await postActivity(author, {})).body.data;
    expect(plain.form).toBeNull();

    const feed = (await t.api.get('/parent-app/activities').set(bearer(fam[1]!.token))).body.data as Array<{ id: number; form: Record<string, unknown> | null }>;
    const shown = feed.find((x) => x.id === id)!;
    expect(shown.form).toMatchObject({ id: data.form.id, my_responses: [], closed: false });
    expect(shown.form).not.toHaveProperty('response_count');
    expect(feed.find((x) => x.id === plain.id)!.form).toBeNull();
    const one = (await t.api.get(`/parent-app/activities/${id}`).set(bearer(fam[1]!.token))).body.data;
    expect(one.form.my_responses).toEqual([]);

    const teacherList = (await t.api.get('/teachers-app/activities').query({ school_id: a.schoolId }).set(bearer(colleague.token))).body.data as Array<{ id: number; form: unknown }>;
    expect(teacherList.find((x) => x.id === id)!.form).toMatchObject({ response_count: 0 });
    const webList = (await t.api.get('/web-app/activities').query({ school_id: a.schoolId, limit: 100 }).set(bearer(a.adminToken))).body.data.records as Array<{ id: number; form: unknown }>;
    expect(webList.find((x) => x.id === id)!.form).toMatchObject({ response_count: 0 });
  });

  it('refuses an invalid form with 400 naming each bad path, and creates nothing', async () => {
    const before = await Activity.count({ where: { school_id: a.schoolId } });
    const res = await postActivity(author, {
      form: {
        questions: [
          { id: 'q1', type: 'essay', label: 'Bad type' },
          { id: 'q2', type: 'text', label: '' },
          { id: 'q3', type: 'choice', label: 'One option', options: [{ id: 'x', label: 'X' }] },
          { id: 'q1', type: 'consent', label: 'Repeated id' },
          { id: 'q5', type: 'number', label: 'Range', min: 5, max: 2 },
          { id: 'q6', type: 'text', label: 'Text with options', options: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }] },
          { id: 'q7', type: 'choice', label: 'Twice', options: [{ id: 'a', label: 'A' }, { id: 'a', label: 'Again', capacity: 0 }] },
        ],
        due_at: 'tomorrow',
      },
    });
    expectError(res, 400, 'BAD_REQUEST');
    expect(fields(res)).toEqual([
      'form.due_at', 'form.questions.0.type', 'form.questions.1.label', 'form.questions.2.options', 'form.questions.3.id', 'form.questions.4.max',
      'form.questions.5.options', 'form.questions.6.options.1.capacity', 'form.questions.6.options.1.id',
    ]);
    expect(fields(await postActivity(author, { form: { questions: [] } }))).toEqual(['form.questions']);
    expect(fields(await postActivity(author, { form: { questions: Array.from({ length: 51 }, (_, i) => ({ id: `q${i}`, type: 'text', label: 'Q' })) } }))).toEqual(['form.questions']);
    expect(fields(await postActivity(author, { form: { questions: [{ id: 'q', type: 'text', label: 'Q' }], due_at: '2020-01-01T00:00:00Z' } }))).toEqual(['form.due_at']);
    const tooMany = { id: 'c', type: 'choice', label: 'C', options: Array.from({ length: 51 }, (_, i) => ({ id: `o${i}`, label: 'O' })) };
    expect(fields(await postActivity(author, { form: { questions: [tooMany] } }))).toEqual(['form.questions.0.options']);
    expect(await Activity.count({ where: { school_id: a.schoolId } })).toBe(before);
  });

  it('takes the item\'s own rights: another teacher\'s activity needs activities.manage', async () => {
    const { id } = await activityWithForm(slip());
    expectError(await updateForm(id, slip({ editable: false }), colleague), 403, 'FORBIDDEN');
    const managed = await updateForm(id, slip({ editable: false }), manager);
    expect(managed.status).toBe(200);
    expect(managed.body.data.form.editable).toBe(false);
  });

  it('keeps its id across updates; without responses anything may change, and null removes it', async () => {
    const { id, formId } = await activityWithForm(slip());
    const changed = await updateForm(id, { questions: [{ id: 'rsvp', type: 'choice', label: 'Coming?', options: [{ id: 'yes', label: 'Yes' }, { id: 'no', label: 'No' }] }], per_student: false });
    expect(changed.status).toBe(200);
    expect(changed.body.data.form).toMatchObject({ id: formId, per_student: false, questions: [{ id: 'rsvp' }] });
    const removed = await updateForm(id, null);
    expect(removed.body.data.form).toBeNull();
    expect(await Form.count({ where: { id: formId } })).toBe(0);
    const again = await updateForm(id, slip());
    expect(again.body.data.form.id).not.toBe(formId);
  });
});

describe('responding', () => {
  let activity: { id: number; formId: number };

  beforeAll(async () => {
    activity = await activityWithForm(slip());
  });

  it('saves a response with its signature, ip and user agent; the parent sees it in my_responses', async () => {
    const res = await respond(fam[1]!, activity.formId, { student_id: fam[1]!.kids[0], answers: { ...goodAnswers, help: ['bus'], notes: '  Peanuts  ', count: 1 }, signature: '  Bala Iyer ' });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number), form_id: activity.formId, student_id: fam[1]!.kids[0], answers: { consent: 'agree', lunch: 'veg', help: ['bus'], notes: '  Peanuts  ', count: 1 },
      signature: 'Bala Iyer', signed_at: expect.any(String), submitted_at: expect.any(String), updated_at: expect.any(String),
    });
    const row = (await FormResponse.findByPk(res.body.data.id))!;
    expect(row.user_agent).toBe('ParentApp/2.1');
    expect(row.ip).toEqual(expect.any(String));
    const one = (await t.api.get(`/parent-app/activities/${activity.id}`).set(bearer(fam[1]!.token))).body.data;
    const { form_id: _form, ...expected } = res.body.data;
    expect(one.form.my_responses).toEqual([expected]);
    expect(one.form.questions[2].options[0]).toMatchObject({ id: 'bus', capacity: 2, remaining: 1 });
    const staffView = (await t.api.get('/teachers-app/activities').query({ school_id: a.schoolId }).set(bearer(author.token))).body.data.find((x: { id: number }) => x.id === activity.id);
    expect(staffView.form.response_count).toBe(1);
  });

  it('checks the form and its item first: another school\'s, an unseen item and a missing form are 404', async () => {
    expectError(await respond(famB, activity.formId, { student_id: famB.kids[0], answers: goodAnswers, signature: 'X' }), 404, 'NOT_FOUND');
    // fam[3]'s child is in grade 7, outside the audience.
    expectError(await respond(fam[3]!, activity.formId, { student_id: fam[3]!.kids[0], answers: goodAnswers, signature: 'X' }), 404, 'NOT_FOUND');
    expectError(await respond(fam[1]!, 999_999, { student_id: fam[1]!.kids[0], answers: goodAnswers }), 404, 'NOT_FOUND');
    const draft = await activityWithForm(slip(), { audience: { grades: ['5'] }, status: 'draft' });
    expectError(await respond(fam[2]!, draft.formId, { student_id: fam[2]!.kids[0], answers: goodAnswers, signature: 'X' }), 404, 'NOT_FOUND');
    const gone = await activityWithForm(slip());
    await t.api.delete(`/teachers-app/activities/${gone.id}`).set(bearer(author.token));
    expectError(await respond(fam[2]!, gone.formId, { student_id: fam[2]!.kids[0], answers: goodAnswers, signature: 'X' }), 404, 'NOT_FOUND');
  });

  it('answers 404 for an unseen form or another family\'s response before the body is judged', async () => {
    expectError(await respond(fam[1]!, 999_999, {}), 404, 'NOT_FOUND');
    expectError(await respond(fam[3]!, activity.formId, { student_id: 'x', answers: [] }), 404, 'NOT_FOUND');
    const mine = await respond(fam[0]!, activity.formId, { student_id: fam[0]!.kids[0], answers: goodAnswers, signature: 'Arjun Mehta' });
    expect(mine.status).toBe(201);
    expectError(await change(fam[2]!, activity.formId, mine.body.data.id, {}), 404, 'NOT_FOUND');
    expectError(await change(fam[0]!, activity.formId, 999_999, { answers: 'none' }), 404, 'NOT_FOUND');
  });

  it('checks the child next: required on a per-student form, the caller\'s own, not archived, in the audience', async () => {
    const missing = await respond(fam[2]!, activity.formId, { answers: {} });
    expectError(missing, 400, 'BAD_REQUEST');
    expect(fields(missing)).toEqual(['student_id']);
    expectError(await respond(fam[2]!, activity.formId, { student_id: fam[1]!.kids[0], answers: goodAnswers }), 403, 'FORBIDDEN');
    expectError(await respond(fam[2]!, activity.formId, { student_id: famB.kids[0], answers: goodAnswers }), 403, 'FORBIDDEN');
    const archived = await respond(fam[1]!, activity.formId, { student_id: archivedKid, answers: goodAnswers, signature: 'X' });
    expectError(archived, 400, 'BAD_REQUEST');
    expect(fields(archived)).toEqual(['student_id']);
    // Kabir is in grade 6: his family sees the item through Zara, but he is not in its audience.
    const outside = await respond(fam[0]!, activity.formId, { student_id: fam[0]!.kids[1], answers: goodAnswers, signature: 'X' });
    expect(fields(outside)).toEqual(['student_id']);
    const family = await activityWithForm(slip({ per_student: false }));
    expect(fields(await respond(fam[2]!, family.formId, { student_id: fam[2]!.kids[0], answers: goodAnswers, signature: 'X' }))).toEqual(['student_id']);
    const ok = await respond(fam[2]!, family.formId, { student_id: null, answers: goodAnswers, signature: 'Chetan Rao' });
    expect(ok.status).toBe(201);
    expect(ok.body.data.student_id).toBeNull();
  });

  it('names each bad answer by its question, and the signature an agree needs', async () => {
    const res = await respond(fam[2]!, activity.formId, {
      student_id: fam[2]!.kids[0],
      answers: { consent: 'maybe', help: ['bus', 'bus'], notes: 'x'.repeat(2001), count: 7, extra: 1 },
    });
    expectError(res, 400, 'BAD_REQUEST');
    expect(fields(res)).toEqual(['answers.consent', 'answers.count', 'answers.extra', 'answers.help', 'answers.lunch', 'answers.notes']);
    expect(fields(await respond(fam[2]!, activity.formId, { student_id: fam[2]!.kids[0], answers: { consent: 'agree', lunch: 'fish', help: 'bus', count: '2' } })))
      .toEqual(['answers.count', 'answers.help', 'answers.lunch', 'signature']);
    expect(fields(await respond(fam[2]!, activity.formId, { student_id: fam[2]!.kids[0], answers: goodAnswers, signature: '   ' }))).toEqual(['signature']);
    expect(fields(await respond(fam[2]!, activity.formId, { student_id: fam[2]!.kids[0], answers: goodAnswers, signature: 'x'.repeat(121) }))).toEqual(['signature']);
    // Optional questions may be left out, null, only spaces or an empty array; a decline needs no signature.
    const declined = await respond(fam[2]!, activity.formId, { student_id: fam[2]!.kids[0], answers: { consent: 'decline', lunch: 'egg', help: [], notes: '   ', count: null } });
    expect(declined.status).toBe(201);
    expect(declined.body.data).toMatchObject({ answers: { consent: 'decline', lunch: 'egg' }, signature: null, signed_at: null });
  });

  it('refuses a second response for the same child (409), and for the same family on a per-family form', async () => {
    const again = await respond(fam[2]!, activity.formId, { student_id: fam[2]!.kids[0], answers: goodAnswers, signature: 'Chetan Rao' });
    expectError(again, 409, 'CONFLICT');
    const family = await activityWithForm(slip({ per_student: false }));
    expect((await respond(fam[0]!, family.formId, { answers: goodAnswers, signature: 'Arjun Mehta' })).status).toBe(201);
    expectError(await respond(fam[0]!, family.formId, { answers: goodAnswers, signature: 'Arjun Mehta' }), 409, 'CONFLICT');
  });

  it('holds each option to its capacity: 409 naming the question and the option, nothing saved', async () => {
    const form = await activityWithForm({
      questions: [
        { id: 'slot', type: 'choice', label: 'Parent-teacher meeting', options: [{ id: 'nine', label: '9:00', capacity: 1 }, { id: 'ten', label: '10:00', capacity: 1 }] },
        { id: 'help', type: 'choice', label: 'Help', multiple: true, options: [{ id: 'bus', label: 'Bus', capacity: 1 }, { id: 'gate', label: 'Gate', capacity: 1 }] },
      ],
    });
    expect((await respond(fam[1]!, form.formId, { student_id: fam[1]!.kids[0], answers: { slot: 'nine', help: ['bus', 'gate'] } })).status).toBe(201);
    const full = await respond(fam[2]!, form.formId, { student_id: fam[2]!.kids[0], answers: { slot: 'nine', help: ['gate'] } });
    expectError(full, 409, 'CONFLICT');
    expect(full.body.error.details).toEqual([
      { field: 'answers.slot', option: 'nine', message: expect.any(String) },
      { field: 'answers.help', option: 'gate', message: expect.any(String) },
    ]);
    expect(await FormResponse.count({ where: { form_id: form.formId } })).toBe(1);
    const view = (await t.api.get(`/parent-app/activities/${form.id}`).set(bearer(fam[2]!.token))).body.data.form;
    expect(view.questions[0].options).toEqual([{ id: 'nine', label: '9:00', capacity: 1, remaining: 0 }, { id: 'ten', label: '10:00', capacity: 1, remaining: 1 }]);
    expect((await respond(fam[2]!, form.formId, { student_id: fam[2]!.kids[0], answers: { slot: 'ten' } })).status).toBe(201);
  });

  it('lets a family change its response while open: capacity counted again, a new signature moves signed_at', async () => {
    const form = await activityWithForm({
      questions: [
        { id: 'ok', type: 'consent', label: 'Allowed' },
        { id: 'slot', type: 'choice', label: 'Slot', options: [{ id: 'nine', label: '9:00', capacity: 1 }, { id: 'ten', label: '10:00', capacity: 1 }] },
      ],
    });
    const mine = (await respond(fam[1]!, form.formId, { student_id: fam[1]!.kids[0], answers: { ok: 'agree', slot: 'nine' }, signature: 'Bala Iyer' })).body.data;
    await respond(fam[2]!, form.formId, { student_id: fam[2]!.kids[0], answers: { slot: 'ten' } });
    const full = await change(fam[1]!, form.formId, mine.id, { answers: { ok: 'agree', slot: 'ten' }, signature: 'Bala Iyer' });
    expectError(full, 409, 'CONFLICT');
    expect(full.body.error.details).toEqual([{ field: 'answers.slot', option: 'ten', message: expect.any(String) }]);
    const same = await change(fam[1]!, form.formId, mine.id, { answers: { ok: 'agree', slot: 'nine' }, signature: 'Bala Iyer' });
    expect(same.status).toBe(200);
    expect(same.body.data.signed_at).toBe(mine.signed_at);
    await new Promise((r) => setTimeout(r, 10));
    const resigned = await change(fam[1]!, form.formId, mine.id, { answers: { ok: 'agree' }, signature: 'B. Iyer' });
    expect(resigned.body.data).toMatchObject({ id: mine.id, student_id: fam[1]!.kids[0], answers: { ok: 'agree' }, signature: 'B. Iyer' });
    expect(resigned.body.data.signed_at > mine.signed_at).toBe(true);
    // The 9:00 place it gave up is free again.
    expect((await respond(fam[0]!, form.formId, { student_id: fam[0]!.kids[0], answers: { slot: 'nine' } })).status).toBe(201);
    expect(fields(await change(fam[1]!, form.formId, mine.id, { answers: { ok: 'agree' } }))).toEqual(['signature']);
    expectError(await change(fam[2]!, form.formId, mine.id, { answers: { ok: 'decline' } }), 404, 'NOT_FOUND');
    expectError(await change(fam[1]!, activity.formId, mine.id, { answers: { ok: 'decline' } }), 404, 'NOT_FOUND');
  });

  it('refuses changes on a form that takes none (409), and any new or changed response once closed (409)', async () => {
    const fixed = await activityWithForm({ questions: [{ id: 'q', type: 'text', label: 'Q' }], editable: false });
    const r = (await respond(fam[1]!, fixed.formId, { student_id: fam[1]!.kids[0], answers: { q: 'a' } })).body.data;
    expectError(await change(fam[1]!, fixed.formId, r.id, { answers: { q: 'b' } }), 409, 'CONFLICT');
    const closing = await activityWithForm({ questions: [{ id: 'q', type: 'text', label: 'Q' }] });
    const mine = (await respond(fam[1]!, closing.formId, { student_id: fam[1]!.kids[0], answers: { q: 'a' } })).body.data;
    const closed = await t.api.post(`/teachers-app/forms/${closing.formId}/close`).set(bearer(author.token));
    expect(closed.status).toBe(200);
    expect(closed.body.data).toMatchObject({ id: closing.formId, closed: true, response_count: 1 });
    expect((await t.api.post(`/web-app/forms/${closing.formId}/close`).set(bearer(a.adminToken))).status).toBe(200);
    // Closed is checked before the answers: even a bad body on a closed form is a 409.
    expectError(await respond(fam[2]!, closing.formId, { student_id: fam[2]!.kids[0], answers: { q: 7 } }), 409, 'CONFLICT');
    expectError(await change(fam[1]!, closing.formId, mine.id, { answers: { q: 'b' } }), 409, 'CONFLICT');
    // A close is final, whatever due_at says.
    const reopened = await updateForm(closing.id, { questions: [{ id: 'q', type: 'text', label: 'Q' }], due_at: new Date(Date.now() + 86_400_000).toISOString() });
    expect(reopened.body.data.form.closed).toBe(true);
  });

  it('judges a body of the wrong shape only at its turn: the child (400, 403), the form open (409), then the answers (400)', async () => {
    const questions = [{ id: 'q', type: 'text', label: 'Q' }];
    const fixed = await activityWithForm({ questions, editable: false });
    const open = await activityWithForm({ questions });
    const malformed = { answers: 'none', signature: 5 };
    expectError(await respond(fam[2]!, fixed.formId, { ...malformed, student_id: fam[1]!.kids[0] }), 403, 'FORBIDDEN');
    expectError(await respond(fam[2]!, fixed.formId, { ...malformed, student_id: famB.kids[0] }), 403, 'FORBIDDEN');
    const noChild = await respond(fam[2]!, fixed.formId, malformed);
    expectError(noChild, 400, 'BAD_REQUEST');
    expect(fields(noChild)).toEqual(['student_id']);
    const shape = await respond(fam[2]!, fixed.formId, { ...malformed, student_id: fam[2]!.kids[0] });
    expectError(shape, 400, 'BAD_REQUEST');
    expect(fields(shape)).toEqual(['answers', 'signature']);
    expect(fields(await respond(fam[2]!, fixed.formId, { student_id: fam[2]!.kids[0], answers: { q: 'a\u0000b' } }))).toEqual(['answers.q']);
    const fixedMine = (await respond(fam[2]!, fixed.formId, { student_id: fam[2]!.kids[0], answers: { q: 'a' } })).body.data;
    const openMine = (await respond(fam[2]!, open.formId, { student_id: fam[2]!.kids[0], answers: { q: 'a' } })).body.data;
    // The answers come before an earlier response (409), and a form that takes no changes before the answers.
    expect(fields(await respond(fam[2]!, fixed.formId, { ...malformed, student_id: fam[2]!.kids[0] }))).toEqual(['answers', 'signature']);
    expectError(await change(fam[2]!, fixed.formId, fixedMine.id, malformed), 409, 'CONFLICT');
    expect(fields(await change(fam[2]!, open.formId, openMine.id, malformed))).toEqual(['answers', 'signature']);
    expect((await t.api.post(`/teachers-app/forms/${open.formId}/close`).set(bearer(author.token))).status).toBe(200);
    expectError(await respond(fam[1]!, open.formId, { ...malformed, student_id: fam[1]!.kids[0] }), 409, 'CONFLICT');
    expectError(await change(fam[2]!, open.formId, openMine.id, malformed), 409, 'CONFLICT');
    // The child is still judged before the form being closed.
    expectError(await respond(fam[1]!, open.formId, { ...malformed, student_id: fam[2]!.kids[0] }), 403, 'FORBIDDEN');
    expect(fields(await respond(fam[1]!, open.formId, { ...malformed, student_id: 'first' }))).toEqual(['student_id']);
  });

  it('closes at due_at and opens again when due_at is moved ahead', async () => {
    const form = await activityWithForm({ questions: [{ id: 'q', type: 'text', label: 'Q' }], due_at: new Date(Date.now() + 60_000).toISOString() });
    await Form.update({ due_at: new Date(Date.now() - 1000) }, { where: { id: form.formId }, hooks: false });
    expectError(await respond(fam[1]!, form.formId, { student_id: fam[1]!.kids[0], answers: { q: 'late' } }), 409, 'CONFLICT');
    const stored = (await Form.findByPk(form.formId))!.due_at!.toISOString();
    // Resending the stored (past) due_at is not a change; a new one must be in the future.
    const same = await updateForm(form.id, { questions: [{ id: 'q', type: 'text', label: 'Q (edited)' }], due_at: stored });
    expect(same.status).toBe(200);
    expect(same.body.data.form).toMatchObject({ closed: true, due_at: stored });
    const ahead = await updateForm(form.id, { questions: [{ id: 'q', type: 'text', label: 'Q' }], due_at: new Date(Date.now() + 3_600_000).toISOString() });
    expect(ahead.body.data.form.closed).toBe(false);
    expect((await respond(fam[1]!, form.formId, { student_id: fam[1]!.kids[0], answers: { q: 'in time' } })).status).toBe(201);
  });
});

describe('changing a form that has responses', () => {
  let activity: { id: number; formId: number };
  const base = () => ({
    questions: [
      { id: 'ok', type: 'consent', label: 'Allowed' },
      { id: 'slot', type: 'choice', label: 'Slot', options: [{ id: 'nine', label: '9:00', capacity: 3 }, { id: 'ten', label: '10:00' }] },
      { id: 'n', type: 'number', label: 'N' },
    ],
  });

  beforeAll(async () => {
    activity = await activityWithForm(base());
    await respond(fam[1]!, activity.formId, { student_id: fam[1]!.kids[0], answers: { slot: 'nine' } });
    await respond(fam[2]!, activity.formId, { student_id: fam[2]!.kids[0], answers: { slot: 'nine' } });
  });

  it('refuses to remove a question or an option, change a type, multiple or per_student, or set a capacity below what is taken: 409 naming the path, nothing saved', async () => {
    const res = await updateForm(activity.id, {
      questions: [
        { id: 'slot', type: 'choice', label: 'Slot', multiple: true, options: [{ id: 'nine', label: '9:00', capacity: 1 }, { id: 'noon', label: '12:00' }] },
        { id: 'n', type: 'text', label: 'N' },
      ],
      per_student: false,
    });
    expectError(res, 409, 'CONFLICT');
    expect(fields(res)).toEqual(['form.per_student', 'form.questions', 'form.questions.0.multiple', 'form.questions.0.options', 'form.questions.0.options.0.capacity', 'form.questions.1.type']);
    const titled = await t.api.put(`/teachers-app/activities/${activity.id}`).set(bearer(author.token)).send({ title: 'Renamed', form: { questions: base().questions.slice(1) } });
    expectError(titled, 409, 'CONFLICT');
    expect((await Activity.findByPk(activity.id))!.title).toBe('Museum trip');
    expectError(await updateForm(activity.id, null), 409, 'CONFLICT');
  });

  it('takes new labels, required, bounds, due_at, editable, new questions and options, and capacities not below what is taken', async () => {
    const next = base();
    next.questions[0]!.label = 'I allow it';
    Object.assign(next.questions[1]!, { required: true, options: [{ id: 'nine', label: 'Nine', capacity: 2 }, { id: 'ten', label: '10:00', capacity: 5 }, { id: 'eleven', label: '11:00' }] });
    Object.assign(next.questions[2]!, { min: 1, max: 9 });
    const res = await updateForm(activity.id, { ...next, questions: [...next.questions, { id: 'extra', type: 'text', label: 'Anything else?' }], editable: false, due_at: new Date(Date.now() + 86_400_000).toISOString() });
    expect(res.status).toBe(200);
    expect(res.body.data.form).toMatchObject({ id: activity.formId, editable: false, response_count: 2 });
    expect(res.body.data.form.questions[1].options).toEqual([
      { id: 'nine', label: 'Nine', capacity: 2, remaining: 0 }, { id: 'ten', label: '10:00', capacity: 5, remaining: 5 }, { id: 'eleven', label: '11:00' },
    ]);
  });
});

describe('ids that are names of an object\'s own properties', () => {
  it('answer, count, fill and summarise like any other id', async () => {
    const activity = await activityWithForm({
      questions: [
        { id: 'constructor', type: 'text', label: 'Allergies' },
        { id: 'valueOf', type: 'choice', label: 'Slot', required: true, options: [{ id: 'toString', label: 'Morning', capacity: 1 }, { id: 'hasOwnProperty', label: 'Afternoon' }] },
      ],
    });
    expect(activity.data.form.questions[1].options.map((o: { remaining?: number }) => o.remaining)).toEqual([1, undefined]);
    // The optional question left out is unanswered, not an answer of the wrong type.
    const first = await respond(fam[1]!, activity.formId, { student_id: fam[1]!.kids[0], answers: { valueOf: 'toString' } });
    expect(first.status).toBe(201);
    expect(first.body.data.answers).toEqual({ valueOf: 'toString' });
    const full = await respond(fam[2]!, activity.formId, { student_id: fam[2]!.kids[0], answers: { valueOf: 'toString' } });
    expectError(full, 409, 'CONFLICT');
    const second = await respond(fam[2]!, activity.formId, { student_id: fam[2]!.kids[0], answers: { valueOf: 'hasOwnProperty', constructor: 'Peanuts' } });
    expect(second.status).toBe(201);

    const data = (await results(a.adminToken, activity.formId)).body.data;
    expect(data.form.questions[1].options.map((o: { remaining?: number }) => o.remaining)).toEqual([0, undefined]);
    expect(data.summary).toEqual({ constructor: { answered: 1 }, valueOf: { toString: 1, hasOwnProperty: 1 } });
    expect(data.responses.map((r: { answers: unknown }) => r.answers)).toEqual([{ valueOf: 'toString' }, { valueOf: 'hasOwnProperty', constructor: 'Peanuts' }]);
  });

  it('refuses __proto__, which a JSON object cannot hold as a key, with 400 naming the id', async () => {
    const res = await postActivity(author, {
      form: { questions: [{ id: '__proto__', type: 'text', label: 'Notes' }, { id: 'slot', type: 'choice', label: 'Slot', options: [{ id: '__proto__', label: 'A' }, { id: 'b', label: 'B' }] }] },
    });
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.body.error.details).toEqual([
      { field: 'form.questions.0.id', message: 'is a reserved name: choose another id' },
      { field: 'form.questions.1.options.0.id', message: 'is a reserved name: choose another id' },
    ]);
  });
});

describe('results', () => {
  let activity: { id: number; formId: number };
  let noticeForm: number;
  let noticeId: number;

  beforeAll(async () => {
    activity = await activityWithForm(slip());
    await respond(fam[2]!, activity.formId, { student_id: fam[2]!.kids[0], answers: { consent: 'agree', lunch: 'egg', help: ['bus', 'gate'], notes: '=HYPERLINK("http://x")', count: 0 }, signature: '@Chetan, "Rao"' });
    await respond(fam[1]!, activity.formId, { student_id: fam[1]!.kids[0], answers: { consent: 'decline', lunch: 'veg', notes: 'Line one\nline two' } });
    const notice = await t.api.post('/teachers-app/noticeboard').set(bearer(author.token)).send({
      notice_title: 'Sports day volunteers', form: { questions: [{ id: 'rsvp', type: 'choice', label: 'Coming?', options: [{ id: 'y', label: 'Yes' }, { id: 'n', label: 'No' }] }], per_student: false },
    });
    expect(notice.status).toBe(201);
    noticeId = notice.body.data.id;
    noticeForm = notice.body.data.form.id;
    await respond(fam[3]!, noticeForm, { answers: { rsvp: 'y' } });
  });

  it('gives the form, a summary per question, the responses oldest first and who is missing', async () => {
    const res = await results(a.adminToken, activity.formId);
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.form).toMatchObject({ id: activity.formId, entity_type: 'activity', entity_id: activity.id, response_count: 2 });
    expect(data.summary).toEqual({ consent: { agree: 1, decline: 1 }, lunch: { veg: 1, egg: 1 }, help: { bus: 1, gate: 1 }, notes: { answered: 2 }, count: { answered: 1 } });
    expect(data.responses).toEqual([
      {
        id: expect.any(Number), student: { id: fam[2]!.kids[0], student_full_name: 'Meera Rao', grade: '5' }, parent: { id: fam[2]!.id, father_name: 'Chetan Rao' },
        answers: { consent: 'agree', lunch: 'egg', help: ['bus', 'gate'], notes: '=HYPERLINK("http://x")', count: 0 }, signature: '@Chetan, "Rao"',
        signed_at: expect.any(String), ip: expect.any(String), user_agent: 'ParentApp/2.1', submitted_at: expect.any(String), updated_at: expect.any(String),
      },
      expect.objectContaining({ student: { id: fam[1]!.kids[0], student_full_name: 'Anu Iyer', grade: '5' }, signature: null, signed_at: null }),
    ]);
    // Grade 5 without a response: Zara (fam 0); the archived child and the grade 6 and 7 children are not in it.
    expect(data.missing).toEqual([{ student_id: fam[0]!.kids[0], student_full_name: 'Zara Mehta', grade: '5', parent_id: fam[0]!.id }]);
    const family = (await results(a.adminToken, noticeForm)).body.data;
    expect(family.form).toMatchObject({ entity_type: 'noticeboard', entity_id: noticeId, per_student: false });
    expect(family.responses[0]).toMatchObject({ student: null, parent: { id: fam[3]!.id, father_name: 'Dev Shah' } });
    expect(family.missing).toEqual([
      { parent_id: fam[0]!.id, father_name: 'Arjun Mehta', students: [{ id: fam[0]!.kids[0], student_full_name: 'Zara Mehta', grade: '5' }, { id: fam[0]!.kids[1], student_full_name: 'Kabir Mehta', grade: '6' }] },
      { parent_id: fam[1]!.id, father_name: 'Bala Iyer', students: [{ id: fam[1]!.kids[0], student_full_name: 'Anu Iyer', grade: '5' }] },
      { parent_id: fam[2]!.id, father_name: 'Chetan Rao', students: [{ id: fam[2]!.kids[0], student_full_name: 'Meera Rao', grade: '5' }] },
    ]);
  });

  it('writes the CSV per RFC 4180 with labels for choices and spreadsheet formulas defused', async () => {
    const res = await t.api.get(`/teachers-app/forms/${activity.formId}/results.csv`).set(bearer(author.token));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="form-\d+-results\.csv"$/);
    const body = res.text.replace(/^\uFEFF/, '');
    expect(body.split('\r\n')[0]).toBe('student,grade,parent,submitted_at,I allow my child to go on the museum trip,Lunch,I can help,Allergies,Siblings coming,signature');
    // Every line ends with CRLF; a line break inside a quoted field stays as it was.
    const outsideQuotes = body.replace(/"(?:[^"]|"")*"/g, '""');
    expect(outsideQuotes).not.toMatch(/[^\r]\n/);
    expect(outsideQuotes.endsWith('\r\n')).toBe(true);
    const rows = parse(body) as string[][];
    expect(rows).toHaveLength(3);
    expect(rows[1]).toEqual(['Meera Rao', '5', 'Chetan Rao', expect.stringMatching(/^\d{4}-\d\d-\d\dT/), 'agree', 'Egg', 'On the bus; At the gate', '\'=HYPERLINK("http://x")', '0', '\'@Chetan, "Rao"']);
    expect(rows[2]).toEqual(['Anu Iyer', '5', 'Bala Iyer', expect.any(String), 'decline', 'Vegetarian', '', 'Line one\nline two', '', '']);
    const family = await t.api.get(`/web-app/forms/${noticeForm}/results.csv`).set(bearer(a.adminToken));
    expect((parse(family.text.replace(/^\uFEFF/, '')) as string[][])[1]).toEqual(['', '', 'Dev Shah', expect.any(String), 'Yes', '']);
  });

  it('writes numbers in the CSV in decimal digits, never in exponent form, and a negative one undefused', async () => {
    const form = await activityWithForm({ questions: [{ id: 'x', type: 'number', label: 'Amount' }] });
    expect((await respond(fam[1]!, form.formId, { student_id: fam[1]!.kids[0], answers: { x: 0.0000001 } })).status).toBe(201);
    expect((await respond(fam[2]!, form.formId, { student_id: fam[2]!.kids[0], answers: { x: -2.5e21 } })).status).toBe(201);
    const lines = (await t.api.get(`/web-app/forms/${form.formId}/results.csv`).set(bearer(a.adminToken))).text.split('\r\n');
    expect(lines.slice(1, 3).map((l) => l.split(',').at(-2))).toEqual(['0.0000001', '-2500000000000000000000']);
  });

  it('is for the item\'s author, its managers and the school\'s admins; another school\'s form is 404', async () => {
    expect((await results(author.token, activity.formId, 'teachers-app')).status).toBe(200);
    expect((await results(manager.token, activity.formId, 'teachers-app')).status).toBe(200);
    expectError(await results(colleague.token, activity.formId, 'teachers-app'), 403, 'FORBIDDEN');
    expectError(await results(noticeStaff.token, activity.formId, 'teachers-app'), 403, 'FORBIDDEN');
    expect((await results(noticeStaff.token, noticeForm, 'teachers-app')).status).toBe(200);
    expect((await results(author.token, noticeForm, 'teachers-app')).status).toBe(200);
    expectError(await results(manager.token, noticeForm, 'teachers-app'), 403, 'FORBIDDEN');
    expectError(await results(itContact.token, activity.formId), 403, 'FORBIDDEN');
    expectError(await results(fam[1]!.token, activity.formId, 'parent-app'), 404, 'NOT_FOUND');
    expectError(await results(fam[1]!.token, activity.formId), 403, 'FORBIDDEN');
    expectError(await results(b.adminToken, activity.formId), 404, 'NOT_FOUND');
    expectError(await t.api.get(`/web-app/forms/${activity.formId}/results.csv`).set(bearer(b.adminToken)), 404, 'NOT_FOUND');
    expectError(await t.api.post(`/web-app/forms/${activity.formId}/close`).set(bearer(b.adminToken)), 404, 'NOT_FOUND');
    expectError(await t.api.post(`/teachers-app/forms/${activity.formId}/close`).set(bearer(colleague.token)), 403, 'FORBIDDEN');
    expect((await Form.findByPk(activity.formId))!.closed_at).toBeNull();
  });

  it('reminds only the families still missing a response, whether they read the item or not', async () => {
    const form = await activityWithForm({ questions: [{ id: 'q', type: 'text', label: 'Q' }] });
    for (const f of fam.slice(0, 3)) await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: (await parentPhone(f.id)), pin: '1234', school_id: a.schoolId, fcm_token: `device-${f.id}` });
    await respond(fam[1]!, form.formId, { student_id: fam[1]!.kids[0], answers: { q: 'done' } });
    // fam[0] read it but has not answered; fam[2] neither read nor answered.
    await t.api.post('/parent-app/engagement/read').set(bearer(fam[0]!.token)).send({ entity_type: 'activity', entity_id: form.id });
    const res = await t.api.post(`/teachers-app/activities/${form.id}/remind`).set(bearer(author.token));
    expect(res.status).toBe(200);
    const reminded = await Notification.findAll({ where: { school_id: a.schoolId, event: 'reminder', entity_type: 'activity', entity_id: form.id }, raw: true });
    expect([...new Set(reminded.map((n) => n.target_id))].sort()).toEqual([fam[0]!.id, fam[2]!.id].sort());
    expect(res.body.data.queued).toBe(reminded.length);
    // Once every family has responded, a reminder queues nothing and says why.
    for (const f of [fam[0]!, fam[2]!]) await respond(f, form.formId, { student_id: f.kids[0], answers: { q: 'done' } });
    const none = await t.api.post(`/web-app/activities/${form.id}/remind`).set(bearer(a.adminToken));
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ success: true, message: 'Every family has responded: no reminder sent', data: { queued: 0 } });
    expect(await Notification.count({ where: { school_id: a.schoolId, event: 'reminder', entity_type: 'activity', entity_id: form.id } })).toBe(reminded.length);
  });

  it('records the audit events and the webhook event', async () => {
    const form = await activityWithForm({ questions: [{ id: 'q', type: 'text', label: 'Q' }] });
    const r = (await respond(fam[1]!, form.formId, { student_id: fam[1]!.kids[0], answers: { q: 'one' } })).body.data;
    await change(fam[1]!, form.formId, r.id, { answers: { q: 'two' } });
    await updateForm(form.id, { questions: [{ id: 'q', type: 'text', label: 'Q?' }] });
    await t.api.post(`/web-app/forms/${form.formId}/close`).set(bearer(a.adminToken));
    const events = await AuditEvent.findAll({ where: { school_id: a.schoolId, entity_type: ['form', 'form_response'] }, order: [['id', 'ASC']], raw: true });
    const mine = events.filter((e) => (e.entity_type === 'form' && e.entity_id === String(form.formId)) || (e.entity_type === 'form_response' && e.entity_id === String(r.id)));
    expect(mine.map((e) => [e.action, e.actor_type, e.actor_id, e.door])).toEqual([
      ['form.create', 'staff', String(author.id), 'api'],
      ['form_response.create', 'parent', String(fam[1]!.id), 'api'],
      ['form_response.update', 'parent', String(fam[1]!.id), 'api'],
      ['form.update', 'staff', String(author.id), 'api'],
      ['form.close', 'admin', String(a.adminId), 'api'],
    ]);
    const delivery = await WebhookDelivery.findOne({ where: { school_id: a.schoolId, event: 'form.response_submitted' }, order: [['id', 'DESC']], raw: true });
    const payload = JSON.parse(delivery!.payload);
    expect(payload).toMatchObject({ event: 'form.response_submitted', school_id: a.schoolId });
    expect(payload.data).toEqual({
      entity_type: 'form_response', entity_id: r.id, form_id: form.formId, item: { entity_type: 'activity', entity_id: form.id },
      student_id: fam[1]!.kids[0], parent_id: fam[1]!.id, answers: { q: 'one' }, submitted_at: r.submitted_at,
    });
  });

  it('answers 404 everywhere once the item is deleted', async () => {
    const form = await activityWithForm({ questions: [{ id: 'q', type: 'text', label: 'Q' }] });
    await t.api.delete(`/teachers-app/activities/${form.id}`).set(bearer(author.token));
    expectError(await results(a.adminToken, form.formId), 404, 'NOT_FOUND');
    expectError(await t.api.post(`/web-app/forms/${form.formId}/close`).set(bearer(a.adminToken)), 404, 'NOT_FOUND');
    expectError(await respond(fam[1]!, form.formId, { student_id: fam[1]!.kids[0], answers: { q: 'x' } }), 404, 'NOT_FOUND');
  });
});

async function parentPhone(id: number): Promise<string> {
  const [row] = await t.ctx.db.select<{ phone_no: string }>('SELECT phone_no FROM parents WHERE id = :id', { id });
  return row!.phone_no;
}
