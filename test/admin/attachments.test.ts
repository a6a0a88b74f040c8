import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Attachment, AuditEvent, School } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { adminUser, bearer, parent, parentLogin, school, staffMember, staffLogin, student, type SchoolFixture } from '../helpers/fixtures.js';
import { cameraJpeg, fetchFile, pdf, upload } from '../helpers/images.js';
import { consoleApi, noticeOf, signInConsole, type Agent, type ConsoleApi } from './console-client.js';

/** Files in the console (CONTRACT.md sections 16 and 25): uploaded, attached, shown and taken off through the same services as the API. */
let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;
let agent: Agent;
let api: ConsoleApi;
let author: string;

beforeAll(async () => {
  t = await startTestApp({ ADMIN_CONSOLE_ENABLED: 'true' });
  a = await school(t);
  b = await school(t);
  author = String((await staffMember(a.schoolId)).id);
  agent = await signInConsole(t, a.adminEmail);
  api = consoleApi(agent);
});
afterAll(async () => t.close());

/** What the forms do with a chosen file: post it to the resource's upload action. */
const consoleUpload = (resource: string, content: Buffer, name: string, as: Agent = agent) =>
  as.post(`/admin/api/resources/${resource}/actions/upload`).attach('file', content, name);

async function uploaded(resource: string, content: Buffer, name: string): Promise<{ id: number; url: string; thumbnail_url: string | null; name: string }> {
  const res = await consoleUpload(resource, content, name);
  expect({ status: res.status, notice: res.body.notice?.type }).toEqual({ status: 200, notice: 'success' });
  return res.body.attachment;
}

const attachmentsOf = (params: Record<string, unknown>) => {
  const out: Array<{ id: number; url: string }> = [];
  for (let i = 0; params[`attachments.${i}.id`] !== undefined; i++) out.push({ id: Number(params[`attachments.${i}.id`]), url: String(params[`attachments.${i}.url`]) });
  return out;
};

describe('uploading in the console', () => {
  it('stores a file through the same service as the apps: rebuilt, audited through the console door', async () => {
    const photo = await uploaded('activities', await cameraJpeg(3000, 1500), 'trip.jpg');
    expect(photo).toMatchObject({ name: 'trip.jpg', content_type: 'image/jpeg', width: 2048, height: 1024, thumbnail_url: expect.stringContaining('/thumbnail?') });
    expect((await fetchFile(t, photo.url)).status).toBe(200);
    const event = await AuditEvent.findOne({ where: { action: 'attachment.create', entity_id: String(photo.id) }, raw: true });
    expect(event).toMatchObject({ door: 'console', actor_type: 'admin', actor_id: String(a.adminId), school_id: a.schoolId });
  });

  it('refuses what the API refuses, in a sentence, storing nothing', async () => {
    const rows = await Attachment.count();
    const html = await consoleUpload('activities', Buffer.from('<html><script>alert(1)</script></html>'), 'photo.jpg');
    expect(noticeOf(html)).toEqual({ type: 'error', message: 'The file is not a JPEG, PNG, GIF or WebP image or a PDF' });
    const empty = await agent.post('/admin/api/resources/activities/actions/upload').type('form').send({ note: 'no file' });
    expect(noticeOf(empty)).toEqual({ type: 'error', message: 'Choose a file to upload' });
    const big = await consoleUpload('activities', Buffer.concat([pdf(), Buffer.alloc(21 * 1024 * 1024)]), 'big.pdf');
    expect(noticeOf(big)).toEqual({ type: 'error', message: 'The file is larger than 20 MiB' });
    expect(await Attachment.count()).toBe(rows);
  });

  it('is refused to an it_contact, who may not write items', async () => {
    const it = await adminUser(t, a.schoolId, 'it_contact');
    const res = await consoleUpload('activities', pdf(), 'a.pdf', await signInConsole(t, it.email));
    expect(res.body.attachment).toBeUndefined();
    expect(await Attachment.count({ where: { uploader_id: it.id, uploader_type: 'admin' } })).toBe(0);
  });
});

