import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSchoolClient, type ApiError, type SchoolClient } from '../../clients/typescript/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { fetchChecked } from '../helpers/openapi-check.js';

/**
 * The generated TypeScript client against a real server: the calls below are type-checked by
 * `npm run typecheck` against clients/typescript/schema.d.ts, and answered by the app.
 */
let t: TestApp;
let server: Server;
let api: SchoolClient;

beforeAll(async () => {
  t = await startTestApp();
  server = t.app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  api = createSchoolClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, fetch: fetchChecked });
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
});

describe('the typed TypeScript client', () => {
  it('signs up a school, signs in, posts a notice and reads it back', async () => {
    const signup = await api.POST('/web-app/signup', {
      body: { name: 'Asha Principal', email: 'principal@client-school.example', password: 'correct horse battery', school_id: 'client-school', school_name: 'Client School' },
    });
    expect(signup.response.status).toBe(201);
    expect(signup.data?.data).toMatchObject({ school_id: 'client-school', user_id: expect.any(Number) });

    const signin = await api.POST('/web-app/signin', { body: { email: 'principal@client-school.example', password: 'correct horse battery' } });
    expect(signin.response.status).toBe(200);
    const session = signin.data!.data;
    expect(session.user).toMatchObject({ email: 'principal@client-school.example', role: 'super_admin', school_id: 'client-school' });
    api.setToken(session.access_token);

    const created = await api.POST('/web-app/noticeboard', {
      body: { notice_title: 'Parent-teacher meeting', notice_desc: 'Saturday 9:00 to 12:00 in the classrooms.', notice_type: 'meeting', is_important: true },
    });
    expect(created.response.status).toBe(201);
    const notice = created.data!.data;
    expect(notice).toMatchObject({ notice_title: 'Parent-teacher meeting', notice_type: 'meeting', is_important: true, school_id: 'client-school' });

    const board = await api.GET('/web-app/noticeboard', { params: { query: { school_id: 'client-school' } } });
    expect(board.response.status).toBe(200);
    expect(board.data!.data.count).toBe(1);
    expect(board.data!.data.notices.map((n) => [n.id, n.notice_title, n.notice_desc])).toEqual([
      [notice.id, 'Parent-teacher meeting', 'Saturday 9:00 to 12:00 in the classrooms.'],
    ]);
  });

  it('hands back the typed error body, and the types refuse a call the API would refuse', async () => {
    // @ts-expect-error notice_title is required: the generated types reject this body before the server does.
    const invalid = await api.POST('/web-app/noticeboard', { body: { notice_desc: 'No title' } });
    expect(invalid.response.status).toBe(400);
    const error: ApiError | undefined = invalid.error;
    expect(error?.error.code).toBe('BAD_REQUEST');
    expect(error?.error.details).toEqual([expect.objectContaining({ field: 'notice_title' })]);

    const wrongApp = await api.GET('/parent-app/noticeboard', {});
    expect(wrongApp.response.status).toBe(403);
    expect(wrongApp.error?.error.code).toBe('FORBIDDEN');

    api.setToken(undefined);
    const anonymous = await api.GET('/web-app/noticeboard', { params: { query: { school_id: 'client-school' } } });
    expect(anonymous.response.status).toBe(401);
  });
});
