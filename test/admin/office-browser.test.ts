import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS, launchBrowser, type Browser } from '../helpers/browser.js';
import { freshDatabase, type TestDatabase } from '../helpers/database.js';
import { csv, studentHeader } from '../helpers/roster.js';
import { post, startServer, type ServerProcess } from '../helpers/server-process.js';

/**
 * The school office's everyday jobs walked in a real browser (Debian's chromium) against the real
 * server, as a secretary would: a super_admin first, then a plain admin where what they see differs.
 * office.test.ts asks the same pages' API at the HTTP level. A failing test leaves a screenshot in
 * test/artifacts/, which CI keeps.
 */
const SCHOOL = 'office-school';
const EMAIL = 'principal@office-school.example';
const PLAIN_EMAIL = 'office@office-school.example';
const PASSWORD = 'correct horse battery';

let db: TestDatabase;
let server: ServerProcess;
let browser: Browser;
let page: Page;
let auth: Record<string, string>;
let staffId: number;
const family: { parentId?: number; requestId?: number } = {};
const patels: number[] = [];
let groupId: number;
let noticeId: number;

async function send(method: string, url: string, body: unknown, token: string) {
  const res = await fetch(`${server.url}${url}`, { method, headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as { data: Record<string, any> } };
}

/** A family through the public admission form; with a PIN set from its link, its parent's token. */
async function admit(child: string, father: string, phone: string, signIn = false) {
  const admitted = await post(`${server.url}/web-app/admission-form`, {
    school_id: SCHOOL,
    student: { student_full_name: child, gender: 'female', grade: '5', date_of_birth: '2016-04-12', blood_group: 'B+', roll_no: null },
    parent: { father_name: father, mother_name: null, phone_no: phone, email: null },
    addresses: [{ address_type: 'current', address: '12 Lake Rd', city: 'Pune', pincode: 411001 }],
  });
  expect(admitted.status).toBe(201);
  const { student_id: studentId, parent_id: parentId } = admitted.body!.data as { student_id: number; parent_id: number };
  if (!signIn) return { studentId, parentId, token: '' };
  const setup = new URL(admitted.body!.data.pin_setup.url).searchParams.get('token')!;
  expect((await post(`${server.url}/parent-app/set-pin`, { token: setup, pin: '482913' })).status).toBe(200);
  const login = await post(`${server.url}/parent-app/parent-auth-verification`, { phone_no: phone, pin: '482913', school_id: SCHOOL });
  return { studentId, parentId, token: login.body!.data.access_token as string };
}

async function signIn(email: string) {
  await page.goto(`${server.url}/admin/login`);
  await page.fill('input[name="email"]', email);
  await page.fill('input[name="password"]', PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('School overview').first().waitFor();
}

/**
 * A record's action, opened as the secretary opens it: the button on the record's page. When the
 * action is done, the record's page first shows the record as the action's page had it, then the
 * record as it is now: a test waits for what the action changed to show, never for the page alone.
 */
async function openAction(resource: string, id: number, label: string) {
  await page.goto(`${server.url}/admin/resources/${resource}/records/${id}/show`);
  await page.getByRole('button', { name: label, exact: true }).or(page.getByRole('link', { name: label, exact: true })).first().click();
}

beforeAll(async () => {
  db = await freshDatabase();
  server = await startServer({ ADMIN_CONSOLE_ENABLED: 'true', DATA_DIR: db.dataDir, DATABASE_URL: db.databaseUrl, PUBLIC_APP_URL: 'https://office.greenwood.example', WEBHOOK_ALLOW_PRIVATE: 'true' }, { startTimeoutMs: 120_000 });
  expect((await post(`${server.url}/web-app/signup`, { name: 'Asha Principal', email: EMAIL, password: PASSWORD, school_id: SCHOOL, school_name: 'Greenwood High' })).status).toBe(201);
  const token = (await post(`${server.url}/web-app/signin`, { email: EMAIL, password: PASSWORD })).body!.data.access_token as string;
  auth = { Authorization: `Bearer ${token}` };
  expect((await post(`${server.url}/web-app/admins`, { name: 'Office Clerk', email: PLAIN_EMAIL, password: PASSWORD, role: 'admin' }, auth)).status).toBe(201);
  const staff = await post(`${server.url}/web-app/staff`, { name: 'Rahul Mehta', phone_no: '9811111111', designation: 'Class Teacher', email: 'rahul@greenwood.example' }, auth);
  expect(staff.status).toBe(201);
  staffId = staff.body!.data.id;

  const ganesh = await admit('Anika Iyer', 'Ganesh Iyer', '9822222222', true);
  family.parentId = ganesh.parentId;
  const request = await send('POST', '/parent-app/write-to', { student_id: ganesh.studentId, type: 'query', subject: 'Bus timing', message: 'When does the bus leave in the morning?' }, ganesh.token);
  expect(request.status).toBe(201);
  family.requestId = request.body.data.id;
  for (const [child, father, phone] of [['Diya Patel', 'Amit Patel', '9833333331'], ['Kabir Patel', 'Nikhil Patel', '9833333332'], ['Meera Patel', 'Sanjay Patel', '9833333333']] as const) {
    patels.push((await admit(child, father, phone)).studentId);
  }
  const group = await post(`${server.url}/web-app/groups`, { name: 'Bus 4', description: 'The morning bus from Baner' }, auth);
  expect(group.status).toBe(201);
  groupId = group.body!.data.id;
  const choir = await post(`${server.url}/web-app/groups`, { name: 'Choir' }, auth);
  expect(choir.status).toBe(201);
  const notice = await send('POST', '/web-app/noticeboard', { notice_title: 'Choir practice', notice_desc: 'On Friday at 9.', notice_type: 'event', audience: { group_ids: [choir.body!.data.id] } }, token);
  expect(notice.status).toBe(201);
  noticeId = notice.body.data.id;

  browser = await launchBrowser({ viewport: { width: 1440, height: 1000 } });
  page = browser.page;
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  await signIn(EMAIL);
}, 240_000);

/** A test body that, when it fails, leaves a screenshot of the page in ARTIFACTS for CI to keep. */
function walk(name: string, body: () => Promise<void>) {
  return async () => {
    try {
      await body();
    } catch (err) {
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, `office-${name}.png`), fullPage: true }).catch(() => undefined);
      throw err;
    }
  };
}

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await db?.drop();
});

