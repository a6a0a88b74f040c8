import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { AuditEvent, Designation, Group, GroupMember, Notice, Notification, Parent, Staff, Student, WriteToReply, WriteToRequest } from '../../src/models/index.js';
import { consoleLocale, hasLabel } from '../../src/admin/locale.js';
import { consoleResources } from '../../src/admin/resources/index.js';
import type { ScopedResource } from '../../src/admin/scoped-resource.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { adminUser, bearer, parent, parentLogin, school, staffMember, student, uniquePhone, type SchoolFixture } from '../helpers/fixtures.js';
import { consoleApi, ids, noticeOf, signInConsole, type ConsoleApi } from './console-client.js';

/**
 * The school office's everyday jobs in the console (CONTRACT.md section 27), as its pages ask them
 * of the console's API: a student added with their guardian, a parent's page, a request answered,
 * a group's members, and the words every refusal is given in. The browser walks the same pages in
 * office-browser.test.ts.
 */
let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;
let sa: ConsoleApi;
let plain: ConsoleApi;

beforeAll(async () => {
  t = await startTestApp({ ADMIN_CONSOLE_ENABLED: 'true', PUBLIC_APP_URL: 'https://office.greenwood.example' });
  a = await school(t);
  b = await school(t);
  sa = consoleApi(await signInConsole(t, a.adminEmail));
  plain = consoleApi(await signInConsole(t, (await adminUser(t, a.schoolId, 'admin')).email));
}, 180_000);
afterAll(async () => t.close());

