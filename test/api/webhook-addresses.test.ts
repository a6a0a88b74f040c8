import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Webhook } from '../../src/models/index.js';
import { addressRefusal } from '../../src/services/webhooks/addresses.js';
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
  // IPv4-compatible, elsewhere in ::/8, local-use NAT64 (RFC 8215), documentation (RFC 9637).
  '[::127.0.0.1]', '[::10.0.0.1]', '[::2]', '[64:ff9b:1::a00:1]', '[3fff::1]',
];

/** IPv6 fails closed: only global unicast outside the special-purpose blocks, and what an address carries of IPv4 is judged as IPv4. */
const refusedIPv6 = [
  '::2', '::7f00:1', '::a00:1', '::808:808', '100::1', '4000::1', '5f00::1', 'fec0::1', '::ffff:0:a00:1',
  '2001::1', '2001:2::1', '2001:10::1', '2001:1ff::1', '2001:db8::1', '3fff::1', '3fff:fff::1',
  '::ffff:169.254.169.254', '64:ff9b::a00:1', '64:ff9b::7f00:1', '64:ff9b:1::a00:1', '64:ff9b:1::808:808', '2002:a00:1::1', '2002:7f00:1::', '2002:c0a8:101::1',
];
const callableIPv6 = ['2606:4700:4700::1111', '2a00:1450:4001::1', '2001:200::1', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'];

describe('webhook addresses', () => {
  it('refuses loopback, private, link-local, unspecified, multicast and reserved addresses, and names resolving to them (400)', async () => {
    for (const host of refusedHosts) {
      const res = await t.api.post('/web-app/webhooks').set(bearer(s.adminToken)).send({ url: `http://${host}:8080/hooks` });
      expectError(res, 400, 'BAD_REQUEST');
      expect(res.body.error.details).toEqual([{ field: 'url', message: expect.stringMatching(/^is refused: /) }]);
    }
    expect(await Webhook.count({ where: { school_id: s.schoolId } })).toBe(0);
  });

  it('takes only public global unicast IPv6, judging an embedded IPv4 address as IPv4', () => {
    for (const ip of refusedIPv6) expect([ip, addressRefusal(ip)]).toEqual([ip, expect.any(String)]);
    for (const ip of callableIPv6) expect([ip, addressRefusal(ip)]).toEqual([ip, null]);
    expect(addressRefusal('::ffff:7f00:1')).toBe('::ffff:7f00:1 carries 127.0.0.1, a loopback address');
    expect(addressRefusal('2002:a00:1::1')).toBe('2002:a00:1::1 carries 10.0.0.1, a private address');
    expect(addressRefusal('3fff::1')).toBe('3fff::1 is a reserved address');
    expect(addressRefusal('not an address')).toMatch(/not an address/);
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
