import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { freshDatabase, type TestDatabase } from '../helpers/database.js';
import { post, startServer } from '../helpers/server-process.js';
import { fetchChecked } from '../helpers/openapi-check.js';

/**
 * A scheduled notice whose time comes while the service is down is published by
 * the first due-item check of the next start (the schedule lives in the rows), in the real server
 * process.
 */
let database: TestDatabase;

beforeAll(async () => {
  database = await freshDatabase();
});
afterAll(async () => database?.drop());

describe('scheduled posts across a restart', () => {
  it('publishes a notice whose time passed while the service was stopped, at the next start', async () => {
    const env = { DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl };
    const first = await startServer(env);
    expect((await post(`${first.url}/web-app/signup`, { name: 'Head', email: 'head@restart.example', password: 'a long password', school_id: 'restart' })).status).toBe(201);
    const token = (await post(`${first.url}/web-app/signin`, { email: 'head@restart.example', password: 'a long password' })).body!.data.access_token as string;
    const auth = { Authorization: `Bearer ${token}` };
    const at = new Date(Date.now() + 1500).toISOString();
    const created = await post(`${first.url}/web-app/noticeboard`, { school_id: 'restart', notice_title: 'Published while down', publish_at: at }, auth);
    expect(created.body!.data).toMatchObject({ scheduled: true });
    expect(await first.stop()).toBe(0);
    await new Promise((r) => setTimeout(r, 2000));

    const second = await startServer(env);
    try {
      const board = async () => {
        const res = await fetchChecked(`${second.url}/web-app/noticeboard?school_id=restart`, { headers: auth });
        return ((await res.json()) as { data: { notices: Array<{ id: number; scheduled: boolean; published_at: string | null }> } }).data.notices;
      };
      const deadline = Date.now() + 20_000;
      while ((await board())[0]?.scheduled !== false && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      const [notice] = await board();
      expect(notice).toMatchObject({ scheduled: false, published_at: expect.any(String) });
      expect(new Date(notice!.published_at!).getTime()).toBeGreaterThanOrEqual(new Date(at).getTime());
    } finally {
      await second.stop();
    }
  }, 90_000);
});