/** What a refusal must never read like: a zod message, a column name, an AdminJS key or an unfilled placeholder. */
const ROBOTIC = /Invalid input|Invalid option|Unrecognized key|Too small|Too big|expected \w+|received|\b[a-z]+_[a-z_]+\b|\{\{|YYYY|forbiddenError|thereWereValidationErrors/;

const newStudent = (fields: Record<string, string>) => ({
  student_full_name: 'Asha Rao', grade: '5', gender: 'female', date_of_birth: '2016-04-12', phone_no: uniquePhone(), father_name: 'Ravi Rao', status: 'active', ...fields,
});

describe('New student (with guardian) on the Students list', () => {
  it('adds the student and a new guardian, showing the PIN set-up link once as a one-time secret', async () => {
    const form = newStudent({ mother_name: 'Meena Rao', email: 'ravi@example.com', address: '12 Lake Rd', city: 'Pune', pincode: '411001' });
    const res = await plain.create('students', form);
    expect(noticeOf(res)).toEqual({ type: 'success', message: 'Student created' });
    const link = res.body.secret.value as string;
    expect(res.body.secret.label).toMatch(/set their PIN/);
    expect(link).toMatch(/^https:\/\/office\.greenwood\.example\/set-pin\?token=/);
    expect(JSON.stringify(res.body.record)).not.toContain(link);
    const created = (await Student.findByPk(Number(res.body.record.id), { raw: true }))!;
    expect(created).toMatchObject({ school_id: a.schoolId, student_full_name: 'Asha Rao', status: 'active', phone_no: form.phone_no });
    expect(await Parent.findByPk(created.parent_id!, { raw: true })).toMatchObject({ father_name: 'Ravi Rao', mother_name: 'Meena Rao', pin_hash: null });
    const events = JSON.stringify(await AuditEvent.findAll({ where: { school_id: a.schoolId }, raw: true }));
    expect(events).toContain('student.create');
    expect(events).not.toContain(new URL(link).searchParams.get('token'));
  });

  it("links a phone the school's parent already has to that parent, keeping their PIN: nothing secret to show", async () => {
    const p = await parent(t.ctx, a.schoolId);
    const res = await sa.create('students', newStudent({ phone_no: p.phone, status: 'registered' }));
    expect(res.body.secret).toBeUndefined();
    expect(await Student.findByPk(Number(res.body.record.id), { raw: true })).toMatchObject({ parent_id: p.id, status: 'registered' });
    await parentLogin(t, p.phone, p.pin, a.schoolId);
  });

  it('refuses in sentences, each on its field, naming the allowed values by their labels; writes nothing', async () => {
    const before = await Student.count({ where: { school_id: a.schoolId } });
    const res = await sa.create('students', { student_full_name: 'No Grade', phone_no: '12', status: 'inactive', email: 'not-an-email' });
    const errors = res.body.record.errors as Record<string, { message: string }>;
    expect(errors.grade!.message).toBe('Grade is required');
    expect(errors.phone_no!.message).toMatch(/^Guardian's phone /);
    expect(errors.status!.message).toBe('Status must be one of Registered or Active');
    expect(errors.email!.message).toBe("Guardian's e-mail is not a valid e-mail address");
    for (const e of Object.values(errors)) expect(e.message).not.toMatch(ROBOTIC);
    expect(noticeOf(res)!.type).toBe('error');
    expect(noticeOf(res)!.message).not.toMatch(ROBOTIC);
    expect(await Student.count({ where: { school_id: a.schoolId } })).toBe(before);
  });

  it('refuses a taken roll number on its field', async () => {
    await student(a.schoolId, null, { roll_no: 'TAKEN-1' });
    const res = await sa.create('students', newStudent({ roll_no: 'TAKEN-1' }));
    expect(res.body.record.errors.roll_no.message).toMatch(/^Roll number /);
    expect(noticeOf(res)!.message).not.toMatch(ROBOTIC);
  });
});

describe("A parent's page", () => {
  it('lists their children, linked, with roll number, grade and status in words', async () => {
    const p = await parent(t.ctx, a.schoolId, { father_name: 'Suresh Iyer' });
    const older = await student(a.schoolId, p.id, { name: 'Ananya Iyer', grade: '7', roll_no: 'IY-1' });
    await student(a.schoolId, p.id, { name: 'Arjun Iyer', grade: '3', roll_no: 'IY-2', status: 'registered' });
    const shown = await sa.show('parents', p.id);
    const params = shown.body.record.params as Record<string, unknown>;
    expect(params['children.0.student_full_name']).toBe('Ananya Iyer');
    expect(params['children.0.id']).toBe(older.id);
    expect(params).toMatchObject({ 'children.0.roll_no': 'IY-1', 'children.0.grade': '7', 'children.1.student_full_name': 'Arjun Iyer', 'children.1.status_label': 'Registered', has_pin: 1 });
  });

  it("edits the parent: a new phone is their children's too; a phone another parent has is refused on its field", async () => {
    const p = await parent(t.ctx, a.schoolId);
    const child = await student(a.schoolId, p.id, { phone_no: p.phone });
    const other = await parent(t.ctx, a.schoolId);
    const taken = await sa.edit('parents', p.id, { phone_no: other.phone });
    expect(taken.body.record.errors.phone_no.message).toBe('Phone already belongs to another parent');
    const phone = uniquePhone();
    expect(noticeOf(await sa.edit('parents', p.id, { phone_no: phone, mother_name: 'Lakshmi' }))).toEqual({ type: 'success', message: 'Parent saved' });
    expect(await Student.findByPk(child.id, { raw: true })).toMatchObject({ phone_no: phone });
    await parentLogin(t, phone, p.pin, a.schoolId);
  });

  it('Reset PIN: a made-up PIN shown once as a one-time secret, or the PIN the admin chose; the old sessions end', async () => {
    const p = await parent(t.ctx, a.schoolId, { father_name: 'Manoj Patel' });
    const token = await parentLogin(t, p.phone, p.pin, a.schoolId);
    const made = await plain.perform('parents', p.id, 'resetPin', { pin: '' });
    expect(made.body.secret.label).toBe('New PIN for Manoj Patel');
    expect((await t.api.get('/parent-app/sessions').set({ Authorization: `Bearer ${token}` })).status).toBe(401);
    await parentLogin(t, p.phone, made.body.secret.value, a.schoolId);
    const chosen = await plain.perform('parents', p.id, 'resetPin', { pin: '97531' });
    expect(chosen.body.secret).toBeUndefined();
    await parentLogin(t, p.phone, '97531', a.schoolId);
    expect(await AuditEvent.count({ where: { school_id: a.schoolId, action: 'pin.reset', entity_id: String(p.id) } })).toBe(2);
  });

  it("is not found for another school's parent, and its actions do not run", async () => {
    const theirs = await parent(t.ctx, b.schoolId);
    const shown = await sa.show('parents', theirs.id);
    expect(shown.body.record?.params ?? {}).toEqual({});
    const reset = await sa.perform('parents', theirs.id, 'resetPin', { pin: '' });
    expect(reset.body.secret).toBeUndefined();
    await parentLogin(t, theirs.phone, theirs.pin, b.schoolId);
  });
});

describe("A write-to request's page", () => {
  it('shows the conversation; Reply, Assign (and unassign) and Resolve work through the write-to service', async () => {
    const p = await parent(t.ctx, a.schoolId, { father_name: 'Ganesh Iyer' });
    const st = await student(a.schoolId, p.id);
    const teacher = await staffMember(a.schoolId, { name: 'Rahul Mehta' });
    const thread = await WriteToRequest.create({ school_id: a.schoolId, parent_id: p.id, student_id: st.id, type: 'query', subject: 'Bus timing', message: 'When does the bus leave?' });

    const replied = await plain.perform('write_to_requests', thread.id, 'reply', { message: 'At 7:40 from the main gate.' });
    expect(noticeOf(replied)).toEqual({ type: 'success', message: 'Reply sent to the parent' });
    expect(await WriteToReply.findOne({ where: { write_to_id: thread.id }, raw: true })).toMatchObject({ author_type: 'admin', author_name: 'admin user' });
    const page = (await plain.show('write_to_requests', thread.id)).body.record.params as Record<string, unknown>;
    expect(page).toMatchObject({
      status: 'in_progress', 'thread.0.author': 'Ganesh Iyer', 'thread.0.message': 'When does the bus leave?',
      'thread.1.author': 'admin user', 'thread.1.role': 'Admin user', 'thread.1.message': 'At 7:40 from the main gate.',
    });

    expect(noticeOf(await plain.perform('write_to_requests', thread.id, 'assign', { assigned_staff_id: String(teacher.id) }))!.type).toBe('success');
    expect((await WriteToRequest.findByPk(thread.id))!.assigned_staff_id).toBe(teacher.id);
    expect(noticeOf(await plain.perform('write_to_requests', thread.id, 'assign', { assigned_staff_id: '' }))!.message).toBe('Nobody is assigned to the request now');
    expect((await WriteToRequest.findByPk(thread.id))!.assigned_staff_id).toBeNull();

    const theirs = await staffMember(b.schoolId);
    const refused = await plain.perform('write_to_requests', thread.id, 'assign', { assigned_staff_id: String(theirs.id) });
    expect(noticeOf(refused)!.type).toBe('error');
    expect((await WriteToRequest.findByPk(thread.id))!.assigned_staff_id).toBeNull();

    expect(noticeOf(await plain.act('write_to_requests', thread.id, 'resolve'))!.type).toBe('success');
    expect((await WriteToRequest.findByPk(thread.id))!.status).toBe('resolved');
  });

  it('refuses an empty reply with a sentence on its field', async () => {
    const p = await parent(t.ctx, a.schoolId);
    const thread = await WriteToRequest.create({ school_id: a.schoolId, parent_id: p.id, type: 'query', subject: 'Empty', message: 'Hello' });
    const res = await sa.perform('write_to_requests', thread.id, 'reply', { message: '   ' });
    expect(res.body.record.errors.message.message).toBe('Reply is required');
    expect(await WriteToReply.count({ where: { write_to_id: thread.id } })).toBe(0);
  });
});

describe("A group's page", () => {
  it('adds several students at once, lists them, and takes one out', async () => {
    const group = await Group.create({ school_id: a.schoolId, name: 'Bus 4' });
    const kids = await Promise.all(['Diya', 'Kabir', 'Meera'].map((name) => student(a.schoolId, null, { name: `${name} Patel` })));
    const added = await plain.perform('student_groups', group.id, 'addMembers', { student_ids: kids.map((k) => k.id).join(',') });
    expect(noticeOf(added)).toEqual({ type: 'success', message: 'Added to Bus 4; it has 3 member(s) now' });
    const params = (await plain.show('student_groups', group.id)).body.record.params as Record<string, unknown>;
    expect([0, 1, 2].map((i) => params[`members.${i}.student_full_name`])).toEqual(['Diya Patel', 'Kabir Patel', 'Meera Patel']);
    expect(noticeOf(await plain.perform('student_groups', group.id, 'removeMember', { student_id: String(kids[1]!.id) }))!.type).toBe('success');
    expect((await GroupMember.findAll({ where: { group_id: group.id }, raw: true })).map((m) => m.student_id).sort()).toEqual([kids[0]!.id, kids[2]!.id].sort());
  });

  it("adds nobody when one of the students is another school's", async () => {
    const group = await Group.create({ school_id: a.schoolId, name: 'Choir' });
    const mine = await student(a.schoolId, null);
    const theirs = await student(b.schoolId, null);
    const res = await sa.perform('student_groups', group.id, 'addMembers', { student_ids: `${mine.id},${theirs.id}` });
    expect(noticeOf(res)!.type).toBe('error');
    expect(await GroupMember.count({ where: { group_id: group.id } })).toBe(0);
  });
});

describe('finding people: the quick search box', () => {
  it('finds students by name, roll number or phone, and parents by phone, within the school only', async () => {
    const phone = uniquePhone();
    const p = await parent(t.ctx, a.schoolId, { phone });
    const mine = await student(a.schoolId, p.id, { name: 'Zubin Quickfind', roll_no: 'QF-77', phone_no: phone });
    await student(b.schoolId, null, { name: 'Zubin Quickfind', roll_no: 'QF-77' });
    for (const q of ['quickfind', 'QF-77', phone.slice(-6)]) expect(ids(await sa.list('students', { 'filters.q': q }))).toEqual([mine.id]);
    expect(ids(await sa.list('parents', { 'filters.q': phone }))).toEqual([p.id]);
  });
});

describe('what lists and pages show', () => {
  it("names the account of a session, linked to it, and the school's dashboard counts open their lists", async () => {
    const p = await parent(t.ctx, a.schoolId, { father_name: 'Srinivas Reddy' });
    await parentLogin(t, p.phone, p.pin, a.schoolId);
    const row = (await sa.list('sessions', { 'filters.user_type': 'parent', 'filters.user_id': p.id })).body.records[0];
    expect(row.params).toMatchObject({ 'account.label': 'Srinivas Reddy', 'account.href': `/admin/resources/parents/records/${p.id}/show` });

    const waiting = await WriteToRequest.create({ school_id: a.schoolId, parent_id: p.id, type: 'query', subject: 'Waiting', message: 'x', status: 'in_progress' });
    const done = await WriteToRequest.create({ school_id: a.schoolId, parent_id: p.id, type: 'query', subject: 'Done', message: 'x', status: 'resolved' });
    const listed = ids(await sa.list('write_to_requests', { 'filters.status': 'open,in_progress', perPage: 500 }));
    expect(listed).toContain(waiting.id);
    expect(listed).not.toContain(done.id);
  });

  it("shows an audit event's changes one row per field, by the field's label", async () => {
    const s = await staffMember(a.schoolId, { name: 'Audit Trail' });
    await sa.edit('staff', s.id, { name: 'Audit Trailed' });
    const event = (await AuditEvent.findOne({ where: { school_id: a.schoolId, action: 'staff.update', entity_id: String(s.id) }, raw: true }))!;
    const params = (await sa.show('audit_events', event.id)).body.record.params as Record<string, unknown>;
    expect(params).toMatchObject({ 'change_rows.0.field': 'Name', 'change_rows.0.before': 'Audit Trail', 'change_rows.0.after': 'Audit Trailed', 'item.label': 'Audit Trailed' });
    // Never the raw JSON of the changes.
    expect(Object.keys(params).filter((k) => k.startsWith('changes') && params[k] !== null)).toEqual([]);
  });

  it("gives a staff member's page what they may do, in words, with where each level comes from", async () => {
    const s = await staffMember(a.schoolId, { designation: 'Office Staff', rbac: { diary: 'manage' } });
    const params = (await sa.show('staff', s.id)).body.record.params as Record<string, unknown>;
    const rows = Object.fromEntries([0, 1, 2, 3, 4, 5].map((i) => [params[`permissions.${i}.feature`], params[`permissions.${i}.level`]]));
    expect(rows.Diary).toBe('Manage, own');
    expect(rows.Noticeboard).toMatch(/^\w+, from Office Staff$|^None$/);
    expect(Object.keys(params).some((k) => /^rbac\./.test(k) && params[k] === '')).toBe(false);
  });

  it("refuses a designation the school does not have, naming the field by its label", async () => {
    const s = await staffMember(a.schoolId);
    const res = await sa.edit('staff', s.id, { designation: 'Head of Nothing' });
    expect(res.body.record.errors.designation.message).toMatch(/^Designation /);
    expect(res.body.record.errors.designation.message).not.toMatch(ROBOTIC);
  });
});

describe('Remind on a notice that reaches nobody', () => {
  it('says why in words and writes nothing (no record, no audit event, the hour not started): no family in the audience, then every family has read it', async () => {
    const quiet = await school(t);
    const admin = consoleApi(await signInConsole(t, quiet.adminEmail));
    const notice = await Notice.create({ school_id: quiet.schoolId, notice_title: 'Sports day', notice_type: 'event', published_at: new Date() });
    const nothingWritten = async () => {
      expect((await Notice.findByPk(notice.id))!.reminded_at).toBeNull();
      expect(await Notification.count({ where: { school_id: quiet.schoolId, event: 'reminder' } })).toBe(0);
      expect(await AuditEvent.count({ where: { school_id: quiet.schoolId, action: 'noticeboard.remind' } })).toBe(0);
    };
    // The school has no family yet: nobody has read the notice, and nobody can be told.
    expect(noticeOf(await admin.act('notices', notice.id, 'remind'))).toEqual({ type: 'info', message: 'No family in the audience can be reached: no reminder sent' });
    await nothingWritten();

    const family = await parent(t.ctx, quiet.schoolId);
    await student(quiet.schoolId, family.id, { grade: '5' });
    const token = await parentLogin(t, family.phone, family.pin, quiet.schoolId);
    expect((await t.api.post('/parent-app/engagement/read').set('Authorization', `Bearer ${token}`).send({ entity_type: 'noticeboard', entity_id: notice.id })).status).toBe(200);
    expect(noticeOf(await admin.act('notices', notice.id, 'remind'))).toEqual({ type: 'info', message: 'Every family has read it: no reminder sent' });
    await nothingWritten();
  });
});

describe("the console's words", () => {
  it('labels every field a list, a page, a form or a filter shows, in words of its own', async () => {
    const unlabelled: string[] = [];
    for (const { resource, options } of consoleResources(t.ctx)) {
      const id = (resource as ScopedResource).id();
      const shown = new Set([...(options.listProperties ?? []), ...(options.showProperties ?? []), ...(options.editProperties ?? []), ...(options.filterProperties ?? [])]);
      for (const field of shown) if (field !== 'id' && !hasLabel(id, field)) unlabelled.push(`${id}.${field}`);
    }
    expect(unlabelled).toEqual([]);
  });

  it('gives every AdminJS message a whole sentence with no placeholder left to fill', () => {
    const { messages, buttons, labels } = consoleLocale.translations.en;
    for (const key of ['forbiddenError', 'anyForbiddenError', 'error404Resource', 'error404Action', 'error404Record', 'thereWereValidationErrors', 'successfullyBulkDeleted']) {
      expect(messages[key]).toMatch(/^[A-Z].*[.]$/);
    }
    expect(JSON.stringify({ messages, buttons, labels })).not.toContain('{{');
  });

  it("titles every resource's New, Edit and Details pages by what its record is, never a bare \"New\"", () => {
    const { resources } = consoleLocale.translations.en;
    const bare: string[] = [];
    for (const { resource } of consoleResources(t.ctx)) {
      const id = (resource as ScopedResource).id();
      const titles: Record<string, string> = resources[id]?.actions ?? {};
      for (const action of ['new', 'edit', 'show']) if (!titles[action] || ['New', 'Edit', 'Details'].includes(titles[action])) bare.push(`${id}.${action}`);
    }
    expect(bare).toEqual([]);
    expect(resources.webhooks!.actions).toMatchObject({ new: 'New webhook', edit: 'Edit webhook', show: 'Webhook details' });
    expect(resources.staff!.actions).toMatchObject({ new: 'New staff member', edit: 'Edit staff member', show: 'Staff member details' });
    expect(resources.students!.actions).toMatchObject({ new: 'Add a student', edit: 'Edit student' });
    expect(resources.school_settings!.actions).toMatchObject({ edit: 'Edit school settings', show: 'School settings' });
  });

  it("offers the Role field's roles in the office's order and words, never the operator's", async () => {
    const role = consoleResources(t.ctx).find(({ resource }) => (resource as ScopedResource).id() === 'admin_users')!.options.properties!.role!;
    expect(role.availableValues).toEqual([{ value: 'admin', label: 'Admin' }, { value: 'super_admin', label: 'Super admin' }, { value: 'it_contact', label: 'IT contact' }]);
    const offered = await sa.agent.get('/admin/api/resources/admin_users/actions/roleChoices');
    expect(offered.body.choices).toEqual([{ value: 'admin', label: 'Admin' }, { value: 'super_admin', label: 'Super admin' }, { value: 'it_contact', label: 'IT contact' }]);
    expect((await plain.agent.get('/admin/api/resources/admin_users/actions/roleChoices')).body.choices).toBeUndefined();
    const refused = await sa.create('admin_users', { name: 'Operator Two', email: 'op2@example.org', password: 'long enough password', role: 'platform_admin' });
    expect(refused.body.record.errors.role.message).toBe('Role must be one of Admin, Super admin or IT contact');
  });
});

describe('deleting a designation that staff hold', () => {
  it('says what was refused and why (as the REST 409 and the bulk delete do), not "ID is in use."', async () => {
    const held = (await Designation.findOne({ where: { school_id: a.schoolId, name: 'Office Staff' } }))!;
    await staffMember(a.schoolId, { designation: 'Office Staff' });

    const rest = await t.api.delete(`/web-app/designations/${held.id}`).set(bearer(a.adminToken));
    expect(rest.status).toBe(409);
    expect(rest.body.message).toMatch(/hold this designation/);

    const res = await sa.remove('designations', held.id);
    expect(noticeOf(res)!.type).toBe('error');
    expect(await Designation.findByPk(held.id)).not.toBeNull();
    expect(noticeOf(res)!.message).not.toBe('ID is in use.');
    expect(noticeOf(res)!.message).toMatch(/staff member\(s\) hold this designation/);
    expect(res.body.record?.errors?.id).toBeUndefined();
  });
});

describe('Reset PIN refusals name the field by its label', () => {
  it('a 3-digit PIN typed in "New PIN (optional)" is refused naming the PIN, not "Pin"', async () => {
    const p = await parent(t.ctx, a.schoolId);
    const s = await staffMember(a.schoolId);
    const st = await student(a.schoolId, p.id);
    for (const [resource, id, action] of [['parents', p.id, 'resetPin'], ['staff', s.id, 'resetPin'], ['students', st.id, 'resetParentPin']] as const) {
      const res = await sa.perform(resource, id, action, { pin: '123' });
      expect(noticeOf(res)!.type).toBe('error');
      expect(res.body.record.errors.pin.message).toMatch(/^(New )?PIN /);
    }
  });
});

describe('the Staff list filter on Designation', () => {
  it('picked from the select of designations, lists only the staff holding that designation', async () => {
    const own = await school(t);
    const api = consoleApi(await signInConsole(t, own.adminEmail));
    expect(noticeOf(await api.create('designations', { name: 'Teacher' }))!.type).toBe('success');
    const teacher = await staffMember(own.schoolId, { designation: 'Teacher', name: 'Plain Teacher' });
    const classTeacher = await staffMember(own.schoolId, { designation: 'Class Teacher', name: 'Class Teacher One' });
    const listed = (await api.list('staff', { 'filters.designation': 'Teacher' })).body.records.map((r: { id: string }) => Number(r.id));
    expect(listed).toContain(teacher.id);
    expect(listed).not.toContain(classTeacher.id);
  });
});

describe('a refused date of birth on the student form', () => {
  it('reads as sentences, not two messages run together with a format code', async () => {
    const st = await student(a.schoolId, null);
    const res = await sa.edit('students', st.id, { date_of_birth: '12/04/2016' });
    expect(noticeOf(res)!.type).toBe('error');
    const message = res.body.record.errors.date_of_birth.message as string;
    expect(message).not.toMatch(ROBOTIC);
    expect(message.match(/Date of birth/g)!.length).toBe(1);
  });
});

describe('a staff member\'s own permissions naming no known feature', () => {
  it('are refused in words, not with zod\'s "Unrecognized key"', async () => {
    const res = await sa.create('staff', { name: 'Odd Rbac', phone_no: '9876511112', 'rbac.cooking': 'view' });
    expect(noticeOf(res)!.type).toBe('error');
    expect(await Staff.count({ where: { school_id: a.schoolId, name: 'Odd Rbac' } })).toBe(0);
    expect(noticeOf(res)!.message).not.toMatch(ROBOTIC);
  });
});
