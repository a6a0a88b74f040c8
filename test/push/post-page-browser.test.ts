import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { School } from '../../src/models/index.js';
import type { SmsMessage } from '../../src/push/provider.js';
import { closePushProvider, providersOf } from '../../src/push/providers.js';
import { deliverDue } from '../../src/push/worker.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { launchBrowser, type Browser } from '../helpers/browser.js';
import { bearer, parent, school, student, type SchoolFixture } from '../helpers/fixtures.js';

/**
 * A post's web page as a family without the app opens it from its SMS: on a phone-sized screen in
 * Debian's chromium, the author's text shown as text and none of it run (the page's CSP allows no
 * script), the opening counted as a read. Refreshes docs/post-page-phone.png.
 */
const SCREENSHOT = path.resolve(fileURLToPath(new URL('../../docs/post-page-phone.png', import.meta.url)));
const TITLE = 'Sports day moved to Friday <script>document.title="ran"</script>';
const TEXT = [
  'Sports day is now on Friday 14 March, 9:00 to 12:30, on the main ground. Children come in their house T-shirt with a water bottle and a cap.',
  '',
  'Parents are welcome from 10:00. <img src=x onerror="document.body.dataset.ran=1"> Tea is served by the PTA near the pavilion.',
].join('\n');

let t: TestApp;
let server: Server;
let base: string;
let browser: Browser;
let a: SchoolFixture;
const sent: SmsMessage[] = [];

beforeAll(async () => {
  t = await startTestApp({ PUBLIC_APP_URL: 'https://school.example' });
  server = t.app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  a = await school(t);
  await School.update({ name: 'Greenwood High School', timezone: 'Asia/Kolkata' }, { where: { id: a.schoolId } });
  // The log provider sends nothing; what it is handed is what Twilio would get.
  const sms = providersOf(t.ctx).sms;
  const send = sms.send.bind(sms);
  sms.send = async (message) => {
    sent.push(message);
    return send(message);
  };
  browser = await launchBrowser({ viewport: { width: 390, height: 844 } });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await closePushProvider(t.ctx);
  server?.close();
  await t.close();
});

describe("a post's web page on a phone", () => {
  it('is readable at 390 px, shows the author\'s markup as text, runs none of it, and counts as a read', async () => {
    const family = await parent(t.ctx, a.schoolId);
    const child = await student(a.schoolId, family.id);
    const posted = await t.api.post('/web-app/noticeboard').set(bearer(a.adminToken)).send({ notice_title: TITLE, notice_desc: TEXT, audience: { student_ids: [child.id] } });
    expect(posted.status).toBe(201);
    const noticeId = posted.body.data.id as number;
    expect(await deliverDue(t.ctx)).toMatchObject({ sent: 1 });
    const link = sent.at(-1)!.body.split(' ').find((w) => w.startsWith('https://school.example/v/'))!;
    expect(link).toBeDefined();
    const reach = async () => (await t.api.get(`/web-app/noticeboard/${noticeId}/reach`).set(bearer(a.adminToken))).body.data;
    expect(await reach()).toMatchObject({ families: 1, read: 0 });

    const { page, pageErrors } = browser;
    const res = await page.goto(`${base}${new URL(link).pathname}`);
    expect(res!.status()).toBe(200);
    expect(res!.headers()['content-security-policy']).toMatch(/default-src 'none'|script-src 'none'/);

    // The author's markup is text on the page, and none of it ran.
    const body = await page.locator('body').innerText();
    expect(body).toContain('Greenwood High School');
    expect(body).toContain(TITLE);
    expect(body).toContain('<img src=x onerror="document.body.dataset.ran=1">');
    expect(body).toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(await page.title()).not.toBe('ran');
    expect(await page.evaluate('document.body.dataset.ran')).toBeUndefined();
    expect(await page.locator('script, img').count()).toBe(0);
    expect(pageErrors).toEqual([]);
    // The page's CSP refuses any script, even one put into it after it loaded.
    // (Expressions as text: they run in the page, and this project's types have no DOM.)
    await page.evaluate(`(() => {
      const script = document.createElement('script');
      script.textContent = 'document.body.dataset.injected = "ran"';
      document.body.append(script);
    })()`);
    expect(await page.evaluate('document.body.dataset.injected')).toBeUndefined();

    // Readable on a phone: laid out to the screen's width (no sideways scrolling), the text at a reading size.
    const layout = await page.evaluate<{ viewport: string; scrollWidth: number; fontPx: number; longest: number }>(`({
      viewport: document.querySelector('meta[name="viewport"]')?.getAttribute('content') ?? '',
      scrollWidth: document.documentElement.scrollWidth,
      fontPx: parseFloat(getComputedStyle(document.body).fontSize),
      longest: Math.max(...[...document.querySelectorAll('body *')].map((e) => e.getBoundingClientRect().right)),
    })`);
    expect(layout.viewport).toContain('width=device-width');
    expect(layout.scrollWidth).toBeLessThanOrEqual(390);
    expect(layout.longest).toBeLessThanOrEqual(390);
    expect(layout.fontPx).toBeGreaterThanOrEqual(16);
    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    expect(await reach()).toMatchObject({ families: 1, read: 1, unread: 0, by_channel: { push: 0, email: 0, sms: 1, none: 0 } });
  }, 60_000);
});
