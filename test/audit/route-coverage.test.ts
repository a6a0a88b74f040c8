import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Op } from 'sequelize';
import type { Response } from 'supertest';
import { AuditEvent, Notification } from '../../src/models/index.js';
import { auditActions } from '../../src/admin/labels/audit-actions.js';
import { notificationEventLabels } from '../../src/admin/labels/codes.js';
import { enqueue } from '../../src/push/outbox.js';
import { createLinks } from '../../src/services/delivery/links.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { assign } from '../helpers/classroom.js';
import { ADMIN_PASSWORD, bearer, parent, parentLogin, school, staffLogin, staffMember, student, uniquePhone, type SchoolFixture } from '../helpers/fixtures.js';
import { pdf } from '../helpers/images.js';
import { studentHeader, csv } from '../helpers/roster.js';
import { twilioCallback, twilioEnv } from '../helpers/twilio.js';

/**
 * Every state-changing route of the OpenAPI document, called once with a valid request: each must
 * answer 2xx and append at least one audit event through the `api` door. A route added without an
 * entry here fails the first test, so no new route goes unaudited unnoticed.
 */
let t: TestApp;
let a: SchoolFixture;
const s: Record<string, number | string> = {};
let teacher: string;
let parentToken: string;
let parentPhone: string;

beforeAll(async () => {
  // The webhook is saved, never called: nothing in this file delivers.
  t = await startTestApp({ PUBLIC_APP_URL: 'https://apply.example', WEBHOOK_ALLOW_PRIVATE: 'true', ...twilioEnv });
  a = await school(t);
  const p = await parent(t.ctx, a.schoolId);
  parentPhone = p.phone;
  s.child = (await student(a.schoolId, p.id, { grade: '5' })).id;
  s.other = (await student(a.schoolId, p.id, { grade: '5' })).id;
  const m = await staffMember(a.schoolId, { rbac: { activities: 'manage', noticeboard: 'manage', diary: 'manage', attendance: 'manage', write_to: 'manage', students: 'manage' } });
  await assign(a.schoolId, m.id, Number(s.child));
  teacher = await staffLogin(t, m.phone, m.pin, a.schoolId);
  parentToken = await parentLogin(t, p.phone, p.pin, a.schoolId);
  s.parentPin = p.pin;
  s.parentId = p.id;
  s.staffPhone = m.phone;
  s.staffId = m.id;
  s.staffPin = m.pin;
});
afterAll(async () => t.close());

type Call = () => Promise<Response>;
const web = (token = a.adminToken) => ({
  get: (path: string) => t.api.get(path).set(bearer(token)),
  post: (path: string, body: object = {}) => t.api.post(path).set(bearer(token)).send(body),
  put: (path: string, body: object) => t.api.put(path).set(bearer(token)).send(body),
  delete: (path: string) => t.api.delete(path).set(bearer(token)),
});
const keep = (key: string, res: Response) => {
  s[key] = res.body.data.id;
  return res;
};

