import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuditEvent } from '../../src/models/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { bearer, expectError, parent, parentLogin, school, student, type SchoolFixture } from '../helpers/fixtures.js';

/**
 * The channels of a parent's notification preferences (CONTRACT section 24): `channels {push, email,
 * sms}`, booleans, on until changed; `PUT` is partial, and a value that is not a boolean is a 400
 * naming it that changes nothing.
 */
let t: TestApp;
let a: SchoolFixture;

beforeAll(async () => {
  t = await startTestApp();
  a = await school(t);
});
afterAll(async () => t.close());

async function signedInParent() {
  const p = await parent(t.ctx, a.schoolId);
  await student(a.schoolId, p.id);
  return { id: p.id, token: await parentLogin(t, p.phone, p.pin, a.schoolId) };
}

const put = (token: string, body: unknown) => t.api.put('/parent-app/notification-preferences').set(bearer(token)).send(body as object);
async function get(token: string) {
  const res = await t.api.get('/parent-app/notification-preferences').set(bearer(token));
  expect(res.status).toBe(200);
  return res.body.data;
}
const preferenceEvents = (parentId: number) => AuditEvent.count({ where: { school_id: a.schoolId, action: 'preference.update', entity_id: String(parentId) } });

describe('PUT /parent-app/notification-preferences channels', () => {
  it.each([
    [{ channels: { sms: 'no' } }, 'channels.sms'],
    [{ channels: { sms: 'false' } }, 'channels.sms'],
    [{ channels: { sms: 0 } }, 'channels.sms'],
    [{ channels: { sms: null } }, 'channels.sms'],
    [{ channels: { email: 1 } }, 'channels.email'],
    [{ channels: { email: 'off' } }, 'channels.email'],
    [{ channels: { push: [] } }, 'channels.push'],
    [{ channels: { push: { on: false } } }, 'channels.push'],
    // A good switch beside a bad one: neither is saved.
    [{ channels: { push: false, sms: 'no' } }, 'channels.sms'],
    [{ categories: { notices: false }, channels: { email: 1 } }, 'channels.email'],
  ])('refuses %j with 400 naming %s, the contract\'s error body, and changes nothing', async (body, field) => {
    const p = await signedInParent();
    // A parent who has changed something already: what they chose must stay as it was.
    expect((await put(p.token, { channels: { email: false } })).status).toBe(200);
    const before = await get(p.token);
    const events = await preferenceEvents(p.id);

    const res = await put(p.token, body);
    expectError(res, 400, 'BAD_REQUEST');
    expect(res.body.error.details).toEqual(expect.arrayContaining([{ field, message: expect.any(String) }]));
    for (const d of res.body.error.details as Array<{ field: string; message: string }>) expect(d.message.length).toBeGreaterThan(0);
    expect(res.body.data).toBeUndefined();

    expect(await get(p.token)).toEqual(before);
    expect(before.channels).toEqual({ push: true, email: false, sms: true });
    expect(await preferenceEvents(p.id)).toBe(events);
  });

  it('changes only the channels sent: the others keep their value, and GET shows the result', async () => {
    const p = await signedInParent();
    const start = await get(p.token);
    expect(start.channels).toEqual({ push: true, email: true, sms: true });

    const off = await put(p.token, { channels: { sms: false } });
    expect(off.status).toBe(200);
    expect(off.body.data.channels).toEqual({ push: true, email: true, sms: false });
    expect(await get(p.token)).toEqual({ ...start, channels: { push: true, email: true, sms: false } });

    // Another channel later: the SMS switch stays off.
    expect((await put(p.token, { channels: { email: false } })).body.data.channels).toEqual({ push: true, email: false, sms: false });
    expect((await get(p.token)).channels).toEqual({ push: true, email: false, sms: false });

    // Categories or quiet hours alone leave every channel as it was.
    const other = await put(p.token, { categories: { diary: false }, quiet_hours: { start: '22:00', end: '06:00' } });
    expect(other.body.data).toMatchObject({ categories: { diary: false }, quiet_hours: { start: '22:00', end: '06:00' }, channels: { push: true, email: false, sms: false } });
    // An empty channels object changes nothing either.
    expect((await put(p.token, { channels: {} })).body.data.channels).toEqual({ push: true, email: false, sms: false });

    const on = await put(p.token, { channels: { sms: true } });
    expect(on.body.data.channels).toEqual({ push: true, email: false, sms: true });
    const end = await get(p.token);
    expect(end).toEqual({ ...start, categories: { ...start.categories, diary: false }, quiet_hours: { start: '22:00', end: '06:00' }, channels: { push: true, email: false, sms: true } });
  });

  it('keeps one parent\'s channels to that parent', async () => {
    const p = await signedInParent();
    const other = await signedInParent();
    await put(p.token, { channels: { push: false, sms: false } });
    expect((await get(p.token)).channels).toEqual({ push: false, email: true, sms: false });
    expect((await get(other.token)).channels).toEqual({ push: true, email: true, sms: true });
  });
});
