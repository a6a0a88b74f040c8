import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { runJob, maintenanceJobs } from '../../src/jobs/jobs.js';
import { Attachment, AuditEvent, Parent, School } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { bearer, parent, parentLogin, school, staffLogin, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';
import { cameraJpeg, fetchFile, pdf, upload } from '../helpers/images.js';

/** What becomes of attachments over time: uploads never attached, interrupted uploads, access requests and erasure. */
let t: TestApp;
let a: SchoolFixture;
let teacher: string;

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  const s = await staffMember(a.schoolId, { rbac: { write_to: 'manage' } });
  teacher = await staffLogin(t, s.phone, s.pin, a.schoolId);
});
afterAll(async () => t.close());

const expiryJob = () => runJob(t.ctx, maintenanceJobs.find((j) => j.name === 'attachment_expiry')!);
const storedFile = async (id: number) => {
  const row = await Attachment.findByPk(id, { raw: true });
  return path.join(t.ctx.config.dataDir, 'files', ...row!.storage_key.split('/'));
};
const used = async () => Number((await School.findByPk(a.schoolId, { raw: true }))!.storage_used_bytes);
const age = (id: number, hours: number) => Attachment.update({ created_at: new Date(Date.now() - hours * 3600_000) }, { where: { id }, silent: true, hooks: false });

async function family() {
  const p = await parent(t.ctx, a.schoolId);
  const child = await student(a.schoolId, p.id, { grade: '5' });
  return { id: p.id, child, token: await parentLogin(t, p.phone, p.pin, a.schoolId) };
}

describe('uploads never attached', () => {
  it('are deleted by the maintenance job once 24 hours old, files, row, usage and all; attached and younger ones stay', async () => {
    const f = await family();
    const old = (await upload(t, 'parent-app', f.token, await cameraJpeg(200, 100), 'old.jpg')).body.data;
    const young = (await upload(t, 'parent-app', f.token, pdf('young'), 'young.pdf', 'application/pdf')).body.data;
    const kept = (await upload(t, 'parent-app', f.token, pdf('kept'), 'kept.pdf', 'application/pdf')).body.data;
    await t.api.post('/parent-app/write-to').set(bearer(f.token)).send({ student_id: f.child.id, type: 'query', message: 'See attached', attachment_ids: [kept.id] });
    await age(old.id, 25);
    await age(young.id, 23);
    await age(kept.id, 48);
    const file = await storedFile(old.id);
    const before = { used: await used(), parent: Number((await Parent.findByPk(f.id, { raw: true }))!.unattached_upload_bytes) };
    const oldRow = (await Attachment.findByPk(old.id, { raw: true }))!;
    const oldBytes = oldRow.size + (oldRow.thumbnail_size ?? 0);

    expect((await expiryJob()).status).toBe('ok');
    expect(await Attachment.findByPk(old.id)).toBeNull();
    expect(existsSync(file)).toBe(false);
    expect([(await fetchFile(t, old.url)).status, (await fetchFile(t, old.thumbnail_url)).status]).toEqual([404, 404]);
    expect([(await fetchFile(t, young.url)).status, (await fetchFile(t, kept.url)).status]).toEqual([200, 200]);
    expect(await used()).toBe(before.used - oldBytes);
    expect(Number((await Parent.findByPk(f.id, { raw: true }))!.unattached_upload_bytes)).toBe(before.parent - oldBytes);
    const event = await AuditEvent.findOne({ where: { action: 'attachment.delete', entity_id: String(old.id) }, raw: true });
    expect(event).toMatchObject({ school_id: a.schoolId, actor_type: 'system', door: 'job', entity_type: 'attachment' });
  });
});

