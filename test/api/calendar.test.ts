import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import supertest, { type Response } from 'supertest';
import { createApp } from '../../src/app.js';
import { Activity } from '../../src/models/index.js';
import { setSchoolStatus } from '../../src/services/schools/schools.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { bearer, expectError, parent, parentLogin, school, staffLogin, staffMember, student, type SchoolFixture } from '../helpers/fixtures.js';

/** Events on activities, the parent and teacher calendars, and the subscription feed, in a school on Asia/Kolkata (UTC+05:30). */
let t: TestApp;
let a: SchoolFixture;
let b: SchoolFixture;
let teacher: string;
let viewerless: string;
let grade5: { id: number; token: string; child: number };
let grade6: { id: number; token: string; child: number };
const ZONE = 'Asia/Kolkata';
const SCHOOL_NAME = 'Greenwood; High, "A\\B"';
const PUBLIC_URL = 'https://school.example.org';
// ical.js reads properties it does not know as raw text: X-WR-CALNAME is a TEXT value (RFC 5545 escaping), as calendar apps read it.
(ICAL.design.icalendar.property as Record<string, { defaultType: string }>)['x-wr-calname'] = { defaultType: 'text' };

beforeAll(async () => {
  t = await startTestApp({ PUBLIC_APP_URL: PUBLIC_URL });
  a = await school(t);
  b = await school(t);
  expect((await t.api.put('/web-app/school').set(bearer(a.adminToken)).send({ timezone: ZONE, name: SCHOOL_NAME })).status).toBe(200);
  const s = await staffMember(a.schoolId, { rbac: { activities: 'create' } });
  teacher = await staffLogin(t, s.phone, s.pin, a.schoolId);
  const none = await staffMember(a.schoolId, { rbac: { activities: 'none' }, designation: 'Office Staff' });
  viewerless = await staffLogin(t, none.phone, none.pin, a.schoolId);
  for (const [grade, holder] of [['5', 'g5'], ['6', 'g6']] as const) {
    const p = await parent(t.ctx, a.schoolId);
    const child = await student(a.schoolId, p.id, { grade });
    const family = { id: p.id, token: await parentLogin(t, p.phone, p.pin, a.schoolId), child: child.id };
    if (holder === 'g5') grade5 = family;
    else grade6 = family;
  }
});
afterAll(async () => t.close());

const post = (body: Record<string, unknown>) => t.api.post('/teachers-app/activities').set(bearer(teacher)).send({ school_id: a.schoolId, title: 'Event', ...body });
const put = (id: number, body: Record<string, unknown>) => t.api.put(`/teachers-app/activities/${id}`).set(bearer(teacher)).send(body);
async function event(body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await post({ activity_type: 'event', ...body });
  expect(res.status).toBe(201);
  return res.body.data;
}
const fields = (res: Response) => [...new Set(((res.body.error?.details ?? []) as Array<{ field: string }>).map((d) => d.field))].sort();
/** A day of the school's zone, `offset` days from today. */
const day = (offset: number) => DateTime.now().setZone(ZONE).plus({ days: offset }).toISODate()!;
/** 10:00 in the school's zone on that day, as an ISO time in UTC. */
const tenOClock = (offset: number) => DateTime.fromISO(`${day(offset)}T10:00`, { zone: ZONE }).toUTC().toISO()!;
const ids = (res: Response) => (res.body.data as Array<{ id: number }>).map((x) => x.id);
/** DTSTART's form of an instant: UTC, no separators. */
const utcStamp = (iso: string) => new Date(iso).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

