import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { bearer, expectError, school, staffLogin, staffMember, type SchoolFixture } from '../helpers/fixtures.js';
import { pdf } from '../helpers/images.js';

/**
 * An S3 store that answers as AWS does when its credentials may write and read objects but not list
 * the bucket: a missing key is 403 AccessDenied, not 404. A policy that refuses writes is a 403 too.
 */
let server: Server;
let t: TestApp;
let a: SchoolFixture;
let teacher: string;
const stored = new Map<string, Buffer>();
let refuseWrites = false;

const denied = '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>';

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const key = req.url!.split('?')[0]!;
      if (req.method === 'PUT' && refuseWrites) {
        res.writeHead(403, { 'Content-Type': 'application/xml' }).end(denied);
      } else if (req.method === 'PUT') {
        stored.set(key, Buffer.concat(chunks));
        res.writeHead(200, { ETag: '"x"' }).end();
      } else if (req.method === 'GET' && stored.has(key)) {
        res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(stored.get(key)!.length) }).end(stored.get(key));
      } else if (req.method === 'GET') {
        res.writeHead(403, { 'Content-Type': 'application/xml' }).end(denied);
      } else if (req.method === 'DELETE') {
        stored.delete(key);
        res.writeHead(204).end();
      } else res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  t = await startTestApp({
    STORAGE_URL: 's3://school-files/p', S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_FORCE_PATH_STYLE: 'true', AWS_ACCESS_KEY_ID: 'K', AWS_SECRET_ACCESS_KEY: 'S',
  });
  a = await school(t);
  const s = await staffMember(a.schoolId);
  teacher = await staffLogin(t, s.phone, s.pin, a.schoolId);
});
afterAll(async () => {
  await t.close();
  await new Promise((r) => server.close(r));
});

const upload = () => t.api.post('/teachers-app/attachments').set(bearer(teacher)).attach('file', pdf(), { filename: 'a.pdf', contentType: 'application/pdf' });

describe('an S3 store whose credentials may not list the bucket', () => {
  it('answers a file gone from the store with 404, as the local store does', async () => {
    const up = await upload();
    expect(up.status).toBe(201);
    const url = new URL(up.body.data.url);
    expect((await t.api.get(url.pathname + url.search)).status).toBe(200);
    stored.clear();
    expectError(await t.api.get(url.pathname + url.search), 404, 'NOT_FOUND');
  });

  it('answers an upload the store refuses with 503 and Retry-After, not a failure of ours', async () => {
    refuseWrites = true;
    try {
      const res = await upload();
      expectError(res, 503, 'SERVICE_UNAVAILABLE');
      expect(res.headers['retry-after']).toBe('10');
    } finally {
      refuseWrites = false;
    }
    expect((await upload()).status).toBe(201);
  });
});
