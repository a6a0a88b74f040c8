import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS, launchBrowser, type Browser } from '../helpers/browser.js';
import { freshDatabase, type TestDatabase } from '../helpers/database.js';
import { cameraJpeg, pdf } from '../helpers/images.js';
import { freePort, post, startServer, type ServerProcess } from '../helpers/server-process.js';

/**
 * Files on an activity in a real browser against the real server: several chosen at once are
 * uploaded (one refused, saying why), one taken off, the item saved, and its page shows a thumbnail
 * and a name, each linking to a signed URL. The screenshots are kept in ARTIFACTS.
 */
const EMAIL = 'office@files-school.example';
const PASSWORD = 'correct horse battery';

let db: TestDatabase;
let server: ServerProcess;
let browser: Browser;
let page: Page;
let pageErrors: string[] = [];
let activityId: number;
let firstUrl: string;

async function json(url: string, token: string, init: RequestInit = {}) {
  const res = await fetch(url, { ...init, headers: { Authorization: `Bearer ${token}`, ...(init.headers ?? {}) } });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

beforeAll(async () => {
  db = await freshDatabase();
  // File URLs must reach this server: PUBLIC_APP_URL is its own address.
  const port = String(await freePort());
  server = await startServer(
    { ADMIN_CONSOLE_ENABLED: 'true', DATA_DIR: db.dataDir, DATABASE_URL: db.databaseUrl, PORT: port, PUBLIC_APP_URL: `http://127.0.0.1:${port}` },
    { startTimeoutMs: 120_000 },
  );
  expect((await post(`${server.url}/web-app/signup`, { name: 'Office', email: EMAIL, password: PASSWORD, school_id: 'files-school', school_name: 'Greenwood High' })).status).toBe(201);
  const admin = (await post(`${server.url}/web-app/signin`, { email: EMAIL, password: PASSWORD })).body!.data.access_token as string;
  const staff = await post(`${server.url}/web-app/staff`, { name: 'Meera Iyer', phone_no: '9811111111', designation: 'Class Teacher', pin: '4321' }, { Authorization: `Bearer ${admin}` });
  expect(staff.status).toBe(201);
  const teacher = (await post(`${server.url}/teachers-app/teacher-auth-verification`, { phone_no: '9811111111', pin: '4321', school_id: 'files-school' })).body!.data.access_token as string;
  const form = new FormData();
  form.append('file', new Blob([pdf('The first plan')], { type: 'application/pdf' }), 'first-plan.pdf');
  const first = await json(`${server.url}/teachers-app/attachments`, teacher, { method: 'POST', body: form });
  expect(first.status).toBe(201);
  firstUrl = first.body.data.url;
  const created = await json(`${server.url}/teachers-app/activities`, teacher, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ school_id: 'files-school', title: 'Sports day', attachment_ids: [first.body.data.id] }),
  });
  expect(created.status).toBe(201);
  activityId = created.body.data.id;

  browser = await launchBrowser({ viewport: { width: 1440, height: 1000 } });
  ({ page, pageErrors } = browser);
  mkdirSync(ARTIFACTS, { recursive: true });
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

