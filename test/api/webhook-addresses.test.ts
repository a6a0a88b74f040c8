import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Webhook } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { bearer, expectError, school, type SchoolFixture } from '../helpers/fixtures.js';

/** Without WEBHOOK_ALLOW_PRIVATE, a webhook may only point at public addresses (CONTRACT.md section 23). Nothing here is ever called. */
let t: TestApp;
let s: SchoolFixture;

beforeAll(async () => {
  t = await startTestApp();
  s = await school(t);
});
afterAll(async () => t.close());

const refusedHosts = [
  '127.0.0.1', '127.8.9.10', '10.1.2.3', '172.16.0.9', '192.168.1.1', '169.254.169.254', '0.0.0.0', '224.0.0.1', '100.64.0.1', '240.0.0.1',
  '[::1]', '[::]', '[fe80::1]', '[fd00::1]', '[ff02::1]', '[::ffff:127.0.0.1]', '[::ffff:10.0.0.1]', 'localhost',
];

describe('webhook addresses', () => {
  it('refuses loopback, private, link-local, unspecified, multicast and reserved addresses, and names resolving to them (400)', async () => {
    for (const host of refusedHosts) {
      const res = await t.api.post('/web-app/webhooks').set(bearer(s.adminToken)).send({ url: `http://${host}:8080/hooks` });
      expectError(res, 400, 'BAD_REQUEST');
      expect(res.body.error.details).toEqual([{ field: 'url', message: expect.stringMatching(/^is refused: /) }]);
    }
    expect(await Webhook.count({ where: { school_id: s.schoolId } })).toBe(0);
  });

  it('says why: the address and its kind', async () => {
    const res = await t.api.post('/web-app/webhooks').set(bearer(s.adminToken)).send({ url: 'http://localhost:8080/hooks' });
    expect(res.body.error.details[0].message).toMatch(/localhost resolves to .* (loopback|unspecified)/);
    const linkLocal = await t.api.post('/web-app/webhooks').set(bearer(s.adminToken)).send({ url: 'http://169.254.169.254/latest' });
    expect(linkLocal.body.error.details[0].message).toBe('is refused: 169.254.169.254 is a linkLocal address');
  });

  it('refuses credentials in the URL', async () => {
    const res = await t.api.post('/web-app/webhooks').set(bearer(s.adminToken)).send({ url: 'https://user:pw@10.0.0.1/hooks' });
    expect(res.body.error.details).toEqual([{ field: 'url', message: 'must not carry a user name or password' }]);
  });
});