describe('event fields', () => {
  it('are stored on events and shown by every activity view; announcements show nulls', async () => {
    const e = await event({ starts_at: '2026-12-05T09:00:00+05:30', ends_at: '2026-12-05T15:30:00+05:30', location: 'City Science Museum' });
    expect(e).toMatchObject({ starts_at: '2026-12-05T03:30:00.000Z', ends_at: '2026-12-05T10:00:00.000Z', all_day: false, location: 'City Science Museum', form: null });
    const plain = (await post({})).body.data;
    expect(plain).toMatchObject({ activity_type: 'announcement', starts_at: null, ends_at: null, all_day: false, location: null });
    const teacherList = (await t.api.get('/teachers-app/activities').query({ school_id: a.schoolId, limit: 100 }).set(bearer(teacher))).body.data;
    expect(teacherList.find((x: { id: number }) => x.id === e.id)).toMatchObject({ starts_at: e.starts_at, location: e.location });
    const webList = (await t.api.get('/web-app/activities').query({ school_id: a.schoolId, limit: 100 }).set(bearer(a.adminToken))).body.data.records;
    expect(webList.find((x: { id: number }) => x.id === plain.id)).toMatchObject({ starts_at: null, ends_at: null, all_day: false, location: null });
    const feed = (await t.api.get('/parent-app/activities').set(bearer(grade5.token))).body.data;
    expect(feed.find((x: { id: number }) => x.id === e.id)).toMatchObject({ starts_at: e.starts_at, ends_at: e.ends_at, all_day: false, location: e.location });
  });

  it('take whole days of the school\'s time zone when all day: dates or times become the start of their day there', async () => {
    const dates = await event({ all_day: true, starts_at: '2026-12-05', ends_at: '2026-12-06' });
    expect(dates).toMatchObject({ all_day: true, starts_at: '2026-12-04T18:30:00.000Z', ends_at: '2026-12-05T18:30:00.000Z' });
    const times = await event({ all_day: true, starts_at: '2026-12-05T23:00:00+05:30' });
    expect(times).toMatchObject({ starts_at: '2026-12-04T18:30:00.000Z', ends_at: null });
    const moved = await put(times.id, { starts_at: '2026-12-10' });
    expect(moved.body.data.starts_at).toBe('2026-12-09T18:30:00.000Z');
  });

  it('refuses bad values with 400 naming the field', async () => {
    expect(fields(await post({ activity_type: 'event', starts_at: '2026-12-05' }))).toEqual(['starts_at']);
    expect(fields(await post({ activity_type: 'event', starts_at: 'next Friday' }))).toEqual(['starts_at']);
    expect(fields(await post({ activity_type: 'event', starts_at: '2026-12-05T10:00:00Z', ends_at: '2026-12-05T09:00:00Z' }))).toEqual(['ends_at']);
    expect(fields(await post({ activity_type: 'event', ends_at: '2026-12-05T09:00:00Z' }))).toEqual(['ends_at']);
    expect(fields(await post({ activity_type: 'event', location: 'x'.repeat(201) }))).toEqual(['location']);
    expect(fields(await post({ activity_type: 'event', all_day: 'yes' }))).toEqual(['all_day']);
    expect(fields(await post({ starts_at: '2026-12-05T10:00:00Z', location: 'Hall' }))).toEqual(['location', 'starts_at']);
    expect(fields(await post({ activity_type: 'announcement', all_day: false }))).toEqual(['all_day']);
    // Past what the database stores: year 10000 in UTC, or an all-day event whose last day ends there.
    expect(fields(await post({ activity_type: 'event', starts_at: '9999-12-31T23:59:59-23:59' }))).toEqual(['starts_at']);
    expect(fields(await post({ activity_type: 'event', starts_at: '2026-12-05T10:00:00Z', ends_at: '9999-12-31T10:00:00Z' }))).toEqual(['ends_at']);
    expect(fields(await post({ activity_type: 'event', all_day: true, starts_at: '9999-12-31' }))).toEqual(['starts_at']);
    expect(fields(await post({ activity_type: 'event', starts_at: '0999-01-01T00:00:00Z' }))).toEqual(['starts_at']);
    expect(fields(await post({ activity_type: 'event', publish_at: '9999-12-31T23:59:59-23:59' }))).toEqual(['publish_at']);
  });

  it('belong to events: sent with a change to an announcement they are refused, and a change to an announcement clears them', async () => {
    const e = await event({ starts_at: '2026-12-05T10:00:00Z', location: 'Hall' });
    expect(fields(await put(e.id, { activity_type: 'announcement', location: 'Gym' }))).toEqual(['location']);
    const plain = (await post({})).body.data;
    expect(fields(await put(plain.id, { starts_at: '2026-12-05T10:00:00Z' }))).toEqual(['starts_at']);
    const cleared = await put(e.id, { activity_type: 'announcement' });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toMatchObject({ activity_type: 'announcement', starts_at: null, ends_at: null, all_day: false, location: null });
    const again = await put(plain.id, { activity_type: 'event', starts_at: '2026-12-07T10:00:00Z', ends_at: '2026-12-07T12:00:00Z' });
    expect(again.body.data).toMatchObject({ activity_type: 'event', starts_at: '2026-12-07T10:00:00.000Z', ends_at: '2026-12-07T12:00:00.000Z' });
    expect(fields(await put(plain.id, { ends_at: '2026-12-07T09:00:00Z' }))).toEqual(['ends_at']);
  });
});

