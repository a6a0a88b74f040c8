import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import helmet from 'helmet';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app.js';

/**
 * The reference page at /docs in a real browser (Debian's chromium, installed by .ci/run): it loads
 * Swagger UI from the app itself, lists the three apps' routes, and a "Try it out" call to /healthz
 * gets its 200 under the page's Content-Security-Policy.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let t: TestApp;
let server: Server;
let base: string;
let profile: string;
let browser: BrowserContext;
let page: Page;
const problems: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  server = t.app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  profile = mkdtempSync(path.join(tmpdir(), 'sp-chromium-docs-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  // A resource the page's CSP refuses, or one that fails to load, shows up as a console error.
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await t?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/**
 * Swagger UI draws the operations near the viewport only, as a reader scrolls: scroll from the top
 * until the element is drawn.
 */
async function reveal(selector: string, text: string): Promise<void> {
  const target = page.locator(selector, { hasText: text }).first();
  await page.evaluate('window.scrollTo(0, 0)');
  for (let step = 0; step < 400; step++) {
    if (await target.count()) return target.scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 600);
    await page.waitForTimeout(25);
  }
  throw new Error(`${selector} "${text}" never appeared on the page`);
}

describe('the API reference at /docs in a browser', () => {
  it('shows the three apps with their routes, and "Try it out" on GET /healthz answers 200', async () => {
    await page.goto(`${base}/docs`);
    await page.locator('.opblock-tag', { hasText: 'Parent app' }).first().waitFor();
    for (const tag of ['Parent app', 'Teachers app', 'Web admin app', 'Service']) await reveal('.opblock-tag', tag);
    for (const route of ['/parent-app/parent-auth-verification', '/teachers-app/teacher-auth-verification', '/web-app/signin', '/web-app/noticeboard']) {
      await reveal('.opblock-summary-path', route);
    }

    await reveal('.opblock-summary-path', '/healthz');
    const healthz = page.locator('#operations-Service-getHealthz');
    await healthz.locator('.opblock-summary-control').click();
    await healthz.getByRole('button', { name: 'Try it out' }).click();
    await healthz.getByRole('button', { name: 'Execute' }).click();
    const live = healthz.locator('.live-responses-table tbody tr.response');
    await live.waitFor();
    await expect(live.locator('.response-col_status').innerText()).resolves.toBe('200');
    await expect(live.locator('.response-col_description').innerText()).resolves.toContain('"status": "ok"');
    expect(problems).toEqual([]);
  }, 60_000);

  it("keeps helmet's default Content-Security-Policy on the API, and the page's allows nothing the defaults refuse", async () => {
    const directives = (header: string) =>
      Object.fromEntries(header.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k!, v])) as Record<string, string[]>;
    const defaults = Object.fromEntries(
      Object.entries(helmet.contentSecurityPolicy.getDefaultDirectives()).map(([k, v]) => [k, [...(v as Iterable<string>)].map(String)]),
    );
    const api = directives((await t.api.get('/healthz')).headers['content-security-policy'] as string);
    expect(api).toEqual(defaults);

    const docs = directives((await t.api.get('/docs')).headers['content-security-policy'] as string);
    for (const [name, sources] of Object.entries(docs)) {
      const allowed = defaults[name] ?? defaults['default-src']!;
      expect({ name, sources: sources.filter((s) => !allowed.includes(s)) }).toEqual({ name, sources: [] });
    }
  });
});
