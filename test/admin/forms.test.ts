import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import { Activity, Form, FormResponse } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { adminUser, bearer, parent, parentLogin, school, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';
import { consoleApi, expectNotFound, ids, noticeOf, signInConsole, type Agent, type ConsoleApi } from './console-client.js';

/**
 * Forms in the console: the activity's and the notice's edit pages take the form as JSON through
 * the same service (its 400s and 409s on the field), the event fields, the Forms page (responses,
 * missing, CSV, Close) and Form responses, read only and scoped to the school.
 */
let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;
let agent: Agent;
let api: ConsoleApi;
let apiB: ConsoleApi;
let author: string;
const families: Array<{ id: number; token: string; child: number }> = [];

const slip = {
  questions: [
    { id: 'ok', type: 'consent', label: 'I allow the trip', required: true },
    { id: 'seat', type: 'choice', label: 'Seat', options: [{ id: 'front', label: 'Front', capacity: 1 }, { id: 'back', label: 'Back' }] },
  ],
};

beforeAll(async () => {
  t = await startTestApp({ ADMIN_CONSOLE_ENABLED: 'true' });
  a = await school(t);
  b = await school(t);
  author = String((await staffMember(a.schoolId, { name: 'Meera Iyer' })).id);
  for (const name of ['Asha Rao', 'Bilal Khan']) {
    const p = await parent(t.ctx, a.schoolId, { father_name: `${name} Sr` });
    const c = await student(a.schoolId, p.id, { name, grade: '5' });
    families.push({ id: p.id, token: await parentLogin(t, p.phone, p.pin, a.schoolId), child: c.id });
  }
  agent = await signInConsole(t, a.adminEmail);
  api = consoleApi(agent);
  apiB = consoleApi(await signInConsole(t, b.adminEmail));
});
afterAll(async () => t.close());

describe('the edit pages', () => {
  it('create an event with a form from JSON, shown on its page and to the families', async () => {
    const created = await api.create('activities', {
      title: 'Museum trip', staff_id: author, activity_type: 'event', status: 'published', starts_at: '2026-12-05T03:30:00.000Z', ends_at: '2026-12-05T10:00:00.000Z',
      all_day: 'false', location: 'City Museum', form: JSON.stringify(slip),
    });
    expect(noticeOf(created)).toEqual({ message: 'Activity created', type: 'success' });
    const id = Number(created.body.record.id);
    const stored = (await Activity.findByPk(id))!;
    expect(stored).toMatchObject({ location: 'City Museum', all_day: false });
    expect(stored.form_id).toEqual(expect.any(Number));
    const shown = (await api.show('activities', id)).body.record.params;
    expect(shown.form_summary).toBe('2 questions, 0 responses (one per child), open');
    expect(JSON.parse(shown.form)).toEqual({ questions: [{ ...slip.questions[0], required: true }, { ...slip.questions[1], required: false, multiple: false }], due_at: null, per_student: true, editable: true });
    const feed = (await t.api.get(`/parent-app/activities/${id}`).set(bearer(families[0]!.token))).body.data;
    expect(feed.form.questions[1].options[0]).toEqual({ id: 'front', label: 'Front', capacity: 1, remaining: 1 });
    expect(feed).toMatchObject({ starts_at: '2026-12-05T03:30:00.000Z', location: 'City Museum' });
  });

  it('creates an announcement with the event fields left empty, and a notice with a per-family form', async () => {
    const plain = await api.create('activities', { title: 'Uniform reminder', staff_id: author, activity_type: 'announcement', starts_at: '', ends_at: '', all_day: 'false', location: '', form: '' });
    expect(noticeOf(plain)).toEqual({ message: 'Activity created', type: 'success' });
    expect((await Activity.findByPk(Number(plain.body.record.id)))!.form_id).toBeNull();
    const notice = await api.create('notices', { notice_title: 'Sports day helpers', notice_type: 'event', form: JSON.stringify({ ...slip, per_student: false }) });
    expect(noticeOf(notice)).toEqual({ message: 'Notice created', type: 'success' });
    expect((await api.show('notices', notice.body.record.id)).body.record.params.form_summary).toBe('2 questions, 0 responses (one per family), open');
  });

  it('shows the form\'s 400s on its field, each place worded, and creates nothing', async () => {
    const before = await Activity.count({ where: { school_id: a.schoolId } });
    const notJson = await api.create('activities', { title: 'Bad', staff_id: author, form: '{questions: [' });
    expect(notJson.body.record.errors.form.message).toMatch(/not valid JSON/);
    const invalid = await api.create('activities', {
      title: 'Bad', staff_id: author,
      form: JSON.stringify({ questions: [{ id: 'a', type: 'essay', label: 'A' }, { id: 'b', type: 'choice', label: 'B', options: [{ id: 'x', label: 'X', capacity: 0 }, { id: 'y', label: 'Y' }] }] }),
    });
    expect(invalid.body.record.errors.form.message).toMatch(/^Form \(JSON\) question 1, type: must be one of consent, choice, text, number; question 2, option 1, capacity: /);
    const announced = await api.create('activities', { title: 'Bad', staff_id: author, activity_type: 'announcement', location: 'Hall' });
    expect(announced.body.record.errors.location.message).toMatch(/belongs to events/);
    expect(await Activity.count({ where: { school_id: a.schoolId } })).toBe(before);
  });

  it('changes a form through the same rules: a question removed once answered is refused on the field, nothing saved', async () => {
    const id = Number((await api.create('activities', { title: 'Picnic', staff_id: author, status: 'published', form: JSON.stringify(slip) })).body.record.id);
    const formId = (await Activity.findByPk(id))!.form_id!;
    expect((await t.api.post(`/parent-app/forms/${formId}/responses`).set(bearer(families[0]!.token)).send({ student_id: families[0]!.child, answers: { ok: 'agree', seat: 'front' }, signature: 'Asha Rao Sr' })).status).toBe(201);
    const refused = await api.edit('activities', id, { title: 'Picnic (moved)', form: JSON.stringify({ questions: [slip.questions[0]] }) });
    expect(refused.body.record.errors.form.message).toBe('Form (JSON) questions: question "seat" cannot be removed: the form has responses');
    expect((await Activity.findByPk(id))!.title).toBe('Picnic');
    const relabelled = { questions: [slip.questions[0], { ...slip.questions[1], label: 'Where to sit' }] };
    const saved = await api.edit('activities', id, { title: 'Picnic (moved)', form: JSON.stringify(relabelled) });
    expect(noticeOf(saved)).toEqual({ message: 'Activity saved', type: 'success' });
    expect((await Form.findByPk(formId))!.questions[1]!.label).toBe('Where to sit');
    // An untouched field is not sent: saving the page as it is changes nothing of the form.
    const page = (await api.editForm('activities', id)).body.record.params;
    expect(noticeOf(await api.edit('activities', id, { title: 'Picnic', form: page.form }))).toEqual({ message: 'Activity saved', type: 'success' });
    const removed = await api.edit('activities', id, { form: '' });
    expect(removed.body.record.errors.form.message).toBe('Form (JSON) has responses');
  });
});

describe('the Forms page', () => {
  let id: number;
  let formId: number;

  beforeAll(async () => {
    id = Number((await api.create('activities', { title: 'Concert', staff_id: author, status: 'published', form: JSON.stringify(slip) })).body.record.id);
    formId = (await Activity.findByPk(id))!.form_id!;
    await t.api.post(`/parent-app/forms/${formId}/responses`).set(bearer(families[1]!.token)).send({ student_id: families[1]!.child, answers: { ok: 'agree', seat: 'back' }, signature: '=Bilal' });
  });

  it('is offered on items with a form only', async () => {
    const actions = async (itemId: number) => ((await api.show('activities', itemId)).body.record.recordActions as Array<{ name: string }>).map((x) => x.name);
    expect(await actions(id)).toContain('forms');
    const plain = Number((await api.create('activities', { title: 'No form', staff_id: author })).body.record.id);
    expect(await actions(plain)).not.toContain('forms');
  });

  it('shows the responses and who is missing, gives the CSV, and closes the form', async () => {
    const page = await api.act('activities', id, 'forms');
    expect(page.status).toBe(200);
    expect(page.body.results.responses).toEqual([expect.objectContaining({ student: expect.objectContaining({ student_full_name: 'Bilal Khan' }), signature: '=Bilal' })]);
    expect(page.body.results.missing).toEqual([expect.objectContaining({ student_full_name: 'Asha Rao' })]);
    const csv = await agent.get(`/admin/api/resources/activities/records/${id}/forms`).query({ format: 'csv' });
    expect(csv.body.csv.filename).toBe(`form-${formId}-results.csv`);
    expect((parse(csv.body.csv.csv.replace(/^\uFEFF/, '')) as string[][])[1]).toEqual(['Bilal Khan', '5', 'Bilal Khan Sr', expect.any(String), 'agree', 'Back', "'=Bilal"]);
    const closed = await api.perform('activities', id, 'forms', { close: 'true' });
    expect(noticeOf(closed)?.type).toBe('success');
    expect(closed.body.results.form.closed).toBe(true);
    expect((await Form.findByPk(formId))!.closed_at).not.toBeNull();
    expect((await t.api.post(`/parent-app/forms/${formId}/responses`).set(bearer(families[0]!.token)).send({ student_id: families[0]!.child, answers: { ok: 'agree' }, signature: 'A' })).status).toBe(409);
  });

  it('is refused to another school\'s admin and to an IT contact', async () => {
    expectNotFound(await apiB.act('activities', id, 'forms'));
    const it = consoleApi(await signInConsole(t, (await adminUser(t, a.schoolId, 'it_contact')).email));
    const res = await it.act('activities', id, 'forms');
    expect(res.body.results).toBeUndefined();
  });
});

describe('Form responses', () => {
  it('lists and shows the school\'s responses, read only, each with its item and answers in words', async () => {
    const list = await api.list('form_responses', { perPage: 50 });
    expect(list.status).toBe(200);
    const mine = await FormResponse.findAll({ where: { school_id: a.schoolId }, raw: true });
    expect(ids(list).sort()).toEqual(mine.map((r) => r.id).sort());
    const one = list.body.records.find((r: { id: string }) => Number(r.id) === mine[0]!.id);
    const { formId } = { formId: mine[0]!.form_id };
    const item = (await Form.findByPk(formId))!;
    expect({ label: one.params['item.label'], href: one.params['item.href'] }).toEqual({
      label: (await Activity.findByPk(item.entity_id))!.title, href: `/admin/resources/activities/records/${item.entity_id}/show`,
    });
    const shown = (await api.show('form_responses', mine[0]!.id)).body.record;
    expect(shown.params.answers_shown).toMatch(/^I allow the trip: agree\n/);
    expect(shown.recordActions.map((x: { name: string }) => x.name)).toEqual(['show']);
    expect(noticeOf(await api.create('form_responses', { form_id: String(mine[0]!.form_id) }))?.type).toBe('error');
    expect(await FormResponse.count({ where: { school_id: a.schoolId } })).toBe(mine.length);
    const itContact = consoleApi(await signInConsole(t, (await adminUser(t, a.schoolId, 'it_contact')).email));
    expect(noticeOf(await itContact.list('form_responses'))?.type).toBe('error');
  });

  it('shows a question left unanswered as "(no answer)", whatever its id (constructor, toString)', async () => {
    const odd = { questions: [
      { id: 'ok', type: 'consent', label: 'Allowed' },
      { id: 'constructor', type: 'text', label: 'Allergies', required: false },
      { id: 'toString', type: 'choice', label: 'Slot', required: false, options: [{ id: 'am', label: 'Morning' }, { id: 'pm', label: 'Afternoon' }] },
    ] };
    const created = await api.create('activities', { title: 'Odd ids', staff_id: author, activity_type: 'announcement', status: 'published', form: JSON.stringify(odd) });
    const formId = (await Activity.findByPk(Number(created.body.record.id)))!.form_id!;
    const answered = await t.api.post(`/parent-app/forms/${formId}/responses`).set(bearer(families[0]!.token)).send({ student_id: families[0]!.child, answers: { ok: 'decline' } });
    expect(answered.status).toBe(201);
    expect((await api.show('form_responses', answered.body.data.id)).body.record.params.answers_shown).toBe('Allowed: decline\nAllergies: (no answer)\nSlot: (no answer)');
  });

  it('hides them from another school', async () => {
    const mine = await FormResponse.findAll({ where: { school_id: a.schoolId }, raw: true });
    expect(ids(await apiB.list('form_responses'))).toEqual([]);
    expectNotFound(await apiB.show('form_responses', mine[0]!.id));
    expect(ids(await apiB.list('form_responses', { 'filters.form_id': mine[0]!.form_id }))).toEqual([]);
  });
});