describe('a school that moves to another time zone', () => {
  it('keeps its all-day events on their days: stored, listed, in the feed and after an edit', async () => {
    const c = await school(t);
    await t.api.put('/web-app/school').set(bearer(c.adminToken)).send({ timezone: 'Asia/Kolkata' }).expect(200);
    const s = await staffMember(c.schoolId, { rbac: { activities: 'create' } });
    const staff = await staffLogin(t, s.phone, s.pin, c.schoolId);
    const p = await parent(t.ctx, c.schoolId);
    await student(c.schoolId, p.id);
    const family = await parentLogin(t, p.phone, p.pin, c.schoolId);
    const made = await t.api.post('/teachers-app/activities').set(bearer(staff)).send({ school_id: c.schoolId, title: 'Sports days', activity_type: 'event', all_day: true, starts_at: '2026-12-05', ends_at: '2026-12-06' });
    const timed = await t.api.post('/teachers-app/activities').set(bearer(staff)).send({ school_id: c.schoolId, title: 'Assembly', activity_type: 'event', starts_at: '2026-12-05T09:00:00+05:30' });
    await t.api.put('/web-app/school').set(bearer(c.adminToken)).send({ timezone: 'America/New_York' }).expect(200);

    const id = made.body.data.id;
    const shown = (await t.api.get(`/parent-app/activities/${id}`).set(bearer(family))).body.data;
    expect(shown).toMatchObject({ starts_at: '2026-12-05T05:00:00.000Z', ends_at: '2026-12-06T05:00:00.000Z' });
    // A timed event keeps its instant.
    expect((await t.api.get(`/parent-app/activities/${timed.body.data.id}`).set(bearer(family))).body.data.starts_at).toBe('2026-12-05T03:30:00.000Z');
    const on = async (date: string) => ids(await t.api.get('/parent-app/calendar').query({ from: date, to: date }).set(bearer(family)));
    expect([await on('2026-12-04'), await on('2026-12-05'), await on('2026-12-06'), await on('2026-12-07')].map((list) => list.includes(id))).toEqual([false, true, true, false]);
    const url = (await t.api.post('/parent-app/calendar/feed').set(bearer(family))).body.data.url as string;
    const ics = (await supertest(t.app).get(new URL(url).pathname)).text.replace(/\r\n /g, '');
    const block = ics.slice(ics.indexOf(`UID:activity-${id}@`));
    expect(block.slice(0, block.indexOf('END:VEVENT'))).toMatch(/DTSTART;VALUE=DATE:20261205[\s\S]*DTEND;VALUE=DATE:20261207|DTEND;VALUE=DATE:20261207[\s\S]*DTSTART;VALUE=DATE:20261205/);
    // An edit of another field leaves its days where they are.
    const edited = await t.api.put(`/teachers-app/activities/${id}`).set(bearer(staff)).send({ location: 'Main field' });
    expect(edited.body.data).toMatchObject({ starts_at: '2026-12-05T05:00:00.000Z', ends_at: '2026-12-06T05:00:00.000Z', location: 'Main field' });
  });
});

