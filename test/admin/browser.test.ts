import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, type Browser } from '../helpers/browser.js';
import { freshDatabase, type TestDatabase } from '../helpers/database.js';
import { post, startServer, type ServerProcess } from '../helpers/server-process.js';

/**
 * The console in a real browser (Debian's chromium, installed by .ci/run) against the real server:
 * sign in, open Staff, archive a staff member and see the status change. It also refreshes the
 * screenshot in docs/.
 */
const EMAIL = 'principal@browser-school.example';
const PASSWORD = 'correct horse battery';

let db: TestDatabase;
let server: ServerProcess;
let browser: Browser;
let page: Page;
let pageErrors: string[] = [];
let staffId: number;

beforeAll(async () => {
  db = await freshDatabase();
  server = await startServer({
    ADMIN_CONSOLE_ENABLED: 'true',
    DATA_DIR: db.dataDir,
    DATABASE_URL: db.databaseUrl,
  }, { startTimeoutMs: 120_000 });
  const signup = await post(`${server.url}/web-app/signup`, { name: 'Asha Principal', email: EMAIL, password: PASSWORD, school_id: 'browser-school', school_name: 'Greenwood High' });
  expect(signup.status).toBe(201);
  const signin = await post(`${server.url}/web-app/signin`, { email: EMAIL, password: PASSWORD });
  expect({ status: signin.status, body: signin.body }).toMatchObject({ status: 200 });
  const auth = { Authorization: `Bearer ${signin.body!.data.access_token}` };
  for (const [name, phone] of [['Meera Iyer', '9811111111'], ['Ravi Kumar', '9822222222'], ['Sunita Rao', '9833333333']]) {
    const created = await post(`${server.url}/web-app/staff`, { name, phone_no: phone, designation: 'Class Teacher', email: `${phone}@greenwood.example` }, auth);
    expect(created.status).toBe(201);
    if (name === 'Ravi Kumar') staffId = created.body!.data.id;
  }

  browser = await launchBrowser({ viewport: { width: 1440, height: 900 } });
  ({ page, pageErrors } = browser);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

describe('the admin console in a browser', () => {
  it('signs in, opens Staff, archives a staff member and shows the new status', async () => {
    await page.goto(`${server.url}/admin`);
    await page.waitForURL(/\/admin\/login$/);
    await page.fill('input[name="email"]', EMAIL);
    await page.fill('input[name="password"]', PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('School overview: Greenwood High').waitFor();
    await expect(page.getByTestId('active-staff').innerText()).resolves.toContain('3');

    // The menu groups resources ("Staff" holds Staff and Designations); a closed group is opened first.
    const link = page.locator('a[href="/admin/resources/staff"]');
    if ((await link.count()) === 0) await page.getByText('Staff', { exact: true }).first().click();
    await link.first().click();
    await page.waitForURL(/\/admin\/resources\/staff/);
    const row = page.locator('tr', { hasText: 'Ravi Kumar' });
    await expect(row.innerText()).resolves.toMatch(/active/i);

    await row.getByText('Ravi Kumar').click();
    await page.waitForURL(new RegExp(`/admin/resources/staff/records/${staffId}/show`));
    await page.getByText('Archive', { exact: true }).click();
    await page.getByRole('button', { name: /confirm/i }).click();
    await page.getByText('Ravi Kumar archived; every session ended').waitFor();
    await page.getByText('Restore', { exact: true }).waitFor();

    await page.goto(`${server.url}/admin/resources/staff`);
    const archived = page.locator('tr', { hasText: 'Ravi Kumar' });
    await expect(archived.innerText()).resolves.toMatch(/archived/i);
    await expect(page.locator('tr', { hasText: 'Meera Iyer' }).innerText()).resolves.toMatch(/active/i);

    const docs = path.resolve('docs');
    mkdirSync(docs, { recursive: true });
    await page.screenshot({ path: path.join(docs, 'admin-console.png') });
    expect(pageErrors).toEqual([]);
  }, 120_000);
});
