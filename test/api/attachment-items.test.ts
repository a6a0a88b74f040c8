import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Op } from 'sequelize';
import { Activity, Attachment, AuditEvent, DiaryEntry, Notice, Notification, Parent, WebhookDelivery, WriteToReply, WriteToRequest } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { assign } from '../helpers/classroom.js';
import { bearer, expectError, parent, parentLogin, school, staffLogin, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';
import { cameraJpeg, fetchFile, pdf, upload, type AppPath } from '../helpers/images.js';

/** attachment_ids on every route that takes them, and attachments in every view of those items (CONTRACT.md section 25). */
let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;
let teacher: { id: number; token: string };
let otherTeacher: string;
let foreignTeacher: string;
const family = {} as { id: number; token: string; child: number };
const otherFamily = {} as { id: number; token: string; child: number };

beforeAll(async () => {
  t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
  a = await school(t);
  b = await school(t);
  const s = await staffMember(a.schoolId, { rbac: { activities: 'manage', noticeboard: 'manage', diary: 'manage', write_to: 'manage' } });
  teacher = { id: s.id, token: await staffLogin(t, s.phone, s.pin, a.schoolId) };
  const s2 = await staffMember(a.schoolId);
  otherTeacher = await staffLogin(t, s2.phone, s2.pin, a.schoolId);
  const sb = await staffMember(b.schoolId);
  foreignTeacher = await staffLogin(t, sb.phone, sb.pin, b.schoolId);
  const p = await parent(t.ctx, a.schoolId);
  Object.assign(family, { id: p.id, token: await parentLogin(t, p.phone, p.pin, a.schoolId), child: (await student(a.schoolId, p.id, { grade: '5' })).id });
  const q = await parent(t.ctx, a.schoolId);
  Object.assign(otherFamily, { id: q.id, token: await parentLogin(t, q.phone, q.pin, a.schoolId), child: (await student(a.schoolId, q.id, { grade: '6' })).id });
  await assign(a.schoolId, teacher.id, family.child, otherFamily.child);
});
afterAll(async () => t.close());

interface Upload { id: number; url: string; thumbnail_url: string | null; name: string }
async function uploaded(app: AppPath, token: string, kind: 'photo' | 'pdf' = 'pdf', name = kind === 'photo' ? 'photo.jpg' : 'note.pdf'): Promise<Upload> {
  const res = kind === 'photo' ? await upload(t, app, token, await cameraJpeg(120, 90), name) : await upload(t, app, token, pdf(name), name, 'application/pdf');
  expect(res.status).toBe(201);
  return res.body.data;
}
const staffUploads = (n: number) => Promise.all(Array.from({ length: n }, (_, i) => uploaded('teachers-app', teacher.token, i % 2 ? 'pdf' : 'photo', `file-${i}.${i % 2 ? 'pdf' : 'jpg'}`)));
const ids = (list: Array<{ id: number }>) => list.map((x) => x.id);
const send = (method: 'post' | 'put', url: string, token: string, body: object) => t.api[method](url).set(bearer(token)).send(body);
const status = (url: string) => fetchFile(t, url).then((r) => r.status);

/** Counts the statements each request sends that read attachments, through the service's bound reads. */
function countingAttachmentReads(): { reads: () => number; stop: () => void } {
  const db = t.ctx.db;
  const select = db.select;
  let reads = 0;
  db.select = ((sql: string, replacements?: Record<string, unknown>) => {
    if (/\bFROM attachments\b/.test(sql)) reads++;
    return select.call(db, sql, replacements);
  }) as typeof db.select;
  return { reads: () => reads, stop: () => void (db.select = select) };
}

describe('activities', () => {
  it('take attachments in the order given and show them in every view, with freshly signed URLs', async () => {
    const [one, two, three] = await staffUploads(3);
    const created = await send('post', '/teachers-app/activities', teacher.token, { school_id: a.schoolId, title: 'Sports day', attachment_ids: [three!.id, one!.id, two!.id] });
    expect(created.status).toBe(201);
    const id = created.body.data.id as number;
    expect(created.body.data.attachments).toEqual([three, one, two].map((u) => ({
      id: u!.id, name: u!.name, content_type: expect.any(String), size: expect.any(Number), width: u!.thumbnail_url ? 120 : null, height: u!.thumbnail_url ? 90 : null,
      url: expect.stringMatching(new RegExp(`/files/${u!.id}\\?exp=\\d+&sig=[0-9a-f]{64}$`)),
      thumbnail_url: u!.thumbnail_url ? expect.stringMatching(new RegExp(`/files/${u!.id}/thumbnail\\?exp=`)) : null,
    })));
    const order = [three!.id, one!.id, two!.id];
    const views = [
      (await t.api.get('/parent-app/activities').set(bearer(family.token))).body.data.find((x: { id: number }) => x.id === id),
      (await t.api.get(`/parent-app/activities/${id}`).set(bearer(family.token))).body.data,
      (await t.api.get(`/teachers-app/activities?school_id=${a.schoolId}`).set(bearer(otherTeacher))).body.data.find((x: { id: number }) => x.id === id),
      (await t.api.get(`/web-app/activities?school_id=${a.schoolId}`).set(bearer(a.adminToken))).body.data.records.find((x: { id: number }) => x.id === id),
    ];
    for (const view of views) {
      expect(ids(view.attachments)).toEqual(order);
      for (const file of view.attachments) expect(await status(file.url)).toBe(200);
    }
    const plain = await send('post', '/teachers-app/activities', teacher.token, { school_id: a.schoolId, title: 'No files' });
    expect(plain.body.data.attachments).toEqual([]);
  });

  it('replace their set on PUT (ids already on it may stay), take every one off with [], and keep it when absent; one taken off is deleted', async () => {
    const [one, two, three] = await staffUploads(3);
    const id = (await send('post', '/teachers-app/activities', teacher.token, { school_id: a.schoolId, title: 'Trip', attachment_ids: [one!.id, two!.id] })).body.data.id;
    const changed = await send('put', `/teachers-app/activities/${id}`, teacher.token, { attachment_ids: [two!.id, three!.id] });
    expect(changed.status).toBe(200);
    expect(ids(changed.body.data.attachments)).toEqual([two!.id, three!.id]);
    expect(await status(one!.url)).toBe(404);
    expect((await Attachment.findByPk(one!.id, { raw: true }))?.deleted_at ?? 'removed').not.toBeNull();
    const kept = await send('put', `/teachers-app/activities/${id}`, teacher.token, { title: 'Trip to the zoo' });
    expect(ids(kept.body.data.attachments)).toEqual([two!.id, three!.id]);
    const none = await send('put', `/teachers-app/activities/${id}`, teacher.token, { attachment_ids: [] });
    expect(none.body.data.attachments).toEqual([]);
    expect(await status(two!.url)).toBe(404);
    expect(await status(three!.url)).toBe(404);
    // The item's own event records what it gained and lost.
    const events = await AuditEvent.findAll({ where: { entity_type: 'activity', entity_id: String(id) }, order: [['id', 'ASC']] });
    expect(events.map((e) => [e.action, e.changes?.attachment_ids ?? null])).toEqual([
      ['activity.create', [null, [one!.id, two!.id]]],
      ['activity.update', [[one!.id, two!.id], [two!.id, three!.id]]],
      ['activity.update', null],
      ['activity.update', [[two!.id, three!.id], []]],
    ]);
    const deletions = await AuditEvent.findAll({ where: { action: 'attachment.delete', entity_id: [one!.id, two!.id, three!.id].map(String) }, raw: true });
    expect(deletions.map((e) => Number(e.entity_id)).sort()).toEqual([one!.id, two!.id, three!.id].sort());
    expect(deletions.every((e) => e.actor_type === 'staff' && e.door === 'api')).toBe(true);
  });

  it('take their attachments with them when deleted, files and all', async () => {
    const [one, two] = await staffUploads(2);
    const id = (await send('post', '/teachers-app/activities', teacher.token, { school_id: a.schoolId, title: 'Gone soon', attachment_ids: [one!.id, two!.id] })).body.data.id;
    const keys = (await Attachment.findAll({ where: { id: [one!.id, two!.id] }, raw: true })).map((r) => path.join(t.ctx.config.dataDir, 'files', ...r.storage_key.split('/')));
    expect(keys.every((k) => existsSync(k))).toBe(true);
    expect((await t.api.delete(`/teachers-app/activities/${id}`).set(bearer(teacher.token))).status).toBe(200);
    expect(await status(one!.url)).toBe(404);
    expect(await status(two!.thumbnail_url ?? two!.url)).toBe(404);
    // The files leave the store after the answer, each row right after its files.
    const left = async () => keys.some((k) => existsSync(k)) || (await Attachment.count({ where: { id: [one!.id, two!.id] } })) > 0;
    for (let i = 0; i < 50 && (await left()); i++) await new Promise((r) => setTimeout(r, 100));
    expect(keys.filter((k) => existsSync(k))).toEqual([]);
    expect(await Attachment.count({ where: { id: [one!.id, two!.id] } })).toBe(0);
  });

  it('refuse each id that cannot be attached, one detail each, worded alike, changing nothing', async () => {
    const [mine, used, deleted] = await staffUploads(3);
    const otherStaffs = await uploaded('teachers-app', otherTeacher);
    const admins = await uploaded('web-app', a.adminToken);
    const parents = await uploaded('parent-app', family.token);
    const foreign = await uploaded('teachers-app', foreignTeacher);
    await send('post', '/teachers-app/activities', teacher.token, { school_id: a.schoolId, title: 'Holder', attachment_ids: [used!.id] });
    const holder = (await send('post', '/teachers-app/activities', teacher.token, { school_id: a.schoolId, title: 'Holder 2', attachment_ids: [deleted!.id] })).body.data.id;
    await send('put', `/teachers-app/activities/${holder}`, teacher.token, { attachment_ids: [] });
    const state = async () => ({
      activities: await Activity.count(), notifications: await Notification.count(), unattached: await Attachment.count({ where: { entity_id: null } }),
      events: await AuditEvent.count({ where: { action: { [Op.ne]: 'attachment.create' } } }),
    });
    const before = await state();

    const requested = [mine!.id, foreign.id, parents.id, used!.id, deleted!.id, 999_999, mine!.id, otherStaffs.id, admins.id];
    const res = await send('post', '/teachers-app/activities', teacher.token, { school_id: a.schoolId, title: 'Refused', attachment_ids: requested });
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.body.error.details).toEqual([1, 2, 3, 4, 5, 6].map((index) => ({ field: `attachment_ids.${index}`, message: `cannot include upload ${requested[index]}` })));
    const tooMany = await staffUploads(11);
    const eleven = await send('post', '/teachers-app/activities', teacher.token, { school_id: a.schoolId, title: 'Eleven', attachment_ids: ids(tooMany) });
    expectError(eleven, 400, 'BAD_REQUEST');
    expect(eleven.body.error.details).toEqual([{ field: 'attachment_ids.10', message: `cannot include upload ${tooMany[10]!.id}` }]);
    expect(await state()).toEqual({ ...before, unattached: before.unattached + 11 });

    const bad = await send('post', '/teachers-app/activities', teacher.token, { school_id: a.schoolId, title: 'Types', attachment_ids: ['x', 0, -1] });
    expectError(bad, 400, 'BAD_REQUEST');
    expect(bad.body.error.details.map((d: { field: string }) => d.field)).toEqual(['attachment_ids.0', 'attachment_ids.1', 'attachment_ids.2']);
    // An update refused leaves the item as it was.
    const item = (await send('post', '/teachers-app/activities', teacher.token, { school_id: a.schoolId, title: 'Kept', attachment_ids: [mine!.id] })).body.data.id;
    expectError(await send('put', `/teachers-app/activities/${item}`, teacher.token, { title: 'Changed', attachment_ids: [foreign.id] }), 400, 'BAD_REQUEST');
    const after = (await t.api.get(`/web-app/activities?school_id=${a.schoolId}`).set(bearer(a.adminToken))).body.data.records.find((x: { id: number }) => x.id === item);
    expect({ title: after.title, files: ids(after.attachments) }).toEqual({ title: 'Kept', files: [mine!.id] });
  });

  it('are shown, with their files, only to whoever may see the item', async () => {
    const [file] = await staffUploads(1);
    const id = (await send('post', '/teachers-app/activities', teacher.token, { school_id: a.schoolId, title: 'Grade 6 only', audience: { grades: ['6'] }, attachment_ids: [file!.id] })).body.data.id;
    expect((await t.api.get('/parent-app/activities').set(bearer(family.token))).body.data.map((x: { id: number }) => x.id)).not.toContain(id);
    expectError(await t.api.get(`/parent-app/activities/${id}`).set(bearer(family.token)), 404, 'NOT_FOUND');
    const seen = (await t.api.get(`/parent-app/activities/${id}`).set(bearer(otherFamily.token))).body.data;
    expect(ids(seen.attachments)).toEqual([file!.id]);
    expectError(await t.api.get(`/web-app/activities?school_id=${b.schoolId}`).set(bearer(a.adminToken)), 403, 'FORBIDDEN');
  });

  it('cost a page one read of attachments, none when no item has any', async () => {
    const [file] = await staffUploads(1);
    for (let i = 0; i < 6; i++) await send('post', '/teachers-app/activities', teacher.token, { school_id: a.schoolId, title: `Many ${i}`, attachment_ids: i === 0 ? [file!.id] : [] });
    const counter = countingAttachmentReads();
    try {
      const page = await t.api.get('/parent-app/activities?limit=20').set(bearer(family.token));
      expect(page.body.data.filter((x: { attachments: unknown[] }) => x.attachments.length > 0).length).toBeGreaterThan(1);
      expect(counter.reads()).toBe(1);
      await t.api.get(`/teachers-app/activities?school_id=${a.schoolId}&limit=20`).set(bearer(teacher.token));
      expect(counter.reads()).toBe(2);
      const empty = await t.api.get('/parent-app/activities?limit=1&page=1').set(bearer(family.token));
      expect(empty.body.data[0].attachments.length).toBe(0);
      expect(counter.reads()).toBe(2);
    } finally {
      counter.stop();
    }
  });
});