describe('items with files', () => {
  it('creates an activity with files in the order chosen, shows each with a fresh URL, and deletes one taken off on edit', async () => {
    const [one, two, three] = [await uploaded('activities', await cameraJpeg(200, 100), 'one.jpg'), await uploaded('activities', pdf('two'), 'two.pdf'), await uploaded('activities', pdf('three'), 'three.pdf')];
    const created = await api.create('activities', { title: 'Sports day', activity_type: 'event', status: 'published', staff_id: author, attachment_ids: `${two.id},${one.id}` });
    expect(noticeOf(created)?.type).toBe('success');
    const id = Number(created.body.record.id);
    const shown = (await api.show('activities', id)).body.record.params;
    expect(attachmentsOf(shown).map((f) => f.id)).toEqual([two.id, one.id]);
    for (const f of attachmentsOf(shown)) expect((await fetchFile(t, f.url)).status).toBe(200);
    // The apps see what the console attached.
    const rest = await t.api.get(`/web-app/activities?school_id=${a.schoolId}`).set(bearer(a.adminToken));
    expect(rest.body.data.records.find((r: { id: number }) => r.id === id).attachments.map((f: { id: number }) => f.id)).toEqual([two.id, one.id]);

    const edited = await api.edit('activities', id, { attachment_ids: `${one.id},${three.id}` });
    expect(noticeOf(edited)?.type).toBe('success');
    expect(attachmentsOf((await api.show('activities', id)).body.record.params).map((f) => f.id)).toEqual([one.id, three.id]);
    expect((await fetchFile(t, two.url)).status).toBe(404);
    // An edit of another field leaves the files as they are; an empty list takes them all off.
    await api.edit('activities', id, { title: 'Sports day (moved)', 'attachment_ids.0': String(one.id), 'attachment_ids.1': String(three.id) });
    expect(attachmentsOf((await api.show('activities', id)).body.record.params).map((f) => f.id)).toEqual([one.id, three.id]);
    await api.edit('activities', id, { attachment_ids: '' });
    expect(attachmentsOf((await api.show('activities', id)).body.record.params)).toEqual([]);
    expect([(await fetchFile(t, one.url)).status, (await fetchFile(t, three.url)).status]).toEqual([404, 404]);
  });

  it('refuses, on the Files field, an upload the item cannot take: another school\'s, a parent\'s, one attached elsewhere', async () => {
    const s = await staffMember(b.schoolId);
    const foreign = (await upload(t, 'teachers-app', await staffLogin(t, s.phone, s.pin, b.schoolId), pdf('b'), 'b.pdf', 'application/pdf')).body.data;
    const p = await parent(t.ctx, a.schoolId);
    await student(a.schoolId, p.id);
    const parents = (await upload(t, 'parent-app', await parentLogin(t, p.phone, p.pin, a.schoolId), pdf('p'), 'p.pdf', 'application/pdf')).body.data;
    for (const refusedId of [foreign.id, parents.id]) {
      const res = await api.create('notices', { notice_title: 'Refused', notice_type: 'general', attachment_ids: String(refusedId) });
      expect(noticeOf(res)).toEqual({ type: 'error', message: `Files cannot include upload ${refusedId}.` });
      expect(res.body.record.errors.attachment_ids.message).toBe(`Files cannot include upload ${refusedId}`);
    }
  });

  it('attaches files to notices on new and edit, and to diary entries on edit; deleting the item deletes them', async () => {
    const photo = await uploaded('notices', await cameraJpeg(120, 90), 'board.jpg');
    const notice = Number((await api.create('notices', { notice_title: 'Annual day', notice_type: 'event', attachment_ids: String(photo.id) })).body.record.id);
    const p = await parent(t.ctx, a.schoolId);
    await student(a.schoolId, p.id);
    const board = await t.api.get(`/parent-app/noticeboard/${notice}`).set(bearer(await parentLogin(t, p.phone, p.pin, a.schoolId)));
    expect(board.body.data.attachments.map((f: { id: number }) => f.id)).toEqual([photo.id]);
    expect(noticeOf(await api.remove('notices', notice))?.type).toBe('success');
    expect((await fetchFile(t, photo.url)).status).toBe(404);

    const s = await staffMember(a.schoolId);
    const entry = (await t.api.post('/teachers-app/diary').set(bearer(await staffLogin(t, s.phone, s.pin, a.schoolId))).send({ grade: '5', title: 'Worksheet' })).body.data.id;
    // A Files value that names no upload is refused on its field, as on an activity.
    const malformed = await api.edit('diary_entries', entry, { attachment_ids: 'abc' });
    expect(malformed.status).toBe(200);
    expect(noticeOf(malformed)?.type).toBe('error');
    expect(Object.keys(malformed.body.record.errors)).toEqual(['attachment_ids']);
    const sheet = await uploaded('diary_entries', pdf('worksheet'), 'worksheet.pdf');
    expect(noticeOf(await api.edit('diary_entries', entry, { attachment_ids: String(sheet.id) }))?.type).toBe('success');
    expect(attachmentsOf((await api.show('diary_entries', entry)).body.record.params).map((f) => f.id)).toEqual([sheet.id]);
  });

  it('writes a diary entry for a teacher it names, with files, which the family sees; its teacher stays', async () => {
    const s = await staffMember(a.schoolId);
    const p = await parent(t.ctx, a.schoolId);
    const child = await student(a.schoolId, p.id, { grade: '4' });
    const sheet = await uploaded('diary_entries', pdf('spelling'), 'spelling.pdf');
    // Without a teacher, or for a teacher of another school: refused in words, nothing written.
    const unnamed = await api.create('diary_entries', { grade: '4', title: 'Spelling list' });
    expect(unnamed.body.record.errors.staff_id.message).toBe('Teacher is required: a diary entry is written by a staff member');
    const foreign = await staffMember(b.schoolId);
    expect(noticeOf(await api.create('diary_entries', { staff_id: String(foreign.id), grade: '4', title: 'Spelling list' }))).toMatchObject({ type: 'error', message: 'Staff member not found' });
    const created = await api.create('diary_entries', { staff_id: String(s.id), grade: '4', title: 'Spelling list', due_date: '2026-12-04', attachment_ids: String(sheet.id) });
    expect(noticeOf(created)?.type).toBe('success');
    const entry = Number(created.body.record.id);
    const diary = (await t.api.get('/parent-app/diary').query({ student_id: child.id }).set(bearer(await parentLogin(t, p.phone, p.pin, a.schoolId)))).body.data;
    expect(diary.find((d: { id: number }) => d.id === entry)).toMatchObject({ staff_id: s.id, grade: '4', title: 'Spelling list', due_date: '2026-12-04', attachments: [expect.objectContaining({ id: sheet.id })] });
    const other = await staffMember(a.schoolId);
    const moved = await api.edit('diary_entries', entry, { staff_id: String(other.id) });
    expect(moved.body.record.errors.staff_id.message).toBe('Teacher cannot change: an entry stays with the staff member who wrote it');
    // For one student instead of the grade.
    expect(noticeOf(await api.edit('diary_entries', entry, { grade: '', student_id: String(child.id) }))?.type).toBe('success');
    expect((await api.show('diary_entries', entry)).body.record.params).toMatchObject({ grade: null, student_id: child.id, staff_id: s.id });
  });
});

