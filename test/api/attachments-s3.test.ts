import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import supertest from 'supertest';
import { createApp } from '../../src/app.js';
import { closeContext, createContext } from '../../src/bootstrap.js';
import type { AppContext } from '../../src/context.js';
import { runJob, maintenanceJobs } from '../../src/jobs/jobs.js';
import { Attachment, School } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { bearer, expectError, school, staffLogin, staffMember, type SchoolFixture } from '../helpers/fixtures.js';
import { cameraJpeg, fetchFile, pdf, upload } from '../helpers/images.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

/**
 * The S3 driver against an S3-compatible server started here (s3rver), reached through a TCP
 * proxy that can make it stop answering; and two instances of the service sharing its files.
 */
const BUCKET = 'school-files';
let store: S3rver;
let proxy: TcpProxy;
let t: TestApp;
let second: { ctx: AppContext; api: ReturnType<typeof supertest> };
let a: SchoolFixture;
let teacher: string;
let s3: S3Client;

beforeAll(async () => {
  store = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: mkdtempSync(path.join(tmpdir(), 'sp-s3rver-')), configureBuckets: [{ name: BUCKET, configs: [] }] });
  const { port } = await store.run();
  proxy = await startTcpProxy({ host: '127.0.0.1', port });
  const env = {
    STORAGE_URL: `s3://${BUCKET}/platform`, S3_ENDPOINT: `http://127.0.0.1:${proxy.port}`, S3_FORCE_PATH_STYLE: 'true',
    AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER',
  };
  // A silent store is given up on after 1.5 s here instead of 10 s.
  t = await startTestApp(env, { storageTimeoutMs: 1500 });
  // A second instance on the same database and store, with the same JWT_SECRET.
  const ctx = await createContext({ ...t.ctx.config });
  second = { ctx, api: supertest(createApp(ctx).app) };
  a = await school(t);
  const s = await staffMember(a.schoolId);
  teacher = await staffLogin(t, s.phone, s.pin, a.schoolId);
  s3 = new S3Client({ region: 'us-east-1', endpoint: `http://127.0.0.1:${port}`, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
});
afterAll(async () => {
  s3.destroy();
  await closeContext(second.ctx);
  await t.close();
  await proxy.close();
  await store.close();
});