describe('notices', () => {
  it('take attachments on every door, show them on the three boards and the detail, and carry them in webhook data without URLs', async () => {
    const hook = await t.api.post('/web-app/webhooks').set(bearer(a.adminToken)).send({ url: 'http://127.0.0.1:9/hooks', events: ['notice.published'] });
    expect(hook.status).toBe(201);
    const [photo, paper] = [await uploaded('web-app', a.adminToken, 'photo'), await uploaded('teachers-app', teacher.token)];
    const posted = await send('post', '/web-app/noticeboard', a.adminToken, { notice_title: 'Annual day', attachment_ids: [photo.id, paper.id] });
    expect(posted.status).toBe(201);
    const id = posted.body.data.id;
    const boards = [
      (await t.api.get('/parent-app/noticeboard').set(bearer(family.token))).body.data.find((n: { id: number }) => n.id === id),
      (await t.api.get(`/parent-app/noticeboard/${id}`).set(bearer(family.token))).body.data,
      (await t.api.get(`/teachers-app/noticeboard?school_id=${a.schoolId}`).set(bearer(teacher.token))).body.data.find((n: { id: number }) => n.id === id),
      (await t.api.get(`/web-app/noticeboard?school_id=${a.schoolId}`).set(bearer(a.adminToken))).body.data.notices.find((n: { id: number }) => n.id === id),
    ];
    for (const board of boards) expect(ids(board.attachments)).toEqual([photo.id, paper.id]);
    const delivery = await WebhookDelivery.findOne({ where: { webhook_id: hook.body.data.id }, order: [['id', 'DESC']], raw: true });
    const data = JSON.parse(delivery!.payload).data;
    expect(data.entity_id).toBe(id);
    expect(data.attachments).toEqual([
      { id: photo.id, name: 'photo.jpg', content_type: 'image/jpeg', size: expect.any(Number), width: 120, height: 90 },
      { id: paper.id, name: 'note.pdf', content_type: 'application/pdf', size: expect.any(Number), width: null, height: null },
    ]);
    expect(delivery!.payload).not.toContain('/files/');

    const staffPost = await send('post', '/teachers-app/noticeboard', teacher.token, { school_id: a.schoolId, notice_title: 'Bus route', attachment_ids: [(await uploaded('teachers-app', teacher.token)).id] });
    expect(staffPost.status).toBe(201);
    expect(staffPost.body.data.attachments).toHaveLength(1);
    const changed = await send('put', `/web-app/noticeboard/${id}`, a.adminToken, { attachment_ids: [paper.id] });
    expect(ids(changed.body.data.attachments)).toEqual([paper.id]);
    expect(await status(photo.url)).toBe(404);
    expect((await t.api.delete(`/web-app/noticeboard/${id}`).set(bearer(a.adminToken))).status).toBe(200);
    expect(await status(paper.url)).toBe(404);
    expect(await Notice.count({ where: { id, notice_deleted: 1 } })).toBe(1);
  });
});

