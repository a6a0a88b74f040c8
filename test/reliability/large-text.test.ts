import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WebhookDelivery } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { bearer, parent, parentLogin, school, staffLogin, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';

/**
 * Values within the contract's limits that are longer than MySQL's TEXT (65,535 bytes): a form of 50
 * choice questions of 50 options, 50 text answers of 2,000 characters, an audited change of two
 * 10,000-character descriptions that JSON escapes six bytes a character, and the webhook payloads
 * carrying them. SQLite takes any length; on MySQL/MariaDB strict mode refuses a longer value (a 500)
 * unless the column is MEDIUMTEXT. Each must answer 2xx and read back intact.
 */
let t: TestApp;
let a: SchoolFixture;
let author: string;
let family: string;
let kid: number;

const TEXT_BYTES = 65_535;
const bytes = (value: unknown) => Buffer.byteLength(typeof value === 'string' ? value : JSON.stringify(value), 'utf8');
/** A string of exactly `length` UTF-16 units, no space at either end (labels are trimmed), some of it multi-byte. */
const filled = (head: string, length: number, filler = 'Ä☂x-') => (head + filler.repeat(Math.ceil(length / filler.length))).slice(0, length);

beforeAll(async () => {
  t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  a = await school(t);
  const s = await staffMember(a.schoolId, { rbac: { activities: 'create' }, name: 'Class Teacher' });
  author = await staffLogin(t, s.phone, s.pin, a.schoolId);
  const p = await parent(t.ctx, a.schoolId, { father_name: 'Arjun Mehta' });
  kid = (await student(a.schoolId, p.id, { name: 'Zara Mehta', grade: '5' })).id;
  family = await parentLogin(t, p.phone, p.pin, a.schoolId);
  // Nothing delivers (jobs are off): the deliveries stay in the outbox, payloads as written.
  const hook = await t.api.post('/web-app/webhooks').set(bearer(a.adminToken)).send({ url: 'http://127.0.0.1:9/hooks', events: ['*'] });
  expect(hook.status).toBe(201);
}, 60_000);
afterAll(async () => t.close());

async function postActivity(body: Record<string, unknown>) {
  const res = await t.api.post('/teachers-app/activities').set(bearer(author)).send({ school_id: a.schoolId, audience: { grades: ['5'] }, ...body });
  expect(res.status).toBe(201);
  return res.body.data as { id: number; description: string | null; form: { id: number; questions: unknown[] } };
}

async function payloadsOf(event: string, entityId: number) {
  const rows = await WebhookDelivery.findAll({ where: { school_id: a.schoolId, event }, raw: true });
  return rows.map((r) => ({ text: r.payload, body: JSON.parse(r.payload) as { data: { entity_id: number } & Record<string, unknown> } })).filter((p) => p.body.data.entity_id === entityId);
}

/** The largest form the contract allows: 50 choice questions of 50 options, every label at its longest. */
const largestForm = () => Array.from({ length: 50 }, (_, q) => ({
  id: filled(`question-${q}-`, 40, 'q'),
  type: 'choice',
  label: filled(`Question ${q}: `, 500),
  required: false,
  multiple: false,
  options: Array.from({ length: 50 }, (_, o) => ({ id: filled(`q${q}-option-${o}-`, 40, 'o'), label: filled(`Option ${o} of ${q}: `, 200) })),
}));

describe('values longer than a MySQL TEXT', () => {
  it('a form of 50 choice questions of 50 long options is stored, shown, counted and published whole', async () => {
    const questions = largestForm();
    // Both JSON columns of the form's row exceed a TEXT: the definition, and `counts` of every option id.
    expect(bytes(questions)).toBeGreaterThan(TEXT_BYTES);
    const counts = Object.fromEntries(questions.map((q) => [q.id, Object.fromEntries(q.options.map((o) => [o.id, 0]))]));
    expect(bytes(counts)).toBeGreaterThan(TEXT_BYTES);

    const created = await postActivity({ title: 'Sports day sign-up', form: { questions, per_student: true } });
    expect(created.form.questions).toEqual(questions);

    const shown = await t.api.get(`/parent-app/activities/${created.id}`).set(bearer(family));
    expect(shown.status).toBe(200);
    expect(shown.body.data.form.questions).toEqual(questions);

    // A response rewrites `counts`; every option keeps its count.
    const answers = Object.fromEntries(questions.map((q, i) => [q.id, q.options[i]!.id]));
    const response = await t.api.post(`/parent-app/forms/${created.form.id}/responses`).set(bearer(family)).send({ student_id: kid, answers });
    expect(response.status).toBe(201);
    expect(response.body.data.answers).toEqual(answers);
    const results = await t.api.get(`/web-app/forms/${created.form.id}/results`).set(bearer(a.adminToken));
    expect(results.status).toBe(200);
    expect(results.body.data.form.questions).toEqual(questions);
    expect(results.body.data.summary).toEqual(Object.fromEntries(questions.map((q, i) => [q.id, Object.fromEntries(q.options.map((o, j) => [o.id, i === j ? 1 : 0]))])));

    // The audit event of the new form holds the whole definition and its counts.
    const audit = await t.api.get('/web-app/audit-log').query({ entity_type: 'form', entity_id: String(created.form.id), action: 'form.create' }).set(bearer(a.adminToken));
    expect(audit.status).toBe(200);
    expect(audit.body.data.events).toHaveLength(1);
    expect(audit.body.data.events[0].changes.questions).toEqual([null, questions]);
    expect(audit.body.data.events[0].changes.counts).toEqual([null, counts]);

    const [published] = await payloadsOf('activity.published', created.id);
    expect(bytes(published!.text)).toBeGreaterThan(TEXT_BYTES);
    expect((published!.body.data.form as { questions: unknown }).questions).toEqual(questions);
  }, 60_000);

  it('50 text answers of 2,000 characters are stored, shown and published whole', async () => {
    const questions = Array.from({ length: 50 }, (_, q) => ({ id: `note-${q}`, type: 'text', label: `Anything else (${q})?`, required: true }));
    const created = await postActivity({ title: 'Tell us about the trip', form: { questions, per_student: false } });
    const answers = Object.fromEntries(questions.map((q, i) => [q.id, filled(`Answer ${i}: `, 2000, 'naïve café ☂ ok.')]));
    expect(bytes(answers)).toBeGreaterThan(TEXT_BYTES);

    const res = await t.api.post(`/parent-app/forms/${created.form.id}/responses`).set(bearer(family)).send({ answers });
    expect(res.status).toBe(201);
    expect(res.body.data.answers).toEqual(answers);

    const shown = await t.api.get(`/parent-app/activities/${created.id}`).set(bearer(family));
    expect(shown.status).toBe(200);
    expect(shown.body.data.form.my_responses).toHaveLength(1);
    expect(shown.body.data.form.my_responses[0].answers).toEqual(answers);
    const results = await t.api.get(`/web-app/forms/${created.form.id}/results`).set(bearer(a.adminToken));
    expect(results.status).toBe(200);
    expect(results.body.data.responses.map((r: { answers: unknown }) => r.answers)).toEqual([answers]);

    const audit = await t.api.get('/web-app/audit-log').query({ entity_type: 'form_response', entity_id: String(res.body.data.id) }).set(bearer(a.adminToken));
    expect(audit.status).toBe(200);
    expect(audit.body.data.events.map((e: { changes: { answers: unknown } }) => e.changes.answers)).toEqual([[null, answers]]);

    const [submitted] = await payloadsOf('form.response_submitted', res.body.data.id);
    expect(bytes(submitted!.text)).toBeGreaterThan(TEXT_BYTES);
    expect(JSON.stringify(submitted!.body.data)).toContain(JSON.stringify(answers[questions[49]!.id]));
  }, 60_000);

  it('an audited change of a description JSON escapes past 64 KiB is saved, recorded and shown whole', async () => {
    // Control characters: one UTF-16 unit in the description, six bytes (\u0001) in the JSON of the change.
    const before = '\u0001'.repeat(10_000);
    const after = '\u0002\u001f'.repeat(5_000);
    const created = await postActivity({ title: 'Notes', description: before });
    expect(created.description).toBe(before);

    const res = await t.api.put(`/teachers-app/activities/${created.id}`).set(bearer(author)).send({ description: after });
    expect(res.status).toBe(200);
    expect(res.body.data.description).toBe(after);
    const shown = await t.api.get(`/parent-app/activities/${created.id}`).set(bearer(family));
    expect(shown.body.data.description).toBe(after);

    const audit = await t.api.get('/web-app/audit-log').query({ entity_type: 'activity', entity_id: String(created.id), action: 'activity.update' }).set(bearer(a.adminToken));
    expect(audit.status).toBe(200);
    expect(audit.body.data.events).toHaveLength(1);
    const changes = audit.body.data.events[0].changes as Record<string, unknown>;
    expect(bytes(changes)).toBeGreaterThan(TEXT_BYTES);
    expect(changes.description).toEqual([before, after]);
  }, 60_000);
});

describe('a large post to a school with many webhooks', () => {
  it('is published with one delivery a webhook, though their bodies together pass a statement\'s 16 MiB', async () => {
    const b = await school(t);
    const hooks = 20;
    for (let i = 0; i < hooks; i += 1) {
      const res = await t.api.post('/web-app/webhooks').set(bearer(b.adminToken)).send({ url: `http://127.0.0.1:9/hooks/${i}`, events: ['activity.published'] });
      expect(res.status).toBe(201);
    }
    const s = await staffMember(b.schoolId, { rbac: { activities: 'create' }, name: 'Sports Teacher' });
    const teacher = await staffLogin(t, s.phone, s.pin, b.schoolId);
    const questions = largestForm();
    const res = await t.api.post('/teachers-app/activities').set(bearer(teacher)).send({ school_id: b.schoolId, title: 'Sports day sign-up', form: { questions, per_student: true } });
    expect(res.status).toBe(201);

    const rows = await WebhookDelivery.findAll({ where: { school_id: b.schoolId, event: 'activity.published' }, raw: true });
    expect(rows).toHaveLength(hooks);
    expect(new Set(rows.map((r) => r.webhook_id)).size).toBe(hooks);
    expect(new Set(rows.map((r) => r.event_id)).size).toBe(1);
    expect(bytes(rows[0]!.payload) * hooks).toBeGreaterThan(16 * 1024 * 1024);
    for (const row of rows) expect((JSON.parse(row.payload) as { data: { form: { questions: unknown } } }).data.form.questions).toEqual(questions);
  }, 120_000);
});
