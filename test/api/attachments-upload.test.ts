import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { Attachment, AuditEvent, School } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { cliEnv, runCli } from '../helpers/cli.js';
import { adminUser, bearer, expectError, parent, parentLogin, school, staffLogin, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';
import { animatedGif, cameraJpeg, fetchFile, gifAnimationBomb, pdf, pngBomb, pngWithText, SECRETS, upload, webpAnimationBomb } from '../helpers/images.js';

/** Uploads (CONTRACT.md section 25): what is taken, how images are rebuilt, what is refused, and what stays behind. */
let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;
let teacher: string;
let parentToken: string;
let parentId: number;

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
  b = await school(t);
  const s = await staffMember(a.schoolId);
  teacher = await staffLogin(t, s.phone, s.pin, a.schoolId);
  const p = await parent(t.ctx, a.schoolId);
  parentId = p.id;
  await student(a.schoolId, p.id);
  parentToken = await parentLogin(t, p.phone, p.pin, a.schoolId);
});
afterAll(async () => t.close());

const MiB = 1024 * 1024;
const filesDir = () => path.join(t.ctx.config.dataDir, 'files');
const tempDir = () => path.join(t.ctx.config.dataDir, 'tmp');
/** Every file in the local store, as paths under DATA_DIR/files. */
function storedFiles(): string[] {
  if (!existsSync(filesDir())) return [];
  return readdirSync(filesDir(), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}
const leftInTemp = () => (existsSync(tempDir()) ? readdirSync(tempDir()) : []);
const usedBytes = async (schoolId: string) => Number((await School.findByPk(schoolId, { raw: true }))!.storage_used_bytes);

/** A multipart/form-data body written by hand, for what a generic client library will not send (filename*, raw UTF-8, two files). */
function multipart(parts: Array<{ name: string; disposition?: string; type?: string; content: Buffer | string }>) {
  const boundary = '----sp-test-boundary';
  const body = Buffer.concat([
    ...parts.flatMap((p) => [
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.disposition ?? ''}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`, 'utf8'),
      Buffer.isBuffer(p.content) ? p.content : Buffer.from(p.content),
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}
const sendRaw = (token: string, m: { body: Buffer; type: string }) => t.api.post('/teachers-app/attachments').set(bearer(token)).set('Content-Type', m.type).send(m.body);

describe('a photo is rebuilt', () => {
  it('stores a camera photo upright, in sRGB, without any metadata, scaled to a long edge of 2048 px, with a 400 px thumbnail', async () => {
    const original = await cameraJpeg(3000, 2000, 6);
    const before = await sharp(original).metadata();
    expect({ exif: !!before.exif, icc: !!before.icc, xmp: !!before.xmp, iptc: !!before.iptc, orientation: before.orientation }).toEqual({ exif: true, icc: true, xmp: true, iptc: true, orientation: 6 });
    expect(original.includes(SECRETS.comment) && original.includes(SECRETS.camera)).toBe(true);

    const res = await upload(t, 'teachers-app', teacher, original, 'IMG_0042.JPG', 'image/jpeg');
    expect(res.status).toBe(201);
    // Sideways 3000 x 2000 is 2000 x 3000 as displayed: 1365.3 x 2048, rounded.
    expect(res.body.data).toEqual({
      id: expect.any(Number), name: 'IMG_0042.JPG', content_type: 'image/jpeg', size: expect.any(Number), width: 1365, height: 2048,
      url: expect.stringMatching(/^http:\/\/localhost:3000\/files\/\d+\?exp=\d+&sig=[0-9a-f]{64}$/),
      thumbnail_url: expect.stringMatching(/^http:\/\/localhost:3000\/files\/\d+\/thumbnail\?exp=\d+&sig=[0-9a-f]{64}$/),
    });
    const stored = await fetchFile(t, res.body.data.url);
    expect(stored.status).toBe(200);
    expect(stored.body.length).toBe(res.body.data.size);
    const meta = await sharp(stored.body).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height, space: meta.space }).toEqual({ format: 'jpeg', width: 1365, height: 2048, space: 'srgb' });
    expect({ exif: meta.exif, icc: meta.icc, xmp: meta.xmp, iptc: meta.iptc, orientation: meta.orientation }).toEqual({ exif: undefined, icc: undefined, xmp: undefined, iptc: undefined, orientation: undefined });
    for (const secret of Object.values(SECRETS)) expect(stored.body.includes(secret)).toBe(false);
    // The red half was on the left as stored; turned upright it is on top.
    const { data, info } = await sharp(stored.body).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => Array.from(data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3));
    expect(pixel(600, 100)[0]).toBeGreaterThan(200);
    expect(pixel(600, 1900)[2]).toBeGreaterThan(200);

    const thumb = await fetchFile(t, res.body.data.thumbnail_url);
    expect(thumb.status).toBe(200);
    const thumbMeta = await sharp(thumb.body).metadata();
    expect({ format: thumbMeta.format, width: thumbMeta.width, height: thumbMeta.height, exif: thumbMeta.exif, icc: thumbMeta.icc }).toEqual({
      format: 'jpeg', width: 267, height: 400, exif: undefined, icc: undefined,
    });
  });

  it('keeps a small image at its size, drops a PNG\'s text chunks, and keeps every frame of an animation (its thumbnail a still)', async () => {
    const png = await upload(t, 'teachers-app', teacher, await pngWithText(300, 120), 'chart.png', 'image/png');
    expect(png.status).toBe(201);
    expect(png.body.data).toMatchObject({ content_type: 'image/png', width: 300, height: 120 });
    const pngBytes = (await fetchFile(t, png.body.data.url)).body;
    expect((await sharp(pngBytes).metadata()).comments).toBeUndefined();
    expect(pngBytes.includes(SECRETS.pngText)).toBe(false);
    expect((await sharp((await fetchFile(t, png.body.data.thumbnail_url)).body).metadata()).width).toBe(300);

    const gif = await upload(t, 'teachers-app', teacher, await animatedGif(600, 300, 4), 'wave.gif', 'image/gif');
    expect(gif.status).toBe(201);
    expect(gif.body.data).toMatchObject({ content_type: 'image/gif', width: 600, height: 300 });
    expect((await sharp((await fetchFile(t, gif.body.data.url)).body).metadata()).pages).toBe(4);
    const still = await sharp((await fetchFile(t, gif.body.data.thumbnail_url)).body).metadata();
    expect({ format: still.format, pages: still.pages ?? 1, width: still.width, height: still.height }).toEqual({ format: 'gif', pages: 1, width: 400, height: 200 });

    const webp = await sharp({ create: { width: 2500, height: 1000, channels: 3, background: 'teal' } }).webp().toBuffer();
    const w = await upload(t, 'teachers-app', teacher, webp, 'banner.webp', 'image/webp');
    expect(w.status).toBe(201);
    expect(w.body.data).toMatchObject({ content_type: 'image/webp', width: 2048, height: 819 });
  });

  it('stores a PDF byte for byte, without a thumbnail', async () => {
    // Binary content with control bytes and blank lines, as a part's headers have them: none of it is touched.
    const bytes = Buffer.concat([pdf('Fee circular, term 2'), Buffer.from('\r\n\r\n\u0001\u0007\u007f\r\n--\r\n\r\n'), Buffer.from(Array.from({ length: 256 }, (_, i) => i))]);
    const res = await upload(t, 'web-app', a.adminToken, bytes, 'fees.pdf', 'application/pdf');
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ name: 'fees.pdf', content_type: 'application/pdf', size: bytes.length, width: null, height: null, thumbnail_url: null });
    expect((await fetchFile(t, res.body.data.url)).body.equals(bytes)).toBe(true);
  });

  it('judges the type by the first bytes, whatever the name or the declared type', async () => {
    const jpegNamedPdf = await upload(t, 'teachers-app', teacher, await cameraJpeg(40, 30), 'scan.pdf', 'application/pdf');
    expect(jpegNamedPdf.status).toBe(201);
    expect(jpegNamedPdf.body.data.content_type).toBe('image/jpeg');
  });
});

describe('what is refused, leaving nothing behind', () => {
  it('refuses anything but JPEG, PNG, GIF, WebP and PDF content: 415 naming file', async () => {
    const rows = await Attachment.count();
    const files = storedFiles().length;
    const cases: Array<[string, Buffer, string]> = [
      ['photo.jpg', Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>'), 'image/jpeg'],
      ['photo.jpg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="10" height="10"/></svg>'), 'image/jpeg'],
      ['logo.svg', Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml'],
      ['data.xml', Buffer.from('<?xml version="1.0"?><note>hi</note>'), 'application/xml'],
      ['run.sh', Buffer.from('#!/bin/sh\nrm -rf /\n'), 'application/x-sh'],
      ['setup.exe', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)]), 'application/octet-stream'],
      ['scan.tif', Buffer.concat([Buffer.from([0x49, 0x49, 0x2a, 0x00]), Buffer.alloc(200)]), 'image/tiff'],
      ['IMG.HEIC', Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic'), Buffer.alloc(200)]), 'image/heic'],
    ];
    for (const [name, content, type] of cases) {
      const res = await upload(t, 'teachers-app', teacher, content, name, type);
      expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect(res.body.error.details).toEqual([{ field: 'file', message: expect.any(String) }]);
    }
    expect(await Attachment.count()).toBe(rows);
    expect(storedFiles().length).toBe(files);
    expect(leftInTemp()).toEqual([]);
  });

  it('refuses a decompression bomb from its header, a truncated image and one that does not decode as its type (400), and stays ready', async () => {
    const rows = await Attachment.count();
    const used = await usedBytes(a.schoolId);
    const photo = await cameraJpeg(800, 600, 1, { noise: true });
    const cases: Array<[string, Buffer, string]> = [
      ['bomb.png', pngBomb(10_000, 6_000), 'image/png'],
      ['bomb-huge.png', pngBomb(30_000, 30_000), 'image/png'],
      ['cut.jpg', photo.subarray(0, Math.floor(photo.length / 2)), 'image/jpeg'],
      ['fake.png', Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('not a png at all')]), 'image/png'],
      ['fake.gif', Buffer.from('GIF89a and then nothing of a GIF'), 'image/gif'],
      ['fake.webp', Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 '), Buffer.alloc(20)]), 'image/webp'],
    ];
    const started = Date.now();
    for (const [name, content, type] of cases) {
      const res = await upload(t, 'teachers-app', teacher, content, name, type);
      expectError(res, 400, 'BAD_REQUEST');
      expect(res.body.error.details).toEqual([{ field: 'file', message: expect.any(String) }]);
    }
    // 900 megapixels decoded would take seconds and gigabytes; read from the header it takes neither.
    expect(Date.now() - started).toBeLessThan(20_000);
    expect((await t.api.get('/readyz')).status).toBe(200);
    expect((await upload(t, 'teachers-app', teacher, await cameraJpeg(64, 48), 'fine.jpg')).status).toBe(201);
    expect(await Attachment.count()).toBe(rows + 1);
    expect(await usedBytes(a.schoolId)).toBeGreaterThan(used);
    expect(leftInTemp()).toEqual([]);
  });

  it('refuses an animated GIF or WebP whose frames together pass 50 megapixels, each frame within it (400 from the header), and stays ready', async () => {
    const rows = await Attachment.count();
    const files = storedFiles().length;
    const used = await usedBytes(a.schoolId);
    // 2000 x 2000 is 4 megapixels a frame: thirteen frames are 52 together, a few hundred bytes sent.
    const cases: Array<[string, Buffer, string]> = [
      ['bomb.gif', gifAnimationBomb(2000, 2000, 13), 'image/gif'],
      ['bomb.webp', await webpAnimationBomb(2000, 2000, 13), 'image/webp'],
    ];
    for (const [name, content, type] of cases) {
      expect(content.length).toBeLessThan(1024);
      const res = await upload(t, 'teachers-app', teacher, content, name, type);
      expectError(res, 400, 'BAD_REQUEST');
      expect(res.body.error.details).toEqual([{ field: 'file', message: 'declares more than 50,000,000 pixels' }]);
    }
    expect((await t.api.get('/readyz')).status).toBe(200);
    expect(await Attachment.count()).toBe(rows);
    expect(storedFiles().length).toBe(files);
    expect(await usedBytes(a.schoolId)).toBe(used);
    expect(leftInTemp()).toEqual([]);
    // The same shape within the bound is taken: the refusal is the frames' pixels together, nothing else.
    for (const [name, content, type] of [['small.gif', gifAnimationBomb(400, 300, 5), 'image/gif'], ['small.webp', await webpAnimationBomb(400, 300, 5), 'image/webp']] as const) {
      const res = await upload(t, 'teachers-app', teacher, content, name, type);
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ content_type: type, width: 400, height: 300 });
    }
  });

  it('refuses a file over 20 MiB with 413 whatever its content, and takes one of exactly 20 MiB', async () => {
    const rows = await Attachment.count();
    const files = storedFiles().length;
    const over = Buffer.concat([pdf(), Buffer.alloc(21 * MiB)]);
    expectError(await upload(t, 'teachers-app', teacher, over, 'big.pdf', 'application/pdf'), 413, 'PAYLOAD_TOO_LARGE');
    const html = Buffer.alloc(21 * MiB, '<p>');
    expectError(await upload(t, 'teachers-app', teacher, html, 'page.jpg', 'image/jpeg'), 413, 'PAYLOAD_TOO_LARGE');
    expect(await Attachment.count()).toBe(rows);
    expect(storedFiles().length).toBe(files);
    expect(leftInTemp()).toEqual([]);
    const exact = Buffer.concat([pdf(), Buffer.alloc(20 * MiB - pdf().length)]);
    const ok = await upload(t, 'teachers-app', teacher, exact, 'exact.pdf', 'application/pdf');
    expect(ok.status).toBe(201);
    expect(ok.body.data.size).toBe(20 * MiB);
  });

  it('refuses a body without a part named file, with two, an empty file, or not multipart: 400 naming file', async () => {
    const rows = await Attachment.count();
    const cases = [
      multipart([{ name: 'note', content: 'hello' }]),
      multipart([{ name: 'document', disposition: '; filename="a.pdf"', type: 'application/pdf', content: pdf() }]),
      multipart([
        { name: 'file', disposition: '; filename="a.pdf"', type: 'application/pdf', content: pdf() },
        { name: 'file', disposition: '; filename="b.pdf"', type: 'application/pdf', content: pdf() },
      ]),
      multipart([{ name: 'file', disposition: '; filename="empty.pdf"', type: 'application/pdf', content: Buffer.alloc(0) }]),
      { body: pdf(), type: 'application/pdf' },
      { body: Buffer.from(JSON.stringify({ file: 'x'.repeat(2 * MiB) })), type: 'application/json' },
      { body: Buffer.from('--x\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF-cut off'), type: 'multipart/form-data; boundary=x' },
      { body: Buffer.from('file=%25PDF'), type: 'application/x-www-form-urlencoded' },
    ];
    for (const m of cases) {
      const res = await sendRaw(teacher, m);
      expectError(res, 400, 'BAD_REQUEST');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual(['file']);
    }
    expect(await Attachment.count()).toBe(rows);
    expect(leftInTemp()).toEqual([]);
  });

  it('takes other parts beside the file and ignores them', async () => {
    const res = await sendRaw(teacher, multipart([
      { name: 'caption', content: 'Sports day' },
      { name: 'file', disposition: '; filename="day.pdf"', type: 'application/pdf', content: pdf() },
      { name: 'extra', disposition: '; filename="x.bin"', type: 'application/octet-stream', content: Buffer.alloc(100) },
    ]));
    expect(res.status).toBe(201);
    expect(res.body.data.name).toBe('day.pdf');
  });
});

describe('names', () => {
  const named = async (disposition: string, type = 'application/pdf') => {
    const res = await sendRaw(teacher, multipart([{ name: 'file', disposition, type, content: pdf() }]));
    expect(res.status).toBe(201);
    return res.body.data.name as string;
  };

  it('keeps the name without any path or control characters, read as UTF-8, filename* first, at most 255 characters', async () => {
    expect(await named('; filename="C:\\Users\\ravi\\Documents\\report card.pdf"')).toBe('report card.pdf');
    expect(await named('; filename="../../etc/passwd.pdf"')).toBe('passwd.pdf');
    expect(await named(`; filename*=UTF-8''fee%07%20%01circular%0D%0A.pdf`)).toBe('fee circular.pdf');
    // HTTP clients write a filename's other control characters raw.
    expect(await named('; filename="fee\u0007 \u0001circular\t\u007f.pdf"')).toBe('fee circular.pdf');
    expect(await named('; filename="परिपत्र २०२६.pdf"')).toBe('परिपत्र २०२६.pdf');
    // A browser sends a quote as %22 (and CR, LF as %0D, %0A, dropped with the other control characters).
    expect(await named('; filename="%22Annual Day%22%0D%0A photos.pdf"')).toBe('"Annual Day" photos.pdf');
    expect(await named(`; filename="fallback.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%E2%82%AC.pdf`)).toBe('résumé €.pdf');
    // filename* is decoded once, as RFC 8187 has it: a name holding "%22" or "%0A" keeps them.
    expect(await named(`; filename*=UTF-8''100%2522%20off.pdf`)).toBe('100%22 off.pdf');
    expect(await named(`; filename*=UTF-8''notes%250A.pdf; filename="notes.pdf"`)).toBe('notes%0A.pdf');
    expect(await named(`; filename="${'ए'.repeat(300)}.pdf"`)).toBe('ए'.repeat(255));
    expect(await named(`; filename*=UTF-8''%02%03%7F`)).toBe('file');
    // A part with no filename is a file only when sent as bytes.
    expect(await named('', 'application/octet-stream')).toBe('file');
  });
});

describe('who may upload', () => {
  it('takes uploads from any parent, any staff member and a school admin; refuses it_contact (403) and no token (401)', async () => {
    for (const [app, token] of [['parent-app', parentToken], ['teachers-app', teacher], ['web-app', a.adminToken]] as const) {
      expect((await upload(t, app, token, pdf(), 'a.pdf', 'application/pdf')).status).toBe(201);
    }
    const it = await adminUser(t, a.schoolId, 'it_contact');
    expectError(await upload(t, 'web-app', it.token, pdf(), 'a.pdf', 'application/pdf'), 403, 'FORBIDDEN');
    expectError(await t.api.post('/teachers-app/attachments').attach('file', pdf(), 'a.pdf'), 401, 'UNAUTHORIZED');
    // A token of one app at another app's door.
    expectError(await upload(t, 'teachers-app', parentToken, pdf(), 'a.pdf', 'application/pdf'), 403, 'FORBIDDEN');
  });

  it('records attachment.create with its uploader through the api door', async () => {
    const res = await upload(t, 'parent-app', parentToken, pdf(), 'note.pdf', 'application/pdf');
    const event = (await AuditEvent.findOne({ where: { action: 'attachment.create', entity_id: String(res.body.data.id) } }))!.get({ plain: true });
    expect(event).toMatchObject({ school_id: a.schoolId, actor_type: 'parent', actor_id: String(parentId), door: 'api', entity_type: 'attachment' });
    expect(event!.changes).toMatchObject({ name: [null, 'note.pdf'], content_type: [null, 'application/pdf'] });
    const row = await Attachment.findByPk(res.body.data.id, { raw: true });
    expect(row).toMatchObject({ school_id: a.schoolId, uploader_type: 'parent', uploader_id: parentId, entity_type: null, entity_id: null, deleted_at: null });
  });
});

describe('storage limits', () => {
  it('shows the school\'s limit and usage, and lets the super_admin (only) set the limit; refuses a bad one naming it', async () => {
    const res = await t.api.get('/web-app/school').set(bearer(a.adminToken));
    expect(res.body.data).toMatchObject({ storage_limit_mb: 5120 });
    expect(res.body.data.storage_used_mb).toBe(Math.ceil((await usedBytes(a.schoolId)) * 100 / MiB) / 100);
    expect(res.body.data.storage_used_mb).toBeGreaterThan(0);
    for (const bad of [0, -5, 1.5, '100', null]) {
      const r = await t.api.put('/web-app/school').set(bearer(a.adminToken)).send({ storage_limit_mb: bad });
      expectError(r, 400, 'BAD_REQUEST');
      expect(r.body.error.details.map((d: { field: string }) => d.field)).toEqual(['storage_limit_mb']);
    }
    const admin = await adminUser(t, a.schoolId, 'admin');
    expectError(await t.api.put('/web-app/school').set(bearer(admin.token)).send({ storage_limit_mb: 10 }), 403, 'FORBIDDEN');
    const set = await t.api.put('/web-app/school').set(bearer(b.adminToken)).send({ storage_limit_mb: 7 });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ id: b.schoolId, storage_limit_mb: 7, storage_used_mb: 0 });
    const event = await AuditEvent.findOne({ where: { school_id: b.schoolId, action: 'school.update' }, order: [['id', 'DESC']] });
    expect(event!.changes).toEqual({ storage_limit_mb: [5120, 7] });
  });

  it('refuses an upload past the school\'s limit (413 naming it), under concurrent uploads too, and deletes nothing when lowered', async () => {
    const c = await school(t);
    const s = await staffMember(c.schoolId);
    const token = await staffLogin(t, s.phone, s.pin, c.schoolId);
    expect((await t.api.put('/web-app/school').set(bearer(c.adminToken)).send({ storage_limit_mb: 1 })).status).toBe(200);
    const file = Buffer.concat([pdf(), Buffer.alloc(300 * 1024 - pdf().length)]);
    // 3 x 300 KiB fit in 1 MiB, a fourth does not: of six at once exactly three get in.
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => upload(t, 'teachers-app', token, file, `part-${i}.pdf`, 'application/pdf')));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 201, 201, 413, 413, 413]);
    const refused = answers.find((r) => r.status === 413)!;
    expect(refused.body.message).toMatch(/storage limit of 1 MiB/);
    expect(await usedBytes(c.schoolId)).toBe(3 * 300 * 1024);
    expect(await Attachment.count({ where: { school_id: c.schoolId } })).toBe(3);
    expect(storedFiles().filter((f) => f.includes(`${path.sep}${c.schoolId}${path.sep}`))).toHaveLength(3);
    // Lowered below the usage: everything stays, nothing new comes in.
    const env = cliEnv(t);
    const run = await runCli(env, ['tenant', 'update', '--id', c.schoolId, '--storage-limit-mb', '1', '--json']);
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ storage_limit_mb: 1, storage_used_mb: 0.88 });
    expect((await runCli(env, ['tenant', 'update', '--id', c.schoolId, '--storage-limit-mb', '0'])).code).toBe(2);
    expect((await runCli(env, ['tenant', 'update', '--id', c.schoolId, '--storage-limit-mb', 'lots'])).code).toBe(2);
    expectError(await upload(t, 'teachers-app', token, file, 'more.pdf', 'application/pdf'), 413, 'PAYLOAD_TOO_LARGE');
    expect(await Attachment.count({ where: { school_id: c.schoolId } })).toBe(3);
    expect((await runCli(env, ['tenant', 'update', '--id', c.schoolId, '--storage-limit-mb', '2'])).code).toBe(0);
    expect((await upload(t, 'teachers-app', token, file, 'more.pdf', 'application/pdf')).status).toBe(201);
  });

  it('holds one parent\'s uploads not yet attached to 100 MiB; attaching one makes room', async () => {
    const p = await parent(t.ctx, a.schoolId);
    const child = (await student(a.schoolId, p.id)).id;
    const token = await parentLogin(t, p.phone, p.pin, a.schoolId);
    const twenty = Buffer.concat([pdf(), Buffer.alloc(20 * MiB - pdf().length)]);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await upload(t, 'parent-app', token, twenty, `scan-${i}.pdf`, 'application/pdf');
      expect(res.status).toBe(201);
      ids.push(res.body.data.id);
    }
    const refused = await upload(t, 'parent-app', token, pdf(), 'one-more.pdf', 'application/pdf');
    expectError(refused, 413, 'PAYLOAD_TOO_LARGE');
    expect(refused.body.message).toMatch(/100 MiB/);
    // Another parent of the school is not held by this one's uploads.
    expect((await upload(t, 'parent-app', parentToken, pdf(), 'mine.pdf', 'application/pdf')).status).toBe(201);
    const sent = await t.api.post('/parent-app/write-to').set(bearer(token)).send({ student_id: child, type: 'query', message: 'Scans attached', attachment_ids: [ids[0]] });
    expect(sent.status).toBe(201);
    expect((await upload(t, 'parent-app', token, pdf(), 'one-more.pdf', 'application/pdf')).status).toBe(201);
  });
});
