import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, openSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Attachment } from '../../src/models/index.js';
import { signedFileUrl } from '../../src/services/attachments/urls.js';
import { startTestApp, TEST_JWT_SECRET, type TestApp } from '../helpers/app.js';
import { bearer, expectError, school, staffLogin, staffMember, type SchoolFixture } from '../helpers/fixtures.js';
import { cameraJpeg, fetchFile, pdf, upload } from '../helpers/images.js';

/** Signed file URLs (CONTRACT.md section 25): the signature first, then the file, with the headers a browser relies on. */
let t: TestApp;
let a: SchoolFixture;
let teacher: string;
let photo: { id: number; url: string; thumbnail_url: string; size: number };
let document: { id: number; url: string; size: number };
const documentBytes = pdf('Fee circular for term two, with a long enough body to ask ranges of');

beforeAll(async () => {
  // A public budget a handful of requests would use up: file URLs must not be counted against it.
  t = await startTestApp({ PUBLIC_APP_URL: 'https://school.example.org/', RATE_LIMIT_PUBLIC: '3' });
  a = await school(t);
  const s = await staffMember(a.schoolId);
  teacher = await staffLogin(t, s.phone, s.pin, a.schoolId);
  photo = (await upload(t, 'teachers-app', teacher, await cameraJpeg(640, 480), 'class "trip" 100%.jpg')).body.data;
  document = (await upload(t, 'teachers-app', teacher, documentBytes, 'परिपत्र २०२६.pdf', 'application/pdf')).body.data;
});
afterAll(async () => t.close());

const query = (url: string) => new URL(url).searchParams;
const withQuery = (url: string, change: (q: URLSearchParams) => void) => {
  const u = new URL(url);
  change(u.searchParams);
  return u.toString();
};

describe('URLs', () => {
  it('are signed as the contract defines them, so any instance sharing JWT_SECRET accepts them', () => {
    const before = Math.floor(Date.now() / 1000);
    const u = new URL(photo.url);
    expect(`${u.origin}${u.pathname}`).toBe(`https://school.example.org/files/${photo.id}`);
    const exp = Number(u.searchParams.get('exp'));
    expect(exp - before).toBeGreaterThanOrEqual(3598);
    expect(exp - before).toBeLessThanOrEqual(3600);
    const key = createHmac('sha256', Buffer.from(TEST_JWT_SECRET, 'utf8')).update('file-urls').digest();
    expect(u.searchParams.get('sig')).toBe(createHmac('sha256', key).update(`${photo.id}:file:${exp}`).digest('hex'));
    const thumb = new URL(photo.thumbnail_url);
    expect(thumb.pathname).toBe(`/files/${photo.id}/thumbnail`);
    expect(thumb.searchParams.get('sig')).toBe(createHmac('sha256', key).update(`${photo.id}:thumbnail:${thumb.searchParams.get('exp')}`).digest('hex'));
  });
});