/** The one-time secret panel: its value, a Copy button that copies it, the warning; it stays until Done. */
async function expectSecretPanel(valuePattern: RegExp) {
  const panel = page.getByTestId('one-time-secret');
  await panel.waitFor();
  const value = await page.getByTestId('one-time-secret-value').inputValue();
  expect(value).toMatch(valuePattern);
  await expect(panel.innerText()).resolves.toContain('It will not be shown again');
  await page.getByTestId('one-time-secret-copy').click();
  await page.getByTestId('one-time-secret-copy').getByText('Copied').waitFor();
  await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(value);
  // Nothing fades it: it is still there a moment later.
  await page.waitForTimeout(1500);
  await expect(panel.isVisible()).resolves.toBe(true);
  return value;
}

describe('the school office in a browser, as a super_admin', () => {
  it('adds one student with their guardian and shows the PIN set-up link with its copy button and warning', walk('new-student', async () => {
    await page.goto(`${server.url}/admin/resources/students`);
    await page.getByRole('link', { name: 'Add a student' }).or(page.getByRole('button', { name: 'Add a student' })).first().click();
    const form = page.getByTestId('new-form');
    await form.waitFor();
    await page.fill('input[name="student_full_name"]', 'Tara Joshi');
    await page.locator('#grade').click();
    await page.getByRole('option', { name: '5', exact: true }).click();
    await page.fill('input[name="phone_no"]', '9844444444');
    await page.fill('input[name="father_name"]', 'Vikram Joshi');
    await page.getByTestId('button-save').click();
    const link = await expectSecretPanel(/^https:\/\/office\.greenwood\.example\/set-pin\?token=/);
    await expect(page.getByTestId('one-time-secret').innerText()).resolves.toMatch(/set their PIN/);
    await page.getByTestId('one-time-secret-done').click();
    await page.waitForURL(/\/admin\/resources\/students\/records\/\d+\/show/);
    await page.getByText('Tara Joshi').first().waitFor();
    expect(await page.content()).not.toContain(new URL(link).searchParams.get('token'));
  }), 60_000);

  it("opens a parent's page with their children, edits it, and resets the PIN with the new one shown until dismissed", walk('parent-page', async () => {
    await page.goto(`${server.url}/admin/resources/parents/records/${family.parentId}/show`);
    const children = page.getByTestId('children');
    await expect(children.locator('tr', { hasText: 'Anika Iyer' }).innerText()).resolves.toMatch(/5[\s\S]*Registered/);
    await expect(children.getByRole('link', { name: 'Anika Iyer' }).getAttribute('href')).resolves.toMatch(/\/admin\/resources\/students\/records\/\d+\/show$/);

    await page.getByRole('button', { name: 'Edit parent', exact: true }).or(page.getByRole('link', { name: 'Edit parent', exact: true })).first().click();
    await page.getByRole('heading', { name: 'Edit parent', exact: true }).waitFor();
    await page.fill('input[name="mother_name"]', 'Lakshmi Iyer');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Parent saved').waitFor();
    await page.goto(`${server.url}/admin/resources/parents/records/${family.parentId}/show`);
    await page.getByText('Lakshmi Iyer').first().waitFor();

    await openAction('parents', family.parentId!, 'Reset PIN');
    await page.getByTestId('action-form').waitFor();
    await page.getByTestId('action-form-submit').click();
    await expectSecretPanel(/^\d{6}$/);
    await expect(page.getByTestId('one-time-secret').innerText()).resolves.toContain('New PIN for Ganesh Iyer');
    await page.getByTestId('one-time-secret-done').click();
    await page.waitForURL(new RegExp(`/admin/resources/parents/records/${family.parentId}/show`));
    expect(await page.getByTestId('one-time-secret').count()).toBe(0);
  }), 60_000);

  it("replies to, assigns and resolves a parent's request", walk('write-to', async () => {
    const id = family.requestId!;
    await openAction('write_to_requests', id, 'Reply');
    await page.locator('#field-message').fill('The bus leaves at 7:40 from the main gate.');
    await page.getByTestId('action-form-submit').click();
    await page.getByText('Reply sent to the parent').waitFor();
    const thread = page.getByTestId('write-to-thread');
    await thread.getByText('7:40 from the main gate', { exact: false }).waitFor();
    await expect(thread.innerText()).resolves.toMatch(/Ganesh Iyer[\s\S]*When does the bus leave[\s\S]*Asha Principal[\s\S]*7:40 from the main gate/);
    await expect(page.getByText('In progress').first().isVisible()).resolves.toBe(true);

    await openAction('write_to_requests', id, 'Assign');
    await page.locator('#field-assigned_staff_id').click();
    await page.keyboard.type('Rahul');
    await page.getByRole('option', { name: 'Rahul Mehta' }).click();
    await page.getByTestId('action-form-submit').click();
    await page.getByText('Request assigned').waitFor();
    await expect(page.getByRole('link', { name: 'Rahul Mehta' }).first().getAttribute('href')).resolves.toBe(`/admin/resources/staff/records/${staffId}/show`);

    await page.getByRole('button', { name: 'Resolve', exact: true }).or(page.getByRole('link', { name: 'Resolve', exact: true })).first().click();
    await page.getByRole('button', { name: /confirm/i }).click();
    await page.getByText('"Bus timing" resolved').waitFor();
    await page.goto(`${server.url}/admin/resources/write_to_requests/records/${id}/show`);
    await page.getByText('Resolved', { exact: true }).first().waitFor();
  }), 60_000);

  it("adds several members at once on a group's page", walk('group-members', async () => {
    await openAction('student_groups', groupId, 'Add members');
    await page.getByTestId('member-search').fill('Patel');
    await page.getByRole('button', { name: 'Find' }).click();
    const results = page.getByTestId('member-results');
    await results.waitFor();
    for (const name of ['Diya Patel', 'Kabir Patel', 'Meera Patel']) await results.locator('tr', { hasText: name }).getByRole('button', { name: 'Choose' }).click();
    await expect(page.getByTestId('add-members-submit').innerText()).resolves.toBe('Add 3 students');
    await page.getByTestId('add-members-submit').click();
    await page.getByText('Added to Bus 4; it has 3 member(s) now').waitFor();
    const members = page.getByTestId('group-members');
    for (const name of ['Diya Patel', 'Kabir Patel', 'Meera Patel']) await members.getByRole('link', { name }).waitFor();
    await page.getByText('Members (3)').waitFor();
  }), 60_000);

  it('checks an import file and names the groups applying it would create', walk('import-dry-run', async () => {
    const file = path.join(ARTIFACTS, 'office-import.csv');
    mkdirSync(ARTIFACTS, { recursive: true });
    writeFileSync(file, csv(studentHeader, [
      ['IMP-1', 'Rohan Das', null, '5', null, null, '9855555551', 'Arun Das', null, null, null, null, null, 'Chess club;Bus 4'],
      ['IMP-2', 'Isha Das', null, '6', null, null, '9855555551', null, null, null, null, null, null, 'Robotics'],
    ]));
    await page.goto(`${server.url}/admin/resources/students/actions/import`);
    await page.getByTestId('import-file').setInputFiles(file);
    await page.getByTestId('import-check').click();
    await expect(page.getByTestId('import-counts').innerText()).resolves.toContain('2 to create');
    await expect(page.getByTestId('import-groups').innerText()).resolves.toBe('Groups to create: Chess club, Robotics');
    await expect(page.getByTestId('import-report').innerText()).resolves.toContain('nothing is written until you import');

    // A file over the limit is refused, and the page says why in words, not as the browser's HTTP error.
    const big = path.join(ARTIFACTS, 'office-import-big.csv');
    writeFileSync(big, Buffer.alloc(20 * 1024 * 1024 + 1, 'a'));
    await page.getByTestId('import-file').setInputFiles(big);
    await page.getByTestId('import-check').click();
    await page.getByText('The file is larger than 20 MiB').waitFor();
    expect(await page.getByText(/AxiosError|status code 413/).count()).toBe(0);
  }), 60_000);

  it("picks a staff member's designation from the school's list, shows what they may do in words, and the change in the Audit log", walk('designation', async () => {
    await page.goto(`${server.url}/admin/resources/staff/records/${staffId}/edit`);
    await page.locator('#designation').click();
    await page.keyboard.type('Office');
    await page.getByRole('option', { name: 'Office Staff', exact: true }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(new RegExp(`/admin/resources/staff/records/${staffId}/show`));
    const permissions = page.getByTestId('effective-permissions');
    await permissions.getByText(/from Office Staff/).first().waitFor();
    const words = await permissions.innerText();
    expect(words).toMatch(/Feature\s+May/);
    expect(words).toContain('from Office Staff');
    expect(words).not.toMatch(/\b(rbac|none|read|create|manage)\b(?!,)/);

    // The Audit log's page of that change: the field by its label, before and after, and who made it, linked.
    const eventId = await page.evaluate(async (id) => {
      const res = await fetch(`/admin/api/resources/audit_events/actions/list?filters.action=staff.update&filters.entity_id=${id}&perPage=1`);
      return ((await res.json()) as { records: Array<{ id: string }> }).records[0]!.id;
    }, staffId);
    await page.goto(`${server.url}/admin/resources/audit_events/records/${eventId}/show`);
    await expect(page.getByTestId('audit-changes').locator('tr', { hasText: 'Designation' }).innerText()).resolves.toMatch(/Designation\s+Class Teacher\s+Office Staff/);
    await expect(page.getByRole('link', { name: 'Asha Principal' }).first().getAttribute('href')).resolves.toMatch(/\/admin\/resources\/admin_users\/records\/\d+\/show$/);
    await expect(page.getByRole('link', { name: 'Rahul Mehta' }).first().getAttribute('href')).resolves.toBe(`/admin/resources/staff/records/${staffId}/show`);
  }), 60_000);

  // The notice is for the Choir, which has no member yet: nobody has read it, and nobody can be told.
  it('says so when a reminder reaches nobody', walk('remind-nobody', async () => {
    await openAction('notices', noticeId, 'Remind unread');
    await page.getByRole('button', { name: /confirm/i }).click();
    await page.getByText('No family in the audience can be reached: no reminder sent').waitFor();
  }), 60_000);

  it("keeps a new webhook's signing secret on screen until dismissed", walk('webhook-secret', async () => {
    await page.goto(`${server.url}/admin/resources/webhooks/actions/new`);
    await page.getByTestId('new-form').waitFor();
    await page.getByRole('heading', { name: 'New webhook', exact: true }).waitFor();
    await page.fill('input[name="url"]', 'http://127.0.0.1:9/school-hooks');
    await page.getByRole('button', { name: 'Add another' }).click();
    await page.getByTestId('new-form').locator('input[id^="react-select"]').last().click();
    await page.getByRole('option', { name: 'Notice published', exact: true }).click();
    await page.getByTestId('button-save').click();
    await expectSecretPanel(/^\S{20,}$/);
    await expect(page.getByTestId('one-time-secret').innerText()).resolves.toContain('signing secret');
    await page.getByTestId('one-time-secret-done').click();
    await page.waitForURL(/\/admin\/resources\/webhooks\/records\/\d+\/show/);
  }), 60_000);

  it("offers a super_admin every role a school's admin user may have, and picks Admin from \"admin\" and Enter", walk('role-picker', async () => {
    await page.goto(`${server.url}/admin/resources/admin_users/actions/new`);
    await page.locator('#role').click();
    const offered = await page.getByRole('option').allInnerTexts();
    expect(offered).toEqual(['Admin', 'Super admin', 'IT contact']);
    // Typing filters on the start of a label: "admin" then Enter picks Admin, not Super admin.
    await page.keyboard.type('admin');
    await page.keyboard.press('Enter');
    const form = page.locator('section[data-css="app-content"]');
    await form.getByText('Admin', { exact: true }).waitFor();
    expect(await form.getByText('Super admin', { exact: true }).count()).toBe(0);
  }), 60_000);

  it('finds a student from the quick search box on the Students list', walk('quick-search', async () => {
    await page.goto(`${server.url}/admin/resources/students`);
    await page.getByTestId('quick-search').fill('kabir');
    await page.getByTestId('quick-search').press('Enter');
    await page.waitForURL(/filters\.q=kabir/);
    await page.locator('tr', { hasText: 'Kabir Patel' }).waitFor();
    await expect(page.locator('tbody tr').count()).resolves.toBe(1);
  }), 60_000);
});

describe("the console's words, page by page, as a super_admin", () => {
  /** Every list of the menu, then the page of its newest record. */
  const resources = [
    'students', 'parents', 'student_groups', 'group_members', 'staff', 'designations', 'notices', 'activities', 'form_responses', 'write_to_requests',
    'write_to_replies', 'comments', 'reactions', 'diary_entries', 'attendance', 'grades', 'admin_users', 'school_settings', 'sessions', 'notifications',
    'audit_events', 'webhooks', 'webhook_deliveries',
  ];
  /** What staff should never read: an unfilled placeholder, a code in place of its label, a value the page could not show. */
  const ROBOTIC = /\{\{|\}\}|undefined|\[object Object\]|Invalid date|NaN|\b[a-z]+_[a-z_]+\b|\b(?:resources|actions|properties|labels|messages)\.[a-zA-Z]/;

  it('shows every list and record page in words, with no placeholder, code or broken value', walk('words-sweep', async () => {
    const found: string[] = [];
    for (const resource of resources) {
      await page.goto(`${server.url}/admin/resources/${resource}`);
      await page.locator('table tbody tr, [data-testid="no-records"], section[data-css$="-no-records"]').or(page.getByText('Nothing here yet')).first().waitFor();
      const list = await page.locator('section[data-css="app-content"]').innerText();
      const listBad = ROBOTIC.exec(list);
      if (listBad) found.push(`${resource} list: ${listBad[0]}`);
      const first = await page.evaluate(async (r) => {
        const res = await fetch(`/admin/api/resources/${r}/actions/list?perPage=1`);
        return ((await res.json()) as { records: Array<{ id: string }> }).records[0]?.id ?? null;
      }, resource);
      if (first === null) continue;
      await page.goto(`${server.url}/admin/resources/${resource}/records/${first}/show`);
      await page.locator('section[data-css$="-show"], [data-testid="property-show-id"], h2, h3').first().waitFor();
      await browser.settled();
      const heading = await page.locator('section[data-css="app-content"] h2').first().innerText();
      if (['New', 'Edit', 'Details'].includes(heading.trim())) found.push(`${resource} page ${first}: titled "${heading.trim()}"`);
      const shown = await page.locator('section[data-css="app-content"]').innerText();
      const showBad = ROBOTIC.exec(shown);
      if (showBad) found.push(`${resource} page ${first}: ${showBad[0]}`);
    }
    expect(found).toEqual([]);
  }), 180_000);

  it('shows statuses as badges coloured by meaning', walk('status-badges', async () => {
    await page.goto(`${server.url}/admin/resources/students?perPage=50`);
    const badge = (name: string) => page.locator('tr', { hasText: name }).locator('[data-tone]');
    await expect(badge('Tara Joshi').getAttribute('data-tone')).resolves.toBe('green');
    await expect(badge('Tara Joshi').innerText()).resolves.toBe('Active');
    await expect(badge('Anika Iyer').getAttribute('data-tone')).resolves.toBe('amber');
    await expect(badge('Anika Iyer').innerText()).resolves.toBe('Registered');
    await page.goto(`${server.url}/admin/resources/write_to_requests/records/${family.requestId}/show`);
    await expect(page.locator('[data-tone]', { hasText: 'Resolved' }).first().getAttribute('data-tone')).resolves.toBe('green');
  }), 60_000);

  it('opens the list each dashboard count counts: the write-to requests still waiting, the registered students', walk('dashboard-links', async () => {
    await page.goto(`${server.url}/admin`);
    const waiting = page.getByTestId('open-write-to');
    const count = Number(/Write-to requests waiting\s+(\d+)/.exec(await waiting.innerText())![1]);
    await waiting.click();
    await page.waitForURL(/\/admin\/resources\/write_to_requests\?filters\.status=open%2Cin_progress/);
    if (count === 0) await page.getByText(/Nothing here yet/).first().waitFor();
    else await page.locator('table tbody tr').first().waitFor();
    expect(await page.locator('table tbody tr').count()).toBe(count);
    await page.goto(`${server.url}/admin`);
    await page.getByTestId('students-registered').click();
    await page.waitForURL(/\/admin\/resources\/students\?filters\.status=registered/);
    await page.locator('tr', { hasText: 'Anika Iyer' }).waitFor();
    expect(await page.locator('tr', { hasText: 'Tara Joshi' }).count()).toBe(0);
  }), 60_000);
});

describe('the school office in a browser, as a plain admin', () => {
  beforeAll(async () => {
    await page.goto(`${server.url}/admin/logout`);
    await signIn(PLAIN_EMAIL);
  }, 60_000);

  it('is offered no admin users to manage, and is told so in a sentence when opening them', walk('plain-admin-users', async () => {
    expect(await page.locator('a[href="/admin/resources/admin_users"]').count()).toBe(0);
    await page.goto(`${server.url}/admin/resources/admin_users/actions/new`);
    await page.getByText(/You may not|not allowed|cannot/i).first().waitFor();
    expect(await page.locator('#role').count()).toBe(0);
    expect(await page.locator('body').innerText()).not.toMatch(/\{\{|forbiddenError|error404/);
  }), 60_000);

  it("adds a student with their guardian and replies to a parent's request", walk('plain-admin-jobs', async () => {
    await page.goto(`${server.url}/admin/resources/students/actions/new`);
    await page.getByTestId('new-form').waitFor();
    await page.fill('input[name="student_full_name"]', 'Neel Kapoor');
    await page.locator('#grade').click();
    await page.getByRole('option', { name: '3', exact: true }).click();
    await page.fill('input[name="phone_no"]', '9866666666');
    await page.fill('input[name="father_name"]', 'Arjun Kapoor');
    await page.getByTestId('button-save').click();
    await expectSecretPanel(/^https:\/\/office\.greenwood\.example\/set-pin\?token=/);
    await page.getByTestId('one-time-secret-done').click();
    await page.waitForURL(/\/admin\/resources\/students\/records\/\d+\/show/);

    await openAction('write_to_requests', family.requestId!, 'Reply');
    await page.locator('#field-message').fill('Also: the bus is 10 minutes late on Monday.');
    await page.getByTestId('action-form-submit').click();
    await page.getByText('Reply sent to the parent').waitFor();
    const reply = page.getByTestId('thread-entry').filter({ hasText: 'the bus is 10 minutes late on Monday' });
    await reply.waitFor();
    await expect(reply.innerText()).resolves.toContain('Office Clerk');
    expect(browser.pageErrors).toEqual([]);
  }), 60_000);
});