describe('files on an activity, in the console', () => {
  it('uploads several files at once, refuses one saying why, takes one off, saves, and shows them linked to signed URLs', async () => {
    try {
      await page.goto(`${server.url}/admin/login`);
      await page.fill('input[name="email"]', EMAIL);
      await page.fill('input[name="password"]', PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('School overview: Greenwood High').waitFor();

      await page.goto(`${server.url}/admin/resources/activities/records/${activityId}/edit`);
      const uploader = page.getByTestId('file-uploader');
      await uploader.waitFor();
      await expect(uploader.getByTestId('attachment').count()).resolves.toBe(1);
      await page.getByTestId('attachment-input').setInputFiles([
        { name: 'podium.jpg', mimeType: 'image/jpeg', buffer: await cameraJpeg(1600, 1200, 1, { noise: true }) },
        { name: 'timetable.pdf', mimeType: 'application/pdf', buffer: pdf('Timetable') },
        { name: 'not-a-photo.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('<html><body>hello</body></html>') },
      ]);
      await page.getByTestId('attachment-error').waitFor();
      await expect(page.getByTestId('attachment-error').innerText()).resolves.toContain('not-a-photo.jpg: The file is not a JPEG, PNG, GIF or WebP image or a PDF');
      await expect(uploader.getByTestId('attachment').count()).resolves.toBe(3);
      // The file the activity had is taken off.
      await uploader.getByRole('button', { name: 'Take off first-plan.pdf' }).click();
      await expect(uploader.getByTestId('attachment').count()).resolves.toBe(2);
      await page.screenshot({ path: path.join(ARTIFACTS, 'attachments-edit.png'), fullPage: true });
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL(new RegExp(`/admin/resources/activities/records/${activityId}/show`));

      const shown = page.getByTestId('attachments');
      await shown.waitFor();
      const thumbnail = shown.getByTestId('attachment-thumbnail');
      await thumbnail.waitFor();
      // Loaded from its signed thumbnail URL: the image the browser decoded is the 400 px thumbnail.
      type Img = { complete: boolean; naturalWidth: number; naturalHeight: number };
      for (let i = 0; i < 50 && !(await thumbnail.evaluate((img) => (img as unknown as Img).complete && (img as unknown as Img).naturalWidth > 0)); i++) await page.waitForTimeout(100);
      await expect(thumbnail.evaluate((img) => [(img as unknown as Img).naturalWidth, (img as unknown as Img).naturalHeight])).resolves.toEqual([400, 300]);
      await expect(shown.getByText('timetable.pdf').count()).resolves.toBe(1);
      const links = await shown.getByTestId('attachment-link').evaluateAll((as) => as.map((a) => (a as unknown as { href: string }).href));
      expect(links).toHaveLength(2);
      for (const href of links) {
        expect(href).toMatch(/\/files\/\d+\?exp=\d+&sig=[0-9a-f]{64}$/);
        expect((await fetch(href)).status).toBe(200);
      }
      expect((await fetch(firstUrl)).status).toBe(404);
      await page.screenshot({ path: path.join(ARTIFACTS, 'attachments-show.png'), fullPage: true });
      expect(pageErrors).toEqual([]);
    } catch (err) {
      await page.screenshot({ path: path.join(ARTIFACTS, 'attachments-failure.png'), fullPage: true }).catch(() => undefined);
      throw err;
    }
  }, 180_000);
});

describe('a diary entry written by the office, in the console', () => {
  it('names the teacher and the grade, takes a file, and shows them on its page', async () => {
    try {
      await page.goto(`${server.url}/admin/resources/diary_entries/actions/new`);
      await page.locator('[data-testid="property-edit-staff_id"] input').first().click();
      await page.keyboard.type('Meera');
      await page.getByRole('option', { name: 'Meera Iyer' }).click();
      await page.locator('#grade').click();
      await page.getByRole('option', { name: '5', exact: true }).click();
      await page.fill('input[name="title"]', 'Spelling list');
      await page.getByTestId('attachment-input').setInputFiles([{ name: 'spelling.pdf', mimeType: 'application/pdf', buffer: pdf('Spelling') }]);
      await page.getByTestId('file-uploader').getByTestId('attachment').first().waitFor();
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL(/\/admin\/resources\/diary_entries\/records\/\d+\/show/);
      await page.getByTestId('attachments').getByText('spelling.pdf').waitFor();
      const shown = await page.locator('section[data-css="app-content"]').innerText();
      expect(shown).toMatch(/Meera Iyer/);
      expect(shown).toMatch(/Spelling list/);
      expect(pageErrors).toEqual([]);
    } catch (err) {
      await page.screenshot({ path: path.join(ARTIFACTS, 'diary-new-failure.png'), fullPage: true }).catch(() => undefined);
      throw err;
    }
  }, 120_000);
});