describe('diary entries', () => {
  it('take attachments on create and update, show them to staff and parents, and lose them when deleted', async () => {
    const [one, two] = await staffUploads(2);
    const created = await send('post', '/teachers-app/diary', teacher.token, { grade: '5', title: 'Worksheet', attachment_ids: [one!.id] });
    expect(created.status).toBe(201);
    expect(ids(created.body.data.attachments)).toEqual([one!.id]);
    const id = created.body.data.id;
    const updated = await send('put', `/teachers-app/diary/${id}`, teacher.token, { attachment_ids: [two!.id, one!.id] });
    expect(ids(updated.body.data.attachments)).toEqual([two!.id, one!.id]);
    const staffView = (await t.api.get('/teachers-app/diary').set(bearer(teacher.token))).body.data.find((d: { id: number }) => d.id === id);
    const parentView = (await t.api.get('/parent-app/diary').set(bearer(family.token))).body.data.find((d: { id: number }) => d.id === id);
    expect([ids(staffView.attachments), ids(parentView.attachments)]).toEqual([[two!.id, one!.id], [two!.id, one!.id]]);
    expect((await t.api.get('/parent-app/diary').set(bearer(otherFamily.token))).body.data.map((d: { id: number }) => d.id)).not.toContain(id);
    expectError(await send('put', `/teachers-app/diary/${id}`, teacher.token, { attachment_ids: [(await uploaded('parent-app', family.token)).id] }), 400, 'BAD_REQUEST');
    expect((await t.api.delete(`/teachers-app/diary/${id}`).set(bearer(teacher.token))).status).toBe(200);
    expect([await status(one!.url), await status(two!.url)]).toEqual([404, 404]);
    expect(await DiaryEntry.count({ where: { id, deleted_status: 1 } })).toBe(1);
  });
});

