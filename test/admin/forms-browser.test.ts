import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS, launchBrowser, type Browser } from '../helpers/browser.js';
import { freshDatabase, type TestDatabase } from '../helpers/database.js';
import { post, startServer, type ServerProcess } from '../helpers/server-process.js';

/**
 * The Forms page of an activity in a real browser (Debian's chromium) against the real server: the
 * responses and the missing child, the CSV download, and Close. Its screenshots are kept in
 * ARTIFACTS (the last one whatever happens, one more on a failure).
 */
const EMAIL = 'principal@forms-school.example';
const PASSWORD = 'correct horse battery';

let db: TestDatabase;
let server: ServerProcess;
let browser: Browser;
let page: Page;
let activityId: number;

async function json(method: string, url: string, body: unknown, token?: string) {
  const res = await fetch(url, { method, headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as { data: Record<string, any> } };
}

/** A family through the public admission form, its PIN set from the link, signed in. */
async function family(child: string, father: string, phone: string): Promise<{ token: string; studentId: number }> {
  const admitted = await post(`${server.url}/web-app/admission-form`, {
    school_id: 'forms-school',
    student: { student_full_name: child, gender: 'female', grade: '5', date_of_birth: '2016-04-12', blood_group: 'B+', roll_no: null },
    parent: { father_name: father, mother_name: null, phone_no: phone, email: null },
    addresses: [{ address_type: 'current', address: '12 Lake Rd', city: 'Pune', pincode: 411001 }],
  });
  expect(admitted.status).toBe(201);
  const token = new URL(admitted.body!.data.pin_setup.url).searchParams.get('token')!;
  expect((await post(`${server.url}/parent-app/set-pin`, { token, pin: '482913' })).status).toBe(200);
  const login = await post(`${server.url}/parent-app/parent-auth-verification`, { phone_no: phone, pin: '482913', school_id: 'forms-school' });
  return { token: login.body!.data.access_token, studentId: admitted.body!.data.student_id };
}

beforeAll(async () => {
  db = await freshDatabase();
  server = await startServer({ ADMIN_CONSOLE_ENABLED: 'true', DATA_DIR: db.dataDir, DATABASE_URL: db.databaseUrl }, { startTimeoutMs: 120_000 });
  expect((await post(`${server.url}/web-app/signup`, { name: 'Asha Principal', email: EMAIL, password: PASSWORD, school_id: 'forms-school', school_name: 'Greenwood High' })).status).toBe(201);
  const admin = (await post(`${server.url}/web-app/signin`, { email: EMAIL, password: PASSWORD })).body!.data.access_token as string;
  const staff = await post(`${server.url}/web-app/staff`, { name: 'Meera Iyer', phone_no: '9811111111', designation: 'Class Teacher', pin: '4321', rbac: { activities: 'create' } }, { Authorization: `Bearer ${admin}` });
  expect(staff.status).toBe(201);
  const teacher = (await post(`${server.url}/teachers-app/teacher-auth-verification`, { phone_no: '9811111111', pin: '4321', school_id: 'forms-school' })).body!.data.access_token as string;
  const activity = await json('POST', `${server.url}/teachers-app/activities`, {
    school_id: 'forms-school', title: 'Science museum trip', activity_type: 'event', starts_at: '2026-12-05T03:30:00.000Z', location: 'City Science Museum',
    form: {
      questions: [
        { id: 'ok', type: 'consent', label: 'I allow my child to go', required: true },
        { id: 'lunch', type: 'choice', label: 'Lunch', required: true, options: [{ id: 'veg', label: 'Vegetarian' }, { id: 'egg', label: 'Egg' }] },
        { id: 'help', type: 'choice', label: 'I can help on the bus', options: [{ id: 'yes', label: 'Yes', capacity: 2 }, { id: 'no', label: 'No' }] },
      ],
    },
  }, teacher);
  expect(activity.status).toBe(201);
  activityId = activity.body.data.id;
  const formId = activity.body.data.form.id;
  for (const [child, father, phone, lunch] of [['Tara Rao', 'Ravi Rao', '9822222222', 'veg'], ['Kabir Shah', 'Dev Shah', '9833333333', 'egg']] as const) {
    const f = await family(child, father, phone);
    expect((await json('POST', `${server.url}/parent-app/forms/${formId}/responses`, { student_id: f.studentId, answers: { ok: 'agree', lunch, help: 'yes' }, signature: father }, f.token)).status).toBe(201);
  }
  await family('Zoya Khan', 'Imran Khan', '9844444444');

  browser = await launchBrowser({ viewport: { width: 1440, height: 1000 }, acceptDownloads: true });
  page = browser.page;
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

describe('the Forms page in a browser', () => {
  it('shows the responses and who is missing, downloads the CSV and closes the form', async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    try {
      await page.goto(`${server.url}/admin/login`);
      await page.fill('input[name="email"]', EMAIL);
      await page.fill('input[name="password"]', PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByText('School overview: Greenwood High').waitFor();

      await page.goto(`${server.url}/admin/resources/activities/records/${activityId}/show`);
      await page.getByText('3 questions, 2 responses (one per child), open').waitFor();
      await page.getByText('Forms', { exact: true }).first().click();
      const results = page.getByTestId('form-results');
      await results.waitFor();
      await expect(page.getByTestId('form-responses-count').innerText()).resolves.toContain('2');
      await expect(page.getByTestId('form-missing-count').innerText()).resolves.toContain('1');
      const responses = page.getByTestId('form-response-table');
      await expect(responses.locator('tr', { hasText: 'Tara Rao' }).innerText()).resolves.toMatch(/Ravi Rao[\s\S]*Agrees[\s\S]*Vegetarian[\s\S]*Yes/);
      await expect(responses.locator('tr', { hasText: 'Kabir Shah' }).innerText()).resolves.toMatch(/Egg/);
      await expect(page.getByTestId('form-missing-table').innerText()).resolves.toContain('Zoya Khan');
      await page.screenshot({ path: path.join(ARTIFACTS, 'forms-page-open.png'), fullPage: true });

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('form-csv').click()]);
      expect(download.suggestedFilename()).toMatch(/^form-\d+-results\.csv$/);
      const csv = readFileSync((await download.path())!, 'utf8');
      expect(csv.replace(/^\uFEFF/, '').split('\r\n')[0]).toBe('student,grade,parent,submitted_at,I allow my child to go,Lunch,I can help on the bus,signature');
      expect(csv).toContain('Tara Rao,5,Ravi Rao,');

      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByTestId('form-close').click();
      await page.getByText('The form is closed: families can no longer answer or change their answers').waitFor();
      await expect(page.getByTestId('form-status').innerText()).resolves.toContain('Closed');
      expect(await page.getByTestId('form-close').count()).toBe(0);
      await page.screenshot({ path: path.join(ARTIFACTS, 'forms-page.png'), fullPage: true });
      expect(browser.pageErrors).toEqual([]);
    } catch (err) {
      await page.screenshot({ path: path.join(ARTIFACTS, 'forms-page-failure.png'), fullPage: true }).catch(() => undefined);
      throw err;
    }
  }, 120_000);
});