describe('the calendars', () => {
  const made: Record<string, number> = {};
  /** The events made here, in the order the calendar gave them (the other tests' events are in the range too). */
  const mine = (res: Response) => ids(res).filter((id) => Object.values(made).includes(id));

  beforeAll(async () => {
    made.today = (await event({ title: 'Today', starts_at: tenOClock(0) })).id;
    made.later = (await event({ title: 'In 40 days', starts_at: tenOClock(40) })).id;
    made.allDayYesterday = (await event({ title: 'All day yesterday', all_day: true, starts_at: day(-1) })).id;
    made.spanning = (await event({ title: 'Camp', starts_at: tenOClock(-2), ends_at: tenOClock(1) })).id;
    made.allDayTo = (await event({ title: 'All day on the last day', all_day: true, starts_at: day(5), ends_at: day(6) })).id;
    made.early = (await event({ title: 'Early', starts_at: DateTime.fromISO(`${day(0)}T00:00`, { zone: ZONE }).toUTC().toISO() })).id;
    made.grade6 = (await event({ title: 'Grade 6 only', starts_at: tenOClock(1), audience: { grades: ['6'] } })).id;
    made.draft = (await event({ title: 'Draft', starts_at: tenOClock(1), status: 'draft' })).id;
    made.cancelled = (await event({ title: 'Cancelled', starts_at: tenOClock(2), status: 'cancelled' })).id;
    made.unscheduled = (await event({ title: 'No time yet' })).id;
    made.deleted = (await event({ title: 'Deleted', starts_at: tenOClock(1) })).id;
    await t.api.delete(`/teachers-app/activities/${made.deleted}`).set(bearer(teacher));
    made.announcement = (await post({ title: 'Announcement' })).body.data.id;
  });

  it('give the parent the published events they can see that overlap the range, by start then id, as the feed shows them', async () => {
    const res = await t.api.get('/parent-app/calendar').set(bearer(grade5.token));
    expect(res.status).toBe(200);
    expect(mine(res)).toEqual([made.spanning, made.early, made.today, made.allDayTo]);
    expect(res.body.data.find((x: { id: number }) => x.id === made.spanning)).toMatchObject({ title: 'Camp', read_at: null, form: null, all_day: false, location: null });
    const ranged = await t.api.get('/parent-app/calendar').query({ from: day(-1), to: day(5) }).set(bearer(grade5.token));
    expect(mine(ranged)).toEqual([made.spanning, made.allDayYesterday, made.early, made.today, made.allDayTo]);
    // An all-day event covers its whole last day: on day 6 the event of days 5-6 is still there; day 7 is past it.
    expect(mine(await t.api.get('/parent-app/calendar').query({ from: day(6), to: day(6) }).set(bearer(grade5.token)))).toEqual([made.allDayTo]);
    expect(mine(await t.api.get('/parent-app/calendar').query({ from: day(7), to: day(7) }).set(bearer(grade5.token)))).toEqual([]);
    expect(mine(await t.api.get('/parent-app/calendar').set(bearer(grade6.token)))).toEqual([made.spanning, made.early, made.today, made.grade6, made.allDayTo]);
    expect(mine(await t.api.get('/parent-app/calendar').query({ from: day(35), to: day(45) }).set(bearer(grade5.token)))).toEqual([made.later]);
  });

  it('give staff the school\'s published and cancelled events whatever their audience (activities.view)', async () => {
    const res = await t.api.get('/teachers-app/calendar').query({ from: day(-1), to: day(5) }).set(bearer(teacher));
    expect(mine(res)).toEqual([made.spanning, made.allDayYesterday, made.early, made.today, made.grade6, made.cancelled, made.allDayTo]);
    expect(res.body.data.find((x: { id: number }) => x.id === made.cancelled)).toMatchObject({ status: 'cancelled', form: null });
    expectError(await t.api.get('/teachers-app/calendar').set(bearer(viewerless)), 403, 'FORBIDDEN');
    expectError(await t.api.get('/teachers-app/calendar').set(bearer(grade5.token)), 403, 'FORBIDDEN');
    expect(ids(await t.api.get('/teachers-app/calendar').set(bearer(await staffToken(b.schoolId))))).toEqual([]);
  });

  it('refuse a bad range with 400 naming the field', async () => {
    const range = (query: Record<string, string>) => t.api.get('/parent-app/calendar').query(query).set(bearer(grade5.token));
    expect(fields(await range({ from: '2026-02-30' }))).toEqual(['from']);
    expect(fields(await range({ to: 'soon' }))).toEqual(['to']);
    expect(fields(await range({ from: '2026-12-10', to: '2026-12-09' }))).toEqual(['to']);
    expect(fields(await range({ from: '2026-01-01', to: '2027-01-03' }))).toEqual(['to']);
    expect((await range({ from: '2026-01-01', to: '2027-01-02' })).status).toBe(200);
    expect(fields(await t.api.get('/teachers-app/calendar').query({ from: '2026-12-10', to: '2026-12-01' }).set(bearer(teacher)))).toEqual(['to']);
  });
});

/** The feed's bytes, as a calendar app receives them. */
async function fetchFeed(url: string): Promise<Response & { body: Buffer }> {
  return (await t.api.get(new URL(url).pathname).buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  })) as Response & { body: Buffer };
}

async function staffToken(schoolId: string): Promise<string> {
  const s = await staffMember(schoolId, { rbac: { activities: 'view' } });
  return staffLogin(t, s.phone, s.pin, schoolId);
}