describe('GET and HEAD /files', () => {
  it('answers the bytes with nosniff, the disposition and name, a private cache time, a strong ETag and ranges', async () => {
    const res = await fetchFile(t, photo.url);
    expect(res.status).toBe(200);
    expect(res.headers).toMatchObject({
      'content-type': 'image/jpeg', 'content-length': String(photo.size), 'x-content-type-options': 'nosniff', 'accept-ranges': 'bytes',
      'content-disposition': `inline; filename="class _trip_ 100_.jpg"; filename*=UTF-8''class%20%22trip%22%20100%25.jpg`,
    });
    expect(res.body.length).toBe(photo.size);
    const maxAge = Number(/^private, max-age=(\d+)$/.exec(res.headers['cache-control']!)?.[1]);
    expect(maxAge).toBeGreaterThan(3500);
    expect(maxAge).toBeLessThanOrEqual(3600);
    expect(res.headers.etag).toMatch(/^"[0-9a-f]{64}"$/);

    const doc = await fetchFile(t, document.url);
    expect(doc.body.equals(documentBytes)).toBe(true);
    expect(doc.headers['content-type']).toBe('application/pdf');
    expect(doc.headers['content-disposition']).toBe(
      `attachment; filename="_______ ____.pdf"; filename*=UTF-8''${encodeURIComponent('परिपत्र २०२६.pdf')}`,
    );
  });

  it('gives every URL of a file the same ETag, and answers 304 to it', async () => {
    const first = await fetchFile(t, photo.url);
    const later = signedFileUrl(t.ctx.config, photo.id, 'file', Date.now() + 5000);
    expect(later).not.toBe(photo.url);
    const second = await fetchFile(t, later);
    expect(second.headers.etag).toBe(first.headers.etag);
    const cached = await fetchFile(t, later, { 'If-None-Match': first.headers.etag! });
    expect(cached.status).toBe(304);
    expect(cached.body.length).toBe(0);
    expect(cached.headers.etag).toBe(first.headers.etag);
    expect((await fetchFile(t, photo.thumbnail_url)).headers.etag).not.toBe(first.headers.etag);
    expect((await fetchFile(t, later, { 'If-None-Match': '"something-else"' })).status).toBe(200);
  });

  it('answers one range with 206, the whole file for several, and 416 past the end', async () => {
    const size = documentBytes.length;
    const cases: Array<[string, number, number]> = [['bytes=0-9', 0, 9], ['bytes=10-', 10, size - 1], ['bytes=-5', size - 5, size - 1], [`bytes=5-${size + 100}`, 5, size - 1]];
    for (const [range, start, end] of cases) {
      const res = await fetchFile(t, document.url, { Range: range });
      expect({ range, status: res.status, contentRange: res.headers['content-range'], length: res.headers['content-length'] }).toEqual({
        range, status: 206, contentRange: `bytes ${start}-${end}/${size}`, length: String(end - start + 1),
      });
      expect(res.body.equals(documentBytes.subarray(start, end + 1))).toBe(true);
    }
    const several = await fetchFile(t, document.url, { Range: 'bytes=0-1,5-6' });
    expect(several.status).toBe(200);
    expect(several.body.equals(documentBytes)).toBe(true);
    // A last byte before the first is no range at all (RFC 9110 14.2): the whole file.
    const backwards = await fetchFile(t, document.url, { Range: 'bytes=5-2' });
    expect(backwards.status).toBe(200);
    expect(backwards.body.equals(documentBytes)).toBe(true);
    for (const range of [`bytes=${size}-`, `bytes=${size + 10}-${size + 20}`]) {
      const beyond = await fetchFile(t, document.url, { Range: range });
      expect({ status: beyond.status, contentRange: beyond.headers['content-range'] }).toEqual({ status: 416, contentRange: `bytes */${size}` });
      expect(beyond.json).toMatchObject({ success: false, error: { code: 'RANGE_NOT_SATISFIABLE' } });
    }
  });

  it('answers HEAD with the headers alone', async () => {
    const u = new URL(document.url);
    const res = await t.api.head(u.pathname + u.search);
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe(String(document.size));
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers.etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(res.text ?? '').toBe('');
  });

  it('is not counted against the public rate limit', async () => {
    for (let i = 0; i < 12; i++) expect((await fetchFile(t, photo.thumbnail_url)).status).toBe(200);
    const logins = [];
    for (let i = 0; i < 5; i++) logins.push((await t.api.post('/web-app/admission-form').send({})).status);
    expect(logins).toContain(429);
    expect((await fetchFile(t, photo.url)).status).toBe(200);
  });
});

