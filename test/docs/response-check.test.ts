import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ResponseViolation, type Exchange } from '../../clients/typescript/response-check.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { ADMIN_PASSWORD, bearer, school, type SchoolFixture } from '../helpers/fixtures.js';
import { checkedSupertest, fetchChecked, responseCheck } from '../helpers/openapi-check.js';

/**
 * The check every test's HTTP answers go through (test/helpers/openapi-check.ts): it must refuse an
 * answer that leaves the generated document, whichever way the test called the API, and read the
 * document's schemas as JSON Schema 2020-12.
 */
let t: TestApp;
let a: SchoolFixture;

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
});
afterAll(async () => t.close());

const json = (value: unknown) => JSON.stringify(value);
const violations = (exchange: Partial<Exchange>) =>
  responseCheck().violations({ method: 'GET', url: '/healthz', status: 200, contentType: 'application/json; charset=utf-8', ...exchange });

describe('the response check', () => {
  it('passes what the service really answers, and refuses a body, status or media type the document does not give', async () => {
    const res = await t.api.get('/web-app/staff').query({ school_id: a.schoolId }).set(bearer(a.adminToken));
    expect(res.status).toBe(200);
    const real = { method: 'GET', url: '/web-app/staff?school_id=x', status: 200, contentType: res.headers['content-type'], body: res.text };
    expect(violations(real)).toEqual([]);

    expect(violations({ ...real, body: json({ success: true, data: { staff: [] } }) }).join('\n')).toMatch(/must/);
    expect(violations({ ...real, body: json({ success: 'yes', data: res.body.data }) }).join('\n')).toMatch(/success/);
    expect(violations({ ...real, status: 418 })).toEqual([expect.stringContaining('status 418 is not among the responses of GET /web-app/staff')]);
    expect(violations({ ...real, contentType: 'text/html; charset=utf-8' })).toEqual([expect.stringContaining('Content-Type text/html; charset=utf-8 is not among')]);
    expect(violations({ ...real, body: '<html>' })).toEqual([expect.stringContaining('not JSON')]);
  });

  it('checks an error answer against the contract error body its status carries', () => {
    const error = (code: string) => json({ success: false, message: 'No such staff member', error: { code } });
    expect(violations({ url: '/web-app/staff/1', status: 404, body: error('NOT_FOUND') })).toEqual([]);
    expect(violations({ url: '/web-app/staff/1', status: 404, body: error('CONFLICT') }).join('\n')).toMatch(/\/error\/code must be equal to constant/);
    expect(violations({ url: '/web-app/staff/1', status: 404, body: json({ message: 'Not found' }) }).join('\n')).toMatch(/must have required property 'success'/);
  });

  it('reads the schemas as JSON Schema 2020-12: prefixItems with items false, and type arrays with null', () => {
    const event = {
      id: 1, school_id: 'greenwood', at: '2026-11-22T09:30:00.000Z', actor_type: 'admin', actor_id: '1', actor_name: 'Head', door: 'api',
      action: 'staff.update', entity_type: 'staff', entity_id: '3', changes: { name: ['Anita', 'Anita Desai'] }, ip: null, request_id: null,
    };
    const page = (events: unknown[]) => json({ success: true, data: { events, pagination: { total: events.length, page: 1, limit: 20, pages: 1 } } });
    const audit = { url: '/web-app/audit-log', status: 200 };
    expect(violations({ ...audit, body: page([event]) })).toEqual([]);
    expect(violations({ ...audit, body: page([{ ...event, changes: { name: ['Anita', 'Anita Desai', 'extra'] } }]) }).join('\n')).toMatch(/changes\/name/);
    expect(violations({ ...audit, body: page([{ ...event, ip: 7 }]) }).join('\n')).toMatch(/\/ip must be string,null/);
  });

  it('checks a non-JSON answer by status and media type, and HEAD as GET without a body', () => {
    expect(violations({ url: '/metrics', contentType: 'text/plain; version=0.0.4; charset=utf-8', body: '# HELP x\n' })).toEqual([]);
    expect(violations({ url: '/metrics', contentType: 'text/html', body: '<p>' })).toEqual([expect.stringContaining('Content-Type text/html')]);
    expect(violations({ method: 'HEAD', url: '/healthz', body: '' })).toEqual([]);
  });

  it('leaves out unknown routes answering 404, the console, the reference page, the document and CORS preflights, and only those', () => {
    expect(violations({ url: '/no/such/route', status: 404, body: json({ success: false, message: 'No route', error: { code: 'NOT_FOUND' } }) })).toEqual([]);
    expect(violations({ url: '/no/such/route', status: 200, body: '{}' })).toEqual([expect.stringContaining('the document has no GET /no/such/route')]);
    expect(violations({ method: 'PATCH', url: '/web-app/grades', status: 200, body: '{}' })).toEqual([expect.stringContaining('no PATCH /web-app/grades')]);
    for (const url of ['/admin', '/admin/api/resources/students/actions/list', '/docs/', '/openapi.json']) expect(violations({ url, status: 200, body: 'anything' })).toEqual([]);
    expect(violations({ method: 'OPTIONS', url: '/web-app/grades', status: 204 })).toEqual([]);
    expect(violations({ url: '/administrators', status: 200, body: '{}' })).toEqual([expect.stringContaining('no GET /administrators')]);
  });

  it('fails the call itself, through supertest and through fetch, when an answer leaves the document', async () => {
    const rogue = express();
    rogue.get('/healthz', (_req, res) => {
      res.json({ success: true, status: 'fine' });
    });
    await expect(checkedSupertest(rogue).get('/healthz')).rejects.toThrow(ResponseViolation);
    await expect(checkedSupertest(rogue).get('/healthz').expect(200)).rejects.toThrow(/GET \/healthz answered 200 application\/json; charset=utf-8, which the OpenAPI document does not allow/);

    const server: Server = rogue.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/healthz`;
      await expect(fetchChecked(url)).rejects.toThrow(/\/status must be equal to constant/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('answers a dry-run import 200 and an applied one 201, both as the document says', async () => {
    const upload = (dryRun: boolean) =>
      t.api.post('/web-app/imports').query({ kind: 'students', dry_run: String(dryRun) }).set(bearer(a.adminToken)).set('Content-Type', 'text/csv')
        .send('roll_no,student_full_name,grade\nRC-1,Check Child,5\n');
    expect((await upload(true)).status).toBe(200);
    expect((await upload(false)).status).toBe(201);
    const signin = await t.api.post('/web-app/signin').send({ email: a.adminEmail, password: ADMIN_PASSWORD });
    expect(signin.status).toBe(200);
  });
});
