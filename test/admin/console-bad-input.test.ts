import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import supertest from 'supertest';
import { Student } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { school, student, type SchoolFixture } from '../helpers/fixtures.js';
import { consoleApi, ids, noticeOf, signInConsole, type Agent, type ConsoleApi } from './console-client.js';

/**
 * Requests no page of the console sends (inherited names in paths, bodies its forms cannot have
 * posted, pages far past the end): each answers promptly with a 4xx, never a 500 or a hang.
 */
let t: TestApp;
let a: SchoolFixture;
let agent: Agent;
let sa: ConsoleApi;
let own: number;

beforeAll(async () => {
  t = await startTestApp({ ADMIN_CONSOLE_ENABLED: 'true' });
  a = await school(t);
  own = (await student(a.schoolId, null, { name: 'Asha Rao' })).id;
  agent = await signInConsole(t, a.adminEmail);
  sa = consoleApi(agent);
  // AdminJS's start-up (seconds, more on a loaded machine) is paid once per file, here.
}, 180_000);
afterAll(async () => t.close());

/** A request that hangs fails the test in seconds rather than at Jest's timeout. */
const PROMPTLY = 10_000;
const stranger = () => supertest(t.app);
const inherited = ['constructor', '__proto__', 'toString', 'hasOwnProperty'];

/** The console's pages answer in HTML, the login page saying why; its API the contract's error body. */
function expectLoginPage(res: supertest.Response, status: number) {
  expect({ status: res.status, type: res.headers['content-type'] }).toEqual({ status, type: expect.stringMatching(/text\/html/) });
  expect(res.text).toContain('"action":"/admin/login"');
}
function expectError(res: supertest.Response, status: number, code: string) {
  expect({ status: res.status, success: res.body.success, code: res.body.error?.code }).toEqual({ status, success: false, code });
}

describe('the import templates', () => {
  it('are only the templates: an inherited name is not found, as an unknown one is, without a session', async () => {
    for (const kind of [...inherited, 'secrets']) {
      const res = await stranger().get(`/admin/import-templates/${kind}.csv`);
      expectError(res, 404, 'NOT_FOUND');
    }
    expect((await stranger().get('/admin/import-templates/students.csv')).status).toBe(200);
  });
});