describe('write-to requests', () => {
  it('show the files of the request and of each reply, and take files with a reply', async () => {
    const p = await parent(t.ctx, a.schoolId);
    const child = (await student(a.schoolId, p.id)).id;
    const token = await parentLogin(t, p.phone, p.pin, a.schoolId);
    const note = (await upload(t, 'parent-app', token, await cameraJpeg(160, 120), 'note.jpg')).body.data;
    const thread = (await t.api.post('/parent-app/write-to').set(bearer(token)).send({ student_id: child, type: 'query', message: 'See the note', attachment_ids: [note.id] })).body.data.id;
    const answer = await uploaded('write_to_requests', pdf('answer'), 'answer.pdf');
    // A file already attached elsewhere is refused on the page's Files field, in its name.
    const refused = await api.perform('write_to_requests', thread, 'reply', { message: 'Received', attachment_ids: String(note.id) });
    expect(noticeOf(refused)?.type).toBe('error');
    expect(Object.keys(refused.body.record.errors)).toEqual(['attachment_ids']);
    expect(refused.body.record.errors.attachment_ids.message).toMatch(/^Files /);
    const replied = await api.perform('write_to_requests', thread, 'reply', { message: 'Received, thank you', attachment_ids: String(answer.id) });
    expect(noticeOf(replied)?.type).toBe('success');
    const entries = (await api.show('write_to_requests', thread)).body.record.params;
    expect([entries['thread.0.attachments.0.id'], entries['thread.1.attachments.0.id']]).toEqual([note.id, answer.id]);
    expect((await fetchFile(t, String(entries['thread.0.attachments.0.url']))).status).toBe(200);
    const parentView = await t.api.get(`/parent-app/write-to/${thread}`).set(bearer(token));
    expect(parentView.body.data.replies[0].attachments.map((f: { id: number }) => f.id)).toEqual([answer.id]);
  });
});

describe('school settings', () => {
  it('show the storage limit and what is used, and let the super_admin change the limit', async () => {
    const shown = (await api.show('school_settings', a.schoolId)).body.record.params;
    const bytes = Number((await School.findByPk(a.schoolId, { raw: true }))!.storage_used_bytes);
    expect({ limit: shown.storage_limit_mb, used: shown.storage_used_mb }).toEqual({ limit: 5120, used: Math.ceil(bytes * 100 / 1048576) / 100 });
    expect(shown.storage_used_bytes).toBeUndefined();
    expect(noticeOf(await api.edit('school_settings', a.schoolId, { storage_limit_mb: '2048' }))?.type).toBe('success');
    expect((await School.findByPk(a.schoolId, { raw: true }))!.storage_limit_mb).toBe(2048);
    const refused = await api.edit('school_settings', a.schoolId, { storage_limit_mb: '0' });
    expect(noticeOf(refused)?.type).toBe('error');
    expect((await School.findByPk(a.schoolId, { raw: true }))!.storage_limit_mb).toBe(2048);
  });
});