const objects = async () => ((await s3.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? []).map((o) => o.Key!).sort();
const keysOf = async (id: number) => {
  const row = await Attachment.findByPk(id, { raw: true });
  return [`platform/${row!.storage_key}`, ...(row!.thumbnail_size === null ? [] : [`platform/${row!.storage_key}.thumb`])];
};
const expiryJob = () => runJob(t.ctx, maintenanceJobs.find((j) => j.name === 'attachment_expiry')!);

describe('an S3-compatible store', () => {
  it('keeps uploads as private objects under the prefix, served through /files by every instance, ranges included', async () => {
    const photo = await upload(t, 'teachers-app', teacher, await cameraJpeg(800, 600), 'bus.jpg');
    expect(photo.status).toBe(201);
    const keys = await keysOf(photo.body.data.id);
    expect(await objects()).toEqual(expect.arrayContaining(keys));
    expect(keys).toHaveLength(2);
    expect(existsSync(path.join(t.ctx.config.dataDir, 'files'))).toBe(false);
    const here = await fetchFile(t, photo.body.data.url);
    const there = await fetchFile(second, photo.body.data.url);
    expect({ here: here.status, there: there.status }).toEqual({ here: 200, there: 200 });
    expect(there.body.equals(here.body)).toBe(true);
    expect(there.headers.etag).toBe(here.headers.etag);
    const part = await fetchFile(second, photo.body.data.url, { Range: 'bytes=2-11' });
    expect({ status: part.status, range: part.headers['content-range'] }).toEqual({ status: 206, range: `bytes 2-11/${photo.body.data.size}` });
    expect(part.body.equals(here.body.subarray(2, 12))).toBe(true);
    expect((await fetchFile(second, photo.body.data.thumbnail_url)).status).toBe(200);
  });

  it('deletes through one instance what then answers 404 on every other, and removes its objects', async () => {
    const file = (await upload(t, 'teachers-app', teacher, pdf('trip plan'), 'trip.pdf', 'application/pdf')).body.data;
    const keys = await keysOf(file.id);
    const item = await second.api.post('/teachers-app/activities').set(bearer(teacher)).send({ school_id: a.schoolId, title: 'Trip', attachment_ids: [file.id] });
    expect(item.status).toBe(201);
    expect((await second.api.delete(`/teachers-app/activities/${item.body.data.id}`).set(bearer(teacher))).status).toBe(200);
    expect((await fetchFile(t, file.url)).status).toBe(404);
    expect((await fetchFile(second, file.url)).status).toBe(404);
    for (let i = 0; i < 50 && (await objects()).some((k) => keys.includes(k)); i++) await new Promise((r) => setTimeout(r, 100));
    expect((await objects()).filter((k) => keys.includes(k))).toEqual([]);
  });

  it('reports its driver and health in the diagnostics', async () => {
    const res = await t.api.get('/web-app/diagnostics/health').set(bearer(a.adminToken));
    expect(res.body.data.storage).toEqual({ driver: 's3', status: 'ok', latency_ms: expect.any(Number) });
  });
});

describe('a store that does not answer', () => {
  it('fails that upload and that download with 503 and Retry-After, leaves nothing behind, and the rest of the API answers', async () => {
    const kept = (await upload(t, 'teachers-app', teacher, pdf('kept'), 'kept.pdf', 'application/pdf')).body.data;
    const before = { objects: await objects(), used: Number((await School.findByPk(a.schoolId, { raw: true }))!.storage_used_bytes), live: await Attachment.count({ where: { deleted_at: null } }) };
    proxy.down('silent');
    try {
      const started = Date.now();
      const refused = await upload(t, 'teachers-app', teacher, await cameraJpeg(300, 200), 'lost.jpg');
      expectError(refused, 503, 'SERVICE_UNAVAILABLE');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(Date.now() - started).toBeLessThan(10_000);
      const download = await fetchFile(t, kept.url);
      expect({ status: download.status, code: download.json?.error?.code, retry: Number(download.headers['retry-after']) > 0 }).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE', retry: true });
      // Everything that does not touch the store goes on.
      expect((await t.api.get('/readyz')).status).toBe(200);
      expect((await t.api.get(`/teachers-app/activities?school_id=${a.schoolId}`).set(bearer(teacher))).status).toBe(200);
      const health = await t.api.get('/web-app/diagnostics/health').set(bearer(a.adminToken));
      expect({ status: health.body.data.status, storage: health.body.data.storage }).toEqual({ status: 'degraded', storage: { driver: 's3', status: 'degraded', latency_ms: null } });
      expect(Number((await School.findByPk(a.schoolId, { raw: true }))!.storage_used_bytes)).toBe(before.used);
      expect(await Attachment.count({ where: { deleted_at: null } })).toBe(before.live);
      expect(readdirSync(path.join(t.ctx.config.dataDir, 'tmp'))).toEqual([]);
    } finally {
      proxy.up();
    }
    expect((await fetchFile(t, kept.url)).status).toBe(200);
    expect((await upload(t, 'teachers-app', teacher, pdf('again'), 'again.pdf', 'application/pdf')).status).toBe(201);
    // The failed upload's row waits as a tombstone; the maintenance job clears it and anything it put in the store.
    const tombstones = await Attachment.findAll({ where: { school_id: a.schoolId }, raw: true }).then((rows) => rows.filter((r) => r.deleted_at !== null));
    expect(tombstones.length).toBeGreaterThan(0);
    await Attachment.update({ deleted_at: new Date(Date.now() - 3600_000) }, { where: { id: tombstones.map((r) => r.id) }, hooks: false });
    expect((await expiryJob()).status).toBe('ok');
    expect(await Attachment.count({ where: { id: tombstones.map((r) => r.id) } })).toBe(0);
    const live = await Attachment.findAll({ where: { school_id: a.schoolId }, raw: true });
    const liveKeys = (await Promise.all(live.map((r) => keysOf(r.id)))).flat().sort();
    expect(await objects()).toEqual(liveKeys);
  });

  it('retries in the maintenance job the removal of a deleted item\'s files that the store missed', async () => {
    const file = (await upload(t, 'teachers-app', teacher, pdf('notice'), 'notice.pdf', 'application/pdf')).body.data;
    const keys = await keysOf(file.id);
    const notice = await t.api.post('/web-app/noticeboard').set(bearer(a.adminToken)).send({ notice_title: 'Closed', attachment_ids: [file.id] });
    proxy.down('silent');
    try {
      expect((await t.api.delete(`/web-app/noticeboard/${notice.body.data.id}`).set(bearer(a.adminToken))).status).toBe(200);
      expect((await fetchFile(t, file.url)).status).toBe(404);
      await new Promise((r) => setTimeout(r, 2000));
    } finally {
      proxy.up();
    }
    expect((await objects()).filter((k) => keys.includes(k))).toEqual(keys);
    await Attachment.update({ deleted_at: new Date(Date.now() - 3600_000) }, { where: { id: file.id }, hooks: false });
    expect((await expiryJob()).status).toBe('ok');
    expect((await objects()).filter((k) => keys.includes(k))).toEqual([]);
    expect(await Attachment.count({ where: { id: file.id } })).toBe(0);
  });
});