describe('bodies the console cannot read', () => {
  it('refuses on the login page what its form cannot have sent, before any sign-in', async () => {
    const post = () => stranger().post('/admin/login').timeout(PROMPTLY);
    expectLoginPage(await post().set('Content-Type', 'text/plain').send('x'), 400);
    expectLoginPage(await post().set('Content-Type', 'application/octet-stream').send(Buffer.from('x')), 400);
    expectLoginPage(await post().set('Content-Type', 'multipart/form-data').send('x'), 400);
    expectLoginPage(await post().set('Content-Type', 'multipart/form-data; boundary=abc').send('garbage\r\n--abc\r\nnonsense'), 400);
    const fieldsTooLarge = await post().type('form').send({ email: a.adminEmail, password: 'y'.repeat(1024 * 1024 + 1) });
    expectLoginPage(fieldsTooLarge, 413);
    expect(fieldsTooLarge.text).toContain('larger than the console takes');
    expectLoginPage(await post().field('email', a.adminEmail).field('password', 'y'.repeat(1024 * 1024 + 1)), 413);
    expectLoginPage(await post().attach('file', Buffer.from('a file'), 'a.txt'), 400);
    // The login page's own form is still read: a wrong password is refused as one.
    expect((await post().type('form').send({ email: a.adminEmail, password: 'wrong password' })).status).toBe(401);
  });

  it("refuses the same bodies on the console's API with the contract's error body", async () => {
    const post = () => agent.post('/admin/api/resources/students/actions/new').timeout(PROMPTLY);
    expectError(await post().set('Content-Type', 'text/plain').send('x'), 400, 'BAD_REQUEST');
    expectError(await post().set('Content-Type', 'multipart/form-data').send('x'), 400, 'BAD_REQUEST');
    expectError(await post().type('form').send({ student_full_name: 'y'.repeat(1024 * 1024 + 1) }), 413, 'PAYLOAD_TOO_LARGE');
    expect(await Student.count({ where: { school_id: a.schoolId } })).toBe(1);
  });

  it('sends a stranger to the login page without reading what they post, an upload of 20 MiB included', async () => {
    const post = (path: string) => stranger().post(`/admin/api/resources/students/actions/${path}`).timeout(PROMPTLY);
    for (const res of [
      await post('new').set('Content-Type', 'text/plain').send('x'),
      await post('new').send({ student_full_name: 'From JSON' }),
      await post('import').field('kind', 'students').attach('file', Buffer.alloc(20 * 1024 * 1024, 'a'), 'students.csv').catch((err: { response?: supertest.Response }) => err.response!),
    ]) {
      expect({ status: res.status, location: res.headers.location }).toEqual({ status: 302, location: '/admin/login' });
    }
    expect(await Student.count({ where: { school_id: a.schoolId } })).toBe(1);
  });

  it('answers a JSON body, which the app has read already, at once rather than waiting for it again', async () => {
    expectLoginPage(await stranger().post('/admin/login').timeout(PROMPTLY).send({ email: a.adminEmail, password: 'x' }), 400);
    expectError(await agent.post('/admin/api/resources/students/actions/new').timeout(PROMPTLY).send({ student_full_name: 'From JSON' }), 400, 'BAD_REQUEST');
    expect(await Student.count({ where: { school_id: a.schoolId } })).toBe(1);
  });

  it('refuses an import file over 20 MiB with 413, and the console goes on answering', async () => {
    const big = Buffer.alloc(20 * 1024 * 1024 + 1, 'a');
    const res = await agent.post('/admin/api/resources/students/actions/import').timeout(60_000).field('kind', 'students').field('dry_run', 'true').attach('file', big, 'students.csv');
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    expect(res.body.message).toBe('The file is larger than 20 MiB');
    expect(ids(await sa.list('students'))).toEqual([own]);
  }, 120_000);

  it("tells the upload form why a body it cannot read was refused, in the form's notice", async () => {
    const res = await agent.post('/admin/api/resources/activities/actions/upload').timeout(PROMPTLY).set('Content-Type', 'multipart/form-data').send('x');
    expect(noticeOf(res)).toEqual({ type: 'error', message: 'The form could not be read' });
  });
});

describe('names AdminJS does not have', () => {
  it('answers an inherited action name as an unknown one: 404', async () => {
    for (const name of inherited) {
      expectError(await agent.get(`/admin/api/resources/students/actions/${name}`), 404, 'NOT_FOUND');
      expectError(await agent.get(`/admin/api/resources/students/records/${own}/${name}`), 404, 'NOT_FOUND');
      expectError(await agent.post(`/admin/api/resources/students/bulk/${name}`).query({ recordIds: String(own) }), 404, 'NOT_FOUND');
    }
    expect((await agent.get('/admin/api/resources/students/actions/list')).status).toBe(200);
  });
});

describe('pages of a list', () => {
  it('answers a page far past the end as an empty page, and odd page sizes with rows', async () => {
    for (const page of ['1e300', '1e308', '9007199254740993']) {
      for (const perPage of [undefined, '1e300', '2.5']) {
        const query = { page, ...(perPage ? { perPage } : {}) };
        const res = await sa.list('students', query);
        expect({ query, status: res.status, records: ids(res) }).toEqual({ query, status: 200, records: [] });
      }
    }
    // A size that is no number, or not a positive one, makes an offset that is none: the first page, as AdminJS takes a page that is none.
    const odd: Array<Record<string, string>> = [{ perPage: '1e300' }, { perPage: '-5' }, { perPage: 'abc' }, { perPage: '2.5' }, { page: '1.5', perPage: '1' }, { page: 'abc' }, { page: '1e300', perPage: '-5' }, { page: '1e300', perPage: 'abc' }];
    for (const query of odd) {
      const res = await sa.list('students', query);
      expect({ query, status: res.status, records: ids(res) }).toEqual({ query, status: 200, records: [own] });
    }
  });
});