describe('an upload interrupted halfway', () => {
  it('leaves no temporary file, stored file, row or usage behind, and the service goes on', async () => {
    const server = t.app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const { port } = server.address() as AddressInfo;
      const rows = await Attachment.count();
      const before = await used();
      const boundary = 'cut-off';
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`;
      await new Promise<void>((resolve) => {
        const req = http.request({
          host: '127.0.0.1', port, method: 'POST', path: '/teachers-app/attachments',
          headers: { Authorization: `Bearer ${teacher}`, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(5 * 1024 * 1024) },
        });
        req.on('error', () => resolve());
        req.write(head);
        req.write(Buffer.concat([pdf(), Buffer.alloc(1024 * 1024)]), () => setTimeout(() => {
          req.destroy();
          resolve();
        }, 200));
      });
      const temp = path.join(t.ctx.config.dataDir, 'tmp');
      for (let i = 0; i < 50 && existsSync(temp) && readdirSync(temp).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(existsSync(temp) ? readdirSync(temp) : []).toEqual([]);
      expect(await Attachment.count()).toBe(rows);
      expect(await used()).toBe(before);
      expect((await upload(t, 'teachers-app', teacher, pdf(), 'after.pdf', 'application/pdf')).status).toBe(201);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});

describe('access requests and erasure', () => {
  it('export the files of a family\'s requests and replies and their uploads not yet attached, without URLs; erasure deletes them', async () => {
    const f = await family();
    const other = await family();
    const note = (await upload(t, 'parent-app', f.token, await cameraJpeg(160, 120), 'medical.jpg')).body.data;
    const loose = (await upload(t, 'parent-app', f.token, pdf('draft'), 'draft.pdf', 'application/pdf')).body.data;
    const othersNote = (await upload(t, 'parent-app', other.token, pdf('theirs'), 'theirs.pdf', 'application/pdf')).body.data;
    const thread = (await t.api.post('/parent-app/write-to').set(bearer(f.token)).send({ student_id: f.child.id, type: 'query', message: 'Note attached', attachment_ids: [note.id] })).body.data.id;
    const staffFile = (await upload(t, 'teachers-app', teacher, pdf('answer'), 'answer.pdf', 'application/pdf')).body.data;
    expect((await t.api.post(`/teachers-app/write-to/${thread}/reply`).set(bearer(teacher)).send({ message: 'Thanks', attachment_ids: [staffFile.id] })).status).toBe(201);
    const reply = (await Attachment.findByPk(staffFile.id, { raw: true }))!.entity_id;
    await t.api.post('/parent-app/write-to').set(bearer(other.token)).send({ student_id: other.child.id, type: 'query', message: 'Mine', attachment_ids: [othersNote.id] });

    const mine = await t.api.get('/parent-app/my-data').set(bearer(f.token));
    expect(mine.status).toBe(200);
    const shape = { name: expect.any(String), content_type: expect.any(String), size: expect.any(Number), created_at: expect.stringMatching(/Z$/) };
    expect(mine.body.data.attachments).toEqual([
      { ...shape, id: note.id, width: 160, height: 120, entity_type: 'write_to', entity_id: thread },
      { ...shape, id: loose.id, width: null, height: null, entity_type: null, entity_id: null },
      { ...shape, id: staffFile.id, width: null, height: null, entity_type: 'write_to_reply', entity_id: reply },
    ]);
    expect(JSON.stringify(mine.body.data.attachments)).not.toContain('/files/');
    expect(mine.body.data.attachments.map((x: { id: number }) => x.id)).not.toContain(othersNote.id);

    const files = await Promise.all([note.id, loose.id, staffFile.id].map(storedFile));
    await t.api.post(`/web-app/students/${f.child.id}/archive`).set(bearer(a.adminToken));
    const erased = await t.api.post(`/web-app/students/${f.child.id}/erase`).set(bearer(a.adminToken)).send({ confirm: f.child.roll_no });
    expect(erased.status).toBe(200);
    expect(erased.body.data.erased).toMatchObject({ students: 1, parents: 1, attachments: 3 });
    for (const url of [note.url, note.thumbnail_url, loose.url, staffFile.url]) expect((await fetchFile(t, url)).status).toBe(404);
    expect((await fetchFile(t, othersNote.url)).status).toBe(200);
    for (let i = 0; i < 50 && files.some((x) => existsSync(x)); i++) await new Promise((r) => setTimeout(r, 100));
    expect(files.filter((x) => existsSync(x))).toEqual([]);
    // Nothing of what the files were called stays in the trail.
    const trail = await AuditEvent.findAll({ where: { entity_type: 'attachment', entity_id: [note.id, loose.id, staffFile.id].map(String) }, raw: true });
    expect(trail.length).toBeGreaterThanOrEqual(6);
    expect(JSON.stringify(trail)).not.toMatch(/medical|draft\.pdf|answer\.pdf/);
    const after = await t.api.get(`/web-app/students/${f.child.id}/export`).set(bearer(a.adminToken));
    expect(after.status).toBe(200);
    expect(after.body.data.attachments).toEqual([]);
  });
});
