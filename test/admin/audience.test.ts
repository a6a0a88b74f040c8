import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Grade } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { bearer, parent, parentLogin, school, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';
import { consoleApi, ids, noticeOf, signInConsole, type ConsoleApi } from './console-client.js';

/** The console's audience pickers on notices and activities: grades, groups and students of the admin's own school only. */
let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;
let api: ConsoleApi;
let grade5: number;
let busGroup: number;
let foreignGroup: number;
let foreignStudent: number;
let child: { id: number; token: string };
let other: { id: number; token: string };
let author: string;

async function family(grade: string) {
  const p = await parent(t.ctx, a.schoolId);
  const c = await student(a.schoolId, p.id, { grade });
  return { id: c.id, token: await parentLogin(t, p.phone, p.pin, a.schoolId) };
}

beforeAll(async () => {
  t = await startTestApp({ ADMIN_CONSOLE_ENABLED: 'true' });
  a = await school(t);
  b = await school(t);
  child = await family('5');
  other = await family('6');
  grade5 = (await Grade.findOne({ where: { school_id: a.schoolId, name: '5' }, raw: true }))!.id;
  busGroup = (await t.api.post('/web-app/groups').set(bearer(a.adminToken)).send({ name: 'Bus 4', student_ids: [other.id] })).body.data.id;
  foreignGroup = (await t.api.post('/web-app/groups').set(bearer(b.adminToken)).send({ name: 'Bus 9' })).body.data.id;
  foreignStudent = (await student(b.schoolId, null, { grade: '5' })).id;
  author = String((await staffMember(a.schoolId)).id);
  api = consoleApi(await signInConsole(t, a.adminEmail));
});
afterAll(async () => t.close());

const boardIds = async (token: string) => ((await t.api.get('/parent-app/noticeboard').set(bearer(token))).body.data as Array<{ id: number }>).map((n) => n.id);

describe('audience pickers', () => {
  it('creates a notice for a grade and a group, shows the pickers filled, and the families see it by the audience', async () => {
    const created = await api.create('notices', { notice_title: 'Grade 5 and the bus', notice_type: 'event', 'audience_grades.0': String(grade5), 'audience_groups.0': String(busGroup) });
    expect(noticeOf(created)?.type).toBe('success');
    const id = Number(created.body.record.id);
    const shown = await api.show('notices', id);
    expect(shown.body.record.params).toMatchObject({ 'audience_grades.0': grade5, 'audience_groups.0': busGroup });
    expect(shown.body.record.populated['audience_grades.0'].title).toBe('5');
    expect(shown.body.record.populated['audience_groups.0'].title).toBe('Bus 4');
    const rest = await t.api.get('/web-app/noticeboard').query({ school_id: a.schoolId }).set(bearer(a.adminToken));
    expect((rest.body.data.notices as Array<{ id: number; audience: unknown }>).find((n) => n.id === id)?.audience).toEqual({ grades: ['5'], group_ids: [busGroup], student_ids: [] });
    expect(await boardIds(child.token)).toContain(id);
    expect(await boardIds(other.token)).toContain(id);
  });

  it('an edit of one picker keeps the others; emptying every picker makes it school-wide', async () => {
    const id = Number((await api.create('notices', { notice_title: 'Picnic', notice_type: 'event', 'audience_grades.0': String(grade5) })).body.record.id);
    expect(await boardIds(other.token)).not.toContain(id);
    const edited = await api.edit('notices', id, { notice_title: 'Picnic', 'audience_grades.0': String(grade5), 'audience_students.0': String(other.id) });
    expect(noticeOf(edited)?.type).toBe('success');
    expect(edited.body.record.params).toMatchObject({ 'audience_grades.0': grade5, 'audience_students.0': other.id });
    expect(await boardIds(other.token)).toContain(id);
    const cleared = await api.edit('notices', id, { notice_title: 'Picnic', audience_grades: '__FORM_VALUE_EMPTY_ARRAY__', audience_students: '__FORM_VALUE_EMPTY_ARRAY__' });
    expect(noticeOf(cleared)?.type).toBe('success');
    expect(Object.keys(cleared.body.record.params).filter((k) => k.startsWith('audience_grades') || k.startsWith('audience_students'))).toEqual([]);
    const untouched = await api.edit('notices', id, { notice_title: 'Picnic at noon' });
    expect(noticeOf(untouched)?.type).toBe('success');
    expect(await boardIds(child.token)).toContain(id);
  });

  it("refuses another school's group, student or grade on the picker that named it", async () => {
    for (const [field, value] of [['audience_groups.0', foreignGroup], ['audience_students.0', foreignStudent], ['audience_grades.0', 999_999]] as const) {
      const res = await api.create('activities', { title: 'Not ours', staff_id: author, 'audience_groups.0': String(busGroup), [field]: String(value) });
      expect(res.body.notice?.type).toBe('error');
      expect(Object.keys(res.body.record?.errors ?? {})).toContain(field.split('.')[0]);
    }
    expect(ids(await api.list('activities', { 'filters.title': 'Not ours' }))).toEqual([]);
  });

  it('the pickers search the school of the admin only', async () => {
    const groups = await api.search('student_groups', 'Bus');
    expect((groups.body.records as Array<{ id: string }>).map((r) => Number(r.id))).toEqual([busGroup]);
    const students = await api.search('students', '');
    expect((students.body.records as Array<{ id: string }>).map((r) => Number(r.id))).not.toContain(foreignStudent);
  });

  it('creates an activity for one student: only that family sees it, and its audience names the student', async () => {
    const created = await api.create('activities', { title: 'Well done', staff_id: author, status: 'published', 'audience_students.0': String(child.id) });
    expect(noticeOf(created)?.type).toBe('success');
    const id = Number(created.body.record.id);
    const feed = async (token: string) => ((await t.api.get('/parent-app/activities').set(bearer(token))).body.data as Array<{ id: number }>).map((x) => x.id);
    expect(await feed(child.token)).toContain(id);
    expect(await feed(other.token)).not.toContain(id);
    expect((await api.show('activities', id)).body.record.params).toMatchObject({ 'audience_students.0': child.id });
  });
});