describe('write-to requests and replies', () => {
  it('take the parent\'s own uploads on a request and a reply, staff uploads on a staff reply and admin uploads on an office reply; every view shows them', async () => {
    const note = await uploaded('parent-app', family.token, 'photo', 'doctor-note.jpg');
    const staffFile = await uploaded('teachers-app', teacher.token);
    // A parent cannot attach staff uploads, nor another family's; staff cannot attach a parent's.
    const refusals = [
      await send('post', '/parent-app/write-to', family.token, { student_id: family.child, type: 'query', message: 'Hi', attachment_ids: [staffFile.id] }),
      await send('post', '/parent-app/write-to', otherFamily.token, { student_id: otherFamily.child, type: 'query', message: 'Hi', attachment_ids: [note.id] }),
    ];
    for (const r of refusals) expectError(r, 400, 'BAD_REQUEST');
    const before = await WriteToRequest.count();
    const created = await send('post', '/parent-app/write-to', family.token, { student_id: family.child, type: 'leave', message: 'Fever', leave_from: '2026-12-01', leave_to: '2026-12-02', attachment_ids: [note.id] });
    expect(created.status).toBe(201);
    expect(await WriteToRequest.count()).toBe(before + 1);
    const thread = created.body.data.id;
    expect(ids(created.body.data.attachments)).toEqual([note.id]);
    expectError(await send('post', `/teachers-app/write-to/${thread}/reply`, teacher.token, { message: 'Noted', attachment_ids: [(await uploaded('parent-app', family.token)).id] }), 400, 'BAD_REQUEST');
    const staffReply = await send('post', `/teachers-app/write-to/${thread}/reply`, teacher.token, { message: 'Get well soon', attachment_ids: [staffFile.id] });
    expect(staffReply.status).toBe(201);
    expect(ids(staffReply.body.data.attachments)).toEqual([staffFile.id]);
    const reply = await uploaded('parent-app', family.token);
    const parentReply = await send('post', `/parent-app/write-to/${thread}/reply`, family.token, { message: 'Thanks', attachment_ids: [reply.id] });
    expect(ids(parentReply.body.data.attachments)).toEqual([reply.id]);
    const office = await uploaded('web-app', a.adminToken);
    const officeReply = await send('post', `/web-app/write-to/${thread}/reply`, a.adminToken, { message: 'Certificate received', attachment_ids: [office.id] });
    expect(officeReply.status).toBe(201);
    expect(ids(officeReply.body.data.attachments)).toEqual([office.id]);

    const expected = { request: [note.id], replies: [[staffFile.id], [reply.id], [office.id]] };
    const shape = (d: { attachments: Upload[]; replies: Array<{ attachments: Upload[] }> }) => ({ request: ids(d.attachments), replies: d.replies.map((r) => ids(r.attachments)) });
    expect(shape((await t.api.get(`/parent-app/write-to/${thread}`).set(bearer(family.token))).body.data)).toEqual(expected);
    expect(shape((await t.api.get(`/teachers-app/write-to/${thread}`).set(bearer(teacher.token))).body.data)).toEqual(expected);
    expect(shape((await t.api.get(`/web-app/write-to/${thread}`).set(bearer(a.adminToken))).body.data)).toEqual(expected);
    const lists = [
      (await t.api.get('/parent-app/write-to').set(bearer(family.token))).body.data,
      (await t.api.get('/teachers-app/write-to').set(bearer(teacher.token))).body.data,
      (await t.api.get('/web-app/write-to').set(bearer(a.adminToken))).body.data,
    ];
    for (const list of lists) expect(ids(list.find((r: { id: number }) => r.id === thread).attachments)).toEqual([note.id]);
    // Another family never sees the thread, nor its files' URLs.
    expectError(await t.api.get(`/parent-app/write-to/${thread}`).set(bearer(otherFamily.token)), 404, 'NOT_FOUND');
    // The reply's own event records what it carried.
    const replyEvent = await AuditEvent.findOne({ where: { action: 'write_to.reply', entity_id: String(thread), actor_type: 'parent' }, order: [['id', 'DESC']] });
    expect(replyEvent!.changes?.attachment_ids).toEqual([null, [reply.id]]);
    const createEvent = await AuditEvent.findOne({ where: { action: 'write_to.create', entity_id: String(thread) } });
    expect(createEvent!.changes?.attachment_ids).toEqual([null, [note.id]]);
    expect(await WriteToReply.count({ where: { write_to_id: thread } })).toBe(3);
    // Attached, a parent's uploads no longer count against their limit for unattached ones.
    const waiting = await Attachment.findAll({ where: { uploader_type: 'parent', uploader_id: family.id, entity_id: null, deleted_at: null }, raw: true });
    const held = (await Parent.findByPk(family.id, { raw: true }))!.unattached_upload_bytes;
    expect(Number(held)).toBe(waiting.reduce((sum, r) => sum + r.size + (r.thumbnail_size ?? 0), 0));
  });

  it('cost a thread one read of attachments for the request and all its replies', async () => {
    const thread = (await send('post', '/parent-app/write-to', family.token, { student_id: family.child, type: 'query', message: 'Q', attachment_ids: [(await uploaded('parent-app', family.token)).id] })).body.data.id;
    for (let i = 0; i < 3; i++) await send('post', `/teachers-app/write-to/${thread}/reply`, teacher.token, { message: `R${i}`, attachment_ids: [(await uploaded('teachers-app', teacher.token)).id] });
    const counter = countingAttachmentReads();
    try {
      const res = await t.api.get(`/parent-app/write-to/${thread}`).set(bearer(family.token));
      expect(res.body.data.replies.every((r: { attachments: unknown[] }) => r.attachments.length === 1)).toBe(true);
      expect(counter.reads()).toBe(1);
    } finally {
      counter.stop();
    }
  });
});