describe('refusals', () => {
  it('refuses a missing, changed, borrowed or expired signature with 403, for any id, before reading anything', async () => {
    const bad = [
      withQuery(photo.url, (q) => q.delete('sig')),
      withQuery(photo.url, (q) => q.delete('exp')),
      withQuery(photo.url, (q) => q.set('sig', q.get('sig')!.replace(/^./, (c) => (c === 'a' ? 'b' : 'a')))),
      withQuery(photo.url, (q) => q.set('exp', String(Number(q.get('exp')) + 1))),
      withQuery(photo.url, (q) => q.set('sig', q.get('sig')!.toUpperCase())),
      // Another file's query, and the file's query on its thumbnail.
      `${photo.url.split('?')[0]}?${query(document.url).toString()}`,
      `${photo.thumbnail_url.split('?')[0]}?${query(photo.url).toString()}`,
      signedFileUrl(t.ctx.config, photo.id, 'file', Date.now() - 3601_000),
      `https://school.example.org/files/999999?${query(photo.url).toString()}`,
      `https://school.example.org/files/not-a-number?${query(photo.url).toString()}`,
      // An id that cannot even be percent-decoded is no URL we gave out either.
      `https://school.example.org/files/%E0%A4%A?${query(photo.url).toString()}`,
      `https://school.example.org/files/%E0%A4%A/thumbnail?${query(photo.thumbnail_url).toString()}`,
    ];
    for (const url of bad) {
      const res = await fetchFile(t, url);
      expect({ url, status: res.status, code: res.json?.error?.code }).toEqual({ url, status: 403, code: 'FORBIDDEN' });
    }
  });

  it('answers 404 for a well-signed URL of an unknown or deleted attachment, or of a thumbnail a PDF does not have', async () => {
    expect((await fetchFile(t, signedFileUrl(t.ctx.config, 999_999, 'file'))).json).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect((await fetchFile(t, signedFileUrl(t.ctx.config, document.id, 'thumbnail'))).status).toBe(404);
    const gone = (await upload(t, 'teachers-app', teacher, pdf('to delete'), 'gone.pdf', 'application/pdf')).body.data;
    const item = await t.api.post('/teachers-app/activities').set(bearer(teacher)).send({ school_id: a.schoolId, title: 'Trip', attachment_ids: [gone.id] });
    expect(item.status).toBe(201);
    expect((await fetchFile(t, gone.url)).status).toBe(200);
    expect((await t.api.delete(`/teachers-app/activities/${item.body.data.id}`).set(bearer(teacher))).status).toBe(200);
    const after = await fetchFile(t, gone.url);
    expectError({ status: after.status, body: after.json }, 404, 'NOT_FOUND');
  });

  it('answers 404 for a file removed from the store by hand, and keeps serving the others', async () => {
    const lost = (await upload(t, 'teachers-app', teacher, pdf('lost'), 'lost.pdf', 'application/pdf')).body.data;
    const row = await Attachment.findByPk(lost.id, { raw: true });
    const file = path.join(t.ctx.config.dataDir, 'files', ...row!.storage_key.split('/'));
    expect(existsSync(file)).toBe(true);
    rmSync(file);
    expect((await fetchFile(t, lost.url)).status).toBe(404);
    // A HEAD answers as the GET does, not with the headers of bytes there are none of.
    const u = new URL(lost.url);
    const head = await t.api.head(u.pathname + u.search);
    expect({ status: head.status, etag: head.headers.etag }).toEqual({ status: 404, etag: undefined });
    expect((await fetchFile(t, document.url)).status).toBe(200);
  });
});

describe('a local disk that does not answer', () => {
  let slow: TestApp;
  let teacherOfSlow: string;
  beforeAll(async () => {
    slow = await startTestApp({}, { storageTimeoutMs: 1000 });
    const b = await school(slow);
    const s = await staffMember(b.schoolId);
    teacherOfSlow = await staffLogin(slow, s.phone, s.pin, b.schoolId);
  });
  afterAll(async () => slow.close());

  it('answers that file request 503 with Retry-After in the store time, and keeps serving the others', async () => {
    const hung = (await upload(slow, 'teachers-app', teacherOfSlow, pdf('on a hung mount'), 'hung.pdf', 'application/pdf')).body.data;
    const fine = (await upload(slow, 'teachers-app', teacherOfSlow, pdf('on a good disk'), 'fine.pdf', 'application/pdf')).body.data;
    const row = await Attachment.findByPk(hung.id, { raw: true });
    const file = path.join(slow.ctx.config.dataDir, 'files', ...row!.storage_key.split('/'));
    // A FIFO with no writer: opening it for reading waits, as a read from a hung network mount does.
    rmSync(file);
    execFileSync('mkfifo', [file]);
    try {
      const started = Date.now();
      const res = await fetchFile(slow, hung.url);
      expect({ status: res.status, code: res.json?.error?.code, retry: Number(res.headers['retry-after']) > 0 }).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE', retry: true });
      expect(Date.now() - started).toBeLessThan(5000);
      expect((await fetchFile(slow, fine.url)).status).toBe(200);
    } finally {
      // Releases the worker thread still waiting on the open.
      try {
        closeSync(openSync(file, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        // no reader waits any more
      }
    }
  });
});