/** In order: later calls use what earlier ones created. */
const calls: Array<[string, Call]> = [
  ['POST /web-app/signup', () => t.api.post('/web-app/signup').send({ name: 'New Head', email: `head-${Date.now()}@example.org`, password: ADMIN_PASSWORD, school_id: `audit-${Date.now()}`, school_name: 'Audit School' })],
  ['POST /web-app/signin', () => t.api.post('/web-app/signin').send({ email: a.adminEmail, password: ADMIN_PASSWORD })],
  ['PUT /web-app/school', () => web().put('/web-app/school', { timezone: 'Asia/Kolkata' })],
  ['POST /web-app/admins', async () => keep('admin', await web().post('/web-app/admins', { name: 'Ravi IT', email: `it-${Date.now()}@example.org`, password: 'a long password', role: 'it_contact' }))],
  ['PUT /web-app/admins/{id}', () => web().put(`/web-app/admins/${s.admin}`, { role: 'admin' })],
  ['DELETE /web-app/admins/{id}', () => web().delete(`/web-app/admins/${s.admin}`)],
  ['POST /web-app/designations', async () => keep('designation', await web().post('/web-app/designations', { name: 'Sports Coach', rbac: { activities: 'create' } }))],
  ['PUT /web-app/designations/{id}', () => web().put(`/web-app/designations/${s.designation}`, { rbac: { activities: 'manage' } })],
  ['DELETE /web-app/designations/{id}', () => web().delete(`/web-app/designations/${s.designation}`)],
  ['POST /web-app/grades', async () => keep('grade', await web().post('/web-app/grades', { name: 'Class Z' }))],
  ['PUT /web-app/grades/{id}', () => web().put(`/web-app/grades/${s.grade}`, { sort_order: 40 })],
  ['DELETE /web-app/grades/{id}', () => web().delete(`/web-app/grades/${s.grade}`)],
  ['POST /web-app/staff', async () => keep('staff', await web().post('/web-app/staff', { name: 'Anita Desai', designation: 'Class Teacher', phone_no: uniquePhone(), pin: '4321' }))],
  ['PUT /web-app/staff/{id}', () => web().put(`/web-app/staff/${s.staff}`, { designation: 'Subject Teacher' })],
  ['POST /web-app/staff/{id}/assign-students', () => web().post(`/web-app/staff/${s.staff}/assign-students`, { student_ids: [s.child] })],
  ['POST /web-app/staff/{id}/unassign-students', () => web().post(`/web-app/staff/${s.staff}/unassign-students`, { student_ids: [s.child] })],
  ['POST /web-app/staff/{id}/reset-pin', () => web().post(`/web-app/staff/${s.staff}/reset-pin`, { pin: '8642' })],
  ['POST /web-app/staff/{id}/archive', () => web().post(`/web-app/staff/${s.staff}/archive`)],
  ['PUT /web-app/students/{id}', () => web().put(`/web-app/students/${s.other}`, { blood_group: 'O+' })],
  ['POST /web-app/students/{id}/archive', () => web().post(`/web-app/students/${s.other}/archive`)],
  ['POST /web-app/students/{id}/restore', () => web().post(`/web-app/students/${s.other}/restore`)],
  ['POST /web-app/students/{id}/reset-password', async () => {
    const res = await web().post(`/web-app/students/${s.other}/reset-password`, { password: '482913' });
    parentToken = await parentLogin(t, parentPhone, '482913', a.schoolId);
    // A device of the family's, so that the reminders below reach someone (one that reaches nobody records nothing).
    await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: parentPhone, pin: '482913', school_id: a.schoolId, fcm_token: 'family-phone' });
    return res;
  }],
  ['POST /web-app/students/{id}/erase', async () => {
    const doomed = await student(a.schoolId, null, { grade: '5', status: 'archived' });
    return web().post(`/web-app/students/${doomed.id}/erase`, { confirm: doomed.roll_no });
  }],
  ['POST /web-app/webhooks', async () => keep('webhook', await web().post('/web-app/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['notice.published'] }))],
  ['PUT /web-app/webhooks/{id}', () => web().put(`/web-app/webhooks/${s.webhook}`, { events: ['*'] })],
  ['DELETE /web-app/webhooks/{id}', () => web().delete(`/web-app/webhooks/${s.webhook}`)],
  ['POST /web-app/groups', async () => keep('group', await web().post('/web-app/groups', { name: 'Bus 7' }))],
  ['PUT /web-app/groups/{id}', () => web().put(`/web-app/groups/${s.group}`, { name: 'Bus 7 (morning)' })],
  ['POST /web-app/groups/{id}/members', () => web().post(`/web-app/groups/${s.group}/members`, { student_ids: [s.child] })],
  ['POST /web-app/groups/{id}/members/remove', () => web().post(`/web-app/groups/${s.group}/members/remove`, { student_ids: [s.child] })],
  ['DELETE /web-app/groups/{id}', () => web().delete(`/web-app/groups/${s.group}`)],
  ['POST /web-app/imports', () =>
    t.api.post('/web-app/imports').query({ kind: 'students' }).set(bearer(a.adminToken)).set('Content-Type', 'text/csv')
      .send(csv(studentHeader, [['AUD-1', 'Imported Child', null, '5', null, null, null, null, null, null, null, null, null, null]]))],
  ['POST /web-app/admission-form', async () => {
    const res = await t.api.post('/web-app/admission-form').send({
      school_id: a.schoolId,
      student: { student_full_name: 'Asha Rao', gender: 'female', grade: '5', date_of_birth: '2016-04-12', blood_group: 'B+', roll_no: null },
      parent: { father_name: 'Ravi Rao', mother_name: 'Meena Rao', phone_no: uniquePhone(), email: 'ravi@example.com' },
      addresses: [{ address_type: 'current', address: '12 Lake Rd', city: 'Pune', pincode: 411001 }],
    });
    s.admissionToken = res.body.data.admission_token;
    s.setupToken = new URL(res.body.data.pin_setup.url).searchParams.get('token')!;
    return res;
  }],
  ['PATCH /web-app/update-student', () =>
    t.api.patch('/web-app/update-student').send({ school_id: a.schoolId, admission_token: s.admissionToken, section: 'addresses', data: [{ address_type: 'current', address: '14 Lake Rd', city: 'Pune', pincode: 411001 }] })],
  ['POST /parent-app/set-pin', () => t.api.post('/parent-app/set-pin').send({ token: s.setupToken, pin: '482913' })],
  ['PUT /web-app/parents/{id}', async () => {
    s.officeParent = (await parent(t.ctx, a.schoolId)).id;
    return web().put(`/web-app/parents/${s.officeParent}`, { mother_name: 'Meena Rao' });
  }],
  ['POST /web-app/parents/{id}/reset-pin', () => web().post(`/web-app/parents/${s.officeParent}/reset-pin`, { pin: '864213' })],
  ['POST /web-app/students', () => web().post('/web-app/students', {
    student: { student_full_name: 'Kiran Shah', grade: '6' }, parent: { father_name: 'Dev Shah', phone_no: uniquePhone() }, addresses: [],
  })],
  ['POST /parent-app/attachments', () => t.api.post('/parent-app/attachments').set(bearer(parentToken)).attach('file', pdf('A doctor\'s note'), 'note.pdf')],
  ['POST /teachers-app/attachments', () => t.api.post('/teachers-app/attachments').set(bearer(teacher)).attach('file', pdf('Trip plan'), 'trip.pdf')],
  ['POST /web-app/attachments', () => t.api.post('/web-app/attachments').set(bearer(a.adminToken)).attach('file', pdf('Fee circular'), 'fees.pdf')],
  ['POST /web-app/noticeboard', async () => keep('notice', await web().post('/web-app/noticeboard', { school_id: a.schoolId, notice_title: 'Closed on Friday', notice_type: 'holiday' }))],
  ['PUT /web-app/noticeboard/{id}', () => web().put(`/web-app/noticeboard/${s.notice}`, { is_important: true })],
  ['POST /web-app/noticeboard/{id}/remind', () => web().post(`/web-app/noticeboard/${s.notice}/remind`)],
  ['POST /teachers-app/activities', async () => keep('activity', await web(teacher).post('/teachers-app/activities', { school_id: a.schoolId, title: 'Sports day' }))],
  ['PUT /teachers-app/activities/{id}', () => web(teacher).put(`/teachers-app/activities/${s.activity}`, { school_id: a.schoolId, title: 'Sports day (moved)' })],
  ['POST /teachers-app/activities/{id}/remind', () => web(teacher).post(`/teachers-app/activities/${s.activity}/remind`, { school_id: a.schoolId })],
  ['POST /web-app/activities/{id}/remind', async () => {
    const id = (await web(teacher).post('/teachers-app/activities', { school_id: a.schoolId, title: 'Trip' })).body.data.id;
    return web().post(`/web-app/activities/${id}/remind`, { school_id: a.schoolId });
  }],
  ['POST /teachers-app/noticeboard', () => web(teacher).post('/teachers-app/noticeboard', { school_id: a.schoolId, notice_title: 'Exam timetable' })],
  ['PUT /teachers-app/attendance', () => web(teacher).put('/teachers-app/attendance', { school_id: a.schoolId, date: '2026-11-23', records: [{ student_id: s.child, status: 'present' }] })],
  ['POST /teachers-app/diary', async () => keep('diary', await web(teacher).post('/teachers-app/diary', { school_id: a.schoolId, grade: '5', title: 'Maths homework', due_date: '2026-11-24' }))],
  ['PUT /teachers-app/diary/{id}', () => web(teacher).put(`/teachers-app/diary/${s.diary}`, { school_id: a.schoolId, title: 'Maths homework (corrected)' })],
  ['DELETE /teachers-app/diary/{id}', () => web(teacher).delete(`/teachers-app/diary/${s.diary}?school_id=${a.schoolId}`)],
  ['POST /parent-app/engagement/comment', async () => keep('comment', await web(parentToken).post('/parent-app/engagement/comment', { entity_type: 'activity', entity_id: s.activity, content: 'Looking forward to it' }))],
  ['DELETE /parent-app/engagement/comments/{id}', () => web(parentToken).delete(`/parent-app/engagement/comments/${s.comment}`)],
  ['POST /parent-app/engagement/react', () => web(parentToken).post('/parent-app/engagement/react', { entity_type: 'noticeboard', entity_id: s.notice, reaction_type: 'love' })],
  ['POST /parent-app/engagement/read', () => web(parentToken).post('/parent-app/engagement/read', { entity_type: 'activity', entity_id: s.activity })],
  ['POST /parent-app/forms/{form_id}/responses', async () => {
    const slip = { questions: [{ id: 'ok', type: 'consent', label: 'I allow my child to go' }] };
    s.form = (await web(teacher).post('/teachers-app/activities', { school_id: a.schoolId, title: 'Trip slip', form: slip })).body.data.form.id;
    return keep('response', await web(parentToken).post(`/parent-app/forms/${s.form}/responses`, { student_id: s.child, answers: { ok: 'agree' }, signature: 'Ravi Rao' }));
  }],
  ['PUT /parent-app/forms/{form_id}/responses/{id}', () => web(parentToken).put(`/parent-app/forms/${s.form}/responses/${s.response}`, { answers: { ok: 'decline' } })],
  ['POST /teachers-app/forms/{form_id}/close', () => web(teacher).post(`/teachers-app/forms/${s.form}/close`)],
  ['POST /web-app/forms/{form_id}/close', async () => {
    const rsvp = { questions: [{ id: 'coming', type: 'choice', label: 'Coming?', options: [{ id: 'y', label: 'Yes' }, { id: 'n', label: 'No' }] }], per_student: false };
    const form = (await web().post('/web-app/noticeboard', { school_id: a.schoolId, notice_title: 'Sports day', form: rsvp })).body.data.form.id;
    return web().post(`/web-app/forms/${form}/close`);
  }],
  ['POST /parent-app/calendar/feed', () => web(parentToken).post('/parent-app/calendar/feed')],
  ['DELETE /parent-app/calendar/feed', () => web(parentToken).delete('/parent-app/calendar/feed')],
  ['PUT /parent-app/notification-preferences', () => web(parentToken).put('/parent-app/notification-preferences', { categories: { diary: false } })],
  ['PUT /parent-app/profile', () => web(parentToken).put('/parent-app/profile', { email: 'family@example.org' })],
  ['POST /u/{token}', async () => {
    // The link an e-mail would carry, made as the worker makes it when it sends one.
    const [url] = await createLinks(t.ctx.config.publicAppUrl, [{ kind: 'unsubscribe', schoolId: a.schoolId, parentId: Number(s.parentId) }], new Date());
    return t.api.post(new URL(url!).pathname).type('form').send({ 'List-Unsubscribe': 'One-Click' });
  }],
  ['POST /webhooks/twilio/inbound', () => twilioCallback(t, '/webhooks/twilio/inbound', { From: `+91${parentPhone}`, Body: 'STOP', MessageSid: 'SM1' })],
  ['POST /webhooks/twilio/status', async () => {
    const [id] = await enqueue([{ school_id: a.schoolId, event: 'reminder', channel: 'sms', target_type: 'parent', target_id: Number(s.parentId), address: `+91${parentPhone}`, title: 't', body: 'b' }]);
    await Notification.update({ status: 'sent', provider_id: 'SMcoverage' }, { where: { id: id! } });
    return twilioCallback(t, '/webhooks/twilio/status', { MessageSid: 'SMcoverage', MessageStatus: 'delivered' });
  }],
  ['POST /parent-app/write-to', async () => keep('thread', await web(parentToken).post('/parent-app/write-to', { student_id: s.child, type: 'query', message: 'When is the trip?' }))],
  ['POST /parent-app/write-to/{id}/reply', () => web(parentToken).post(`/parent-app/write-to/${s.thread}/reply`, { message: 'And what to bring?' })],
  ['POST /teachers-app/write-to/{id}/reply', () => web(teacher).post(`/teachers-app/write-to/${s.thread}/reply`, { school_id: a.schoolId, message: 'Friday; a water bottle.' })],
  ['POST /web-app/write-to/{id}/reply', () => web().post(`/web-app/write-to/${s.thread}/reply`, { message: 'The office will call you.' })],
  ['PUT /web-app/write-to/{id}', () => web().put(`/web-app/write-to/${s.thread}`, { assigned_staff_id: s.staffId })],
  ['PUT /teachers-app/write-to/{id}', () => web(teacher).put(`/teachers-app/write-to/${s.thread}`, { school_id: a.schoolId, status: 'resolved' })],
  ['DELETE /teachers-app/activities/{id}', () => web(teacher).delete(`/teachers-app/activities/${s.activity}?school_id=${a.schoolId}`)],
  ['DELETE /web-app/noticeboard/{id}', () => web().delete(`/web-app/noticeboard/${s.notice}?school_id=${a.schoolId}`)],
  ['POST /web-app/diagnostics/test-push', async () => {
    await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: parentPhone, pin: '482913', school_id: a.schoolId, fcm_token: 'device-a' });
    const p = await parent(t.ctx, a.schoolId);
    await t.api.post('/parent-app/parent-auth-verification').send({ phone_no: p.phone, pin: p.pin, school_id: a.schoolId, fcm_token: 'device-b' });
    return web().post('/web-app/diagnostics/test-push', { parent_id: p.id, title: 'Test', body: 'Hello' });
  }],
  ['POST /parent-app/parent-auth-verification', () => t.api.post('/parent-app/parent-auth-verification').send({ phone_no: parentPhone, pin: '482913', school_id: a.schoolId })],
  ['POST /teachers-app/teacher-auth-verification', () => t.api.post('/teachers-app/teacher-auth-verification').send({ phone_no: s.staffPhone, pin: s.staffPin, school_id: a.schoolId })],
  ['DELETE /parent-app/sessions/{id}', async () => {
    const token = await parentLogin(t, parentPhone, '482913', a.schoolId);
    const mine = (await web(token).get('/parent-app/sessions')).body.data as Array<{ id: number; current: boolean }>;
    return web(token).delete(`/parent-app/sessions/${mine.find((x) => !x.current)!.id}`);
  }],
  ['DELETE /parent-app/sessions', async () => web(await parentLogin(t, parentPhone, '482913', a.schoolId)).delete('/parent-app/sessions')],
  ['POST /parent-app/logout', async () => web(await parentLogin(t, parentPhone, '482913', a.schoolId)).post('/parent-app/logout')],
  ['DELETE /teachers-app/sessions/{id}', async () => {
    const token = await staffLogin(t, String(s.staffPhone), String(s.staffPin), a.schoolId);
    const mine = (await web(token).get(`/teachers-app/sessions?school_id=${a.schoolId}`)).body.data as Array<{ id: number; current: boolean }>;
    return web(token).delete(`/teachers-app/sessions/${mine.find((x) => !x.current)!.id}?school_id=${a.schoolId}`);
  }],
  ['DELETE /teachers-app/sessions', async () => web(await staffLogin(t, String(s.staffPhone), String(s.staffPin), a.schoolId)).delete(`/teachers-app/sessions?school_id=${a.schoolId}`)],
  ['POST /teachers-app/logout', async () => web(await staffLogin(t, String(s.staffPhone), String(s.staffPin), a.schoolId)).post('/teachers-app/logout', { school_id: a.schoolId })],
  ['DELETE /web-app/sessions/{id}', async () => {
    const token = (await t.api.post('/web-app/signin').send({ email: a.adminEmail, password: ADMIN_PASSWORD })).body.data.access_token as string;
    const all = (await web(token).get('/web-app/sessions')).body.data as Array<{ id: number; current?: boolean }>;
    return web().delete(`/web-app/sessions/${all.find((x) => x.current)?.id ?? all[0]!.id}`);
  }],
  ['POST /web-app/logout', async () => web((await t.api.post('/web-app/signin').send({ email: a.adminEmail, password: ADMIN_PASSWORD })).body.data.access_token).post('/web-app/logout')],
];