describe('the calendar feed', () => {
  let url: string;
  const made: Record<string, number> = {};
  const longText = `Bring: water, a hat; sunscreen\nMeet at the gate at 8:30. ${'Ünïcödé and emoji 🎒🚌 '.repeat(8)}`;

  beforeAll(async () => {
    made.timed = (await event({ title: 'Trip, "museum"; day', description: longText, location: 'Gate 2, Main St; City', starts_at: `${day(9)}T09:00:00+05:30`, ends_at: `${day(9)}T15:30:00+05:30` })).id;
    made.allDay = (await event({ title: 'Sports week', all_day: true, starts_at: day(11), ends_at: day(13) })).id;
    made.cancelled = (await event({ title: 'Called off', starts_at: tenOClock(10), status: 'cancelled' })).id;
    made.grade6 = (await event({ title: 'Grade 6 trip', starts_at: tenOClock(9), audience: { grades: ['6'] } })).id;
    made.draft = (await event({ title: 'Draft', starts_at: tenOClock(9), status: 'draft' })).id;
    made.recent = (await event({ title: '89 days ago', starts_at: new Date(Date.now() - 89 * 86_400_000).toISOString() })).id;
    made.old = (await event({ title: '91 days ago', starts_at: new Date(Date.now() - 91 * 86_400_000).toISOString() })).id;
    made.longAgoButLong = (await event({ title: 'Ended 10 days ago', starts_at: new Date(Date.now() - 200 * 86_400_000).toISOString(), ends_at: new Date(Date.now() - 10 * 86_400_000).toISOString() })).id;
    made.unscheduled = (await event({ title: 'No time yet' })).id;
    const res = await t.api.post('/parent-app/calendar/feed').set(bearer(grade5.token));
    expect(res.status).toBe(201);
    url = res.body.data.url;
  });

  it('is a URL on PUBLIC_APP_URL with a token of 256 random bits', () => {
    expect(url).toMatch(new RegExp(`^${PUBLIC_URL}/calendar/[A-Za-z0-9_-]{43}\\.ics$`));
  });

  it('is an RFC 5545 calendar of what the parent may see: CRLF lines of at most 75 octets, folded between characters, that ical.js reads back', async () => {
    const res = await fetchFeed(url);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
    const bytes = res.body;
    const text = bytes.toString('utf8');
    expect(text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    // Split the raw bytes: every physical line fits in 75 octets and is whole UTF-8 on its own.
    const lines: Buffer[] = [];
    for (let start = 0, at = bytes.indexOf('\r\n'); at >= 0; start = at + 2, at = bytes.indexOf('\r\n', start)) lines.push(bytes.subarray(start, at));
    expect(lines.filter((l) => l.length > 75)).toEqual([]);
    const strict = new TextDecoder('utf-8', { fatal: true });
    expect(lines.filter((l) => { try { strict.decode(l); return false; } catch { return true; } })).toEqual([]);
    expect(lines.some((l) => l[0] === 0x20)).toBe(true);

    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(calendar.getFirstPropertyValue('prodid')).toEqual(expect.any(String));
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe(SCHOOL_NAME);
    const unfolded = text.replace(/\r\n /g, '');
    expect(unfolded).toContain('\r\nX-WR-CALNAME:Greenwood\\; High\\, "A\\\\B"\r\n');
    const events = calendar.getAllSubcomponents('vevent');
    const byUid = new Map(events.map((e) => [e.getFirstPropertyValue('uid') as string, e]));
    const uid = (id: number) => `activity-${id}@${a.schoolId}`;
    const fromHere = [...byUid.keys()].filter((u) => Object.values(made).map(uid).includes(u));
    expect(fromHere.sort()).toEqual([made.timed, made.allDay, made.cancelled, made.recent, made.longAgoButLong].map(uid).sort());
    // The events of the other tests are there too (grade 5 and the whole school), each once.
    expect(new Set(byUid.keys()).size).toBe(events.length);

    const timed = byUid.get(uid(made.timed))!;
    expect(timed.getFirstPropertyValue('summary')).toBe('Trip, "museum"; day');
    expect(timed.getFirstPropertyValue('description')).toBe(longText);
    expect(timed.getFirstPropertyValue('location')).toBe('Gate 2, Main St; City');
    expect(timed.getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(unfolded).toContain(`\r\nDTSTART:${utcStamp(`${day(9)}T09:00:00+05:30`)}\r\n`);
    expect(unfolded).toContain(`\r\nDTEND:${utcStamp(`${day(9)}T15:30:00+05:30`)}\r\n`);
    expect(unfolded).toContain('\r\nSUMMARY:Trip\\, "museum"\\; day\r\n');
    expect(unfolded).toContain('\r\nLOCATION:Gate 2\\, Main St\\; City\r\n');
    expect(unfolded).toContain('DESCRIPTION:Bring: water\\, a hat\\; sunscreen\\nMeet at the gate');
    const updated = (await Activity.findByPk(made.timed))!.updated_at;
    expect(unfolded).toContain(`\r\nDTSTAMP:${utcStamp(updated.toISOString())}\r\n`);

    const allDay = byUid.get(uid(made.allDay))!;
    const start = allDay.getFirstPropertyValue('dtstart') as ICAL.Time;
    expect([start.isDate, start.toString()]).toEqual([true, day(11)]);
    expect((allDay.getFirstPropertyValue('dtend') as ICAL.Time).toString()).toBe(day(14));
    expect(unfolded).toContain(`\r\nDTSTART;VALUE=DATE:${day(11).replace(/-/g, '')}\r\n`);
    expect(unfolded).toContain(`\r\nDTEND;VALUE=DATE:${day(14).replace(/-/g, '')}\r\n`);
    expect(byUid.get(uid(made.cancelled))!.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(byUid.get(uid(made.recent))!.getFirstPropertyValue('dtend')).toBeNull();
  });

  it('names the same event by the same UID in every fetch', async () => {
    const uids = async () => new ICAL.Component(ICAL.parse((await fetchFeed(url)).body.toString('utf8'))).getAllSubcomponents('vevent').map((e) => e.getFirstPropertyValue('uid'));
    expect(await uids()).toEqual(await uids());
  });

  it('answers 404 for an unknown token, a replaced or revoked one, and a suspended school', async () => {
    expectError(await t.api.get('/calendar/not-a-real-token.ics'), 404, 'NOT_FOUND');
    // A token that cannot even be percent-decoded is as unknown as any other.
    expectError(await t.api.get('/calendar/%E0%A4%A.ics'), 404, 'NOT_FOUND');
    const replaced = (await t.api.post('/parent-app/calendar/feed').set(bearer(grade6.token))).body.data.url as string;
    expect((await fetchFeed(replaced)).status).toBe(200);
    const fresh = (await t.api.post('/parent-app/calendar/feed').set(bearer(grade6.token))).body.data.url as string;
    expect(fresh).not.toBe(replaced);
    expectError(await t.api.get(new URL(replaced).pathname), 404, 'NOT_FOUND');
    const sixth = new ICAL.Component(ICAL.parse((await fetchFeed(fresh)).body.toString('utf8')));
    expect(sixth.getAllSubcomponents('vevent').map((e) => e.getFirstPropertyValue('uid'))).toContain(`activity-${made.grade6}@${a.schoolId}`);
    expect((await t.api.delete('/parent-app/calendar/feed').set(bearer(grade6.token))).status).toBe(200);
    expectError(await t.api.get(new URL(fresh).pathname), 404, 'NOT_FOUND');
    expectError(await t.api.delete('/parent-app/calendar/feed').set(bearer(grade6.token)), 404, 'NOT_FOUND');

    const other = await school(t);
    const p = await parent(t.ctx, other.schoolId);
    await student(other.schoolId, p.id);
    const feed = (await t.api.post('/parent-app/calendar/feed').set(bearer(await parentLogin(t, p.phone, p.pin, other.schoolId)))).body.data.url as string;
    expect((await fetchFeed(feed)).status).toBe(200);
    await setSchoolStatus(t.ctx, other.schoolId, 'suspended');
    expectError(await t.api.get(new URL(feed).pathname), 404, 'NOT_FOUND');
  });

  it('never writes the token in a log line', async () => {
    const lines: string[] = [];
    const sink = new Writable({ write(chunk, _enc, cb) { lines.push(String(chunk)); cb(); } });
    const { app } = createApp({ ...t.ctx, log: pino({ level: 'info' }, sink) });
    const token = /\/calendar\/([^/]+)\.ics$/.exec(url)![1]!;
    expect((await supertest(app).get(`/calendar/${token}.ics`)).status).toBe(200);
    expect((await supertest(app).get(`/calendar/${token}.ics?x=1`)).status).toBe(200);
    expect((await supertest(app).get(`/calendar/${token}`)).status).toBe(404);
    const log = lines.join('');
    expect(log).toContain('/calendar/[REDACTED].ics');
    expect(log).not.toContain(token);
  });
});