describe('every state-changing route writes an audit event', () => {
  it('the list covers exactly the OpenAPI document', async () => {
    const doc = (await t.api.get('/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const changing = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).filter((m) => ['post', 'put', 'patch', 'delete'].includes(m)).map((m) => `${m.toUpperCase()} ${path}`));
    expect(calls.map(([route]) => route).sort()).toEqual(changing.sort());
  });

  it.each(calls.map(([route], i) => [route, i] as const))('%s', async (route, i) => {
    const before = await AuditEvent.max<number, AuditEvent>('id') ?? 0;
    const res = await calls[i]![1]();
    expect({ route, status: res.status < 300 ? 'ok' : res.status, error: res.body.error }).toEqual({ route, status: 'ok', error: undefined });
    const written = await AuditEvent.findAll({ where: { id: { [Op.gt]: before } }, raw: true });
    // Some calls set up their record first through the models (door `job`); the route's own events come through the API.
    expect(written.filter((e) => e.door === 'api').length).toBeGreaterThan(0);
  });

  it("every action and notification event these calls recorded is one the console's filters offer, in words", async () => {
    const actions = (await AuditEvent.findAll({ attributes: ['action'], group: ['action'], raw: true })).map((e) => e.action);
    expect(actions.length).toBeGreaterThan(40);
    expect(actions.filter((action) => !auditActions.includes(action))).toEqual([]);
    const events = (await Notification.findAll({ attributes: ['event'], group: ['event'], raw: true })).map((n) => n.event);
    expect(events.filter((event) => !notificationEventLabels[event])).toEqual([]);
  });
});
