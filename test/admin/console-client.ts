import { expect } from '@jest/globals';
import supertest from 'supertest';
import { ADMIN_PASSWORD } from '../helpers/fixtures.js';
import type { TestApp } from '../helpers/app.js';

export type Agent = ReturnType<typeof supertest.agent>;

/** A browser-like client of the console: signs in through the login form and keeps the cookie. */
export async function signInConsole(t: TestApp, email: string, password = ADMIN_PASSWORD): Promise<Agent> {
  const agent = supertest.agent(t.app);
  const res = await agent.post('/admin/login').type('form').send({ email, password });
  expect({ status: res.status, location: res.headers.location }).toEqual({ status: 302, location: '/admin' });
  return agent;
}

/** AdminJS's JSON API, as the console's own pages call it. */
export function consoleApi(agent: Agent) {
  const base = '/admin/api/resources';
  return {
    list: (resource: string, query: Record<string, string | number> = {}) => agent.get(`${base}/${resource}/actions/list`).query(query),
    search: (resource: string, text = '', query: Record<string, string> = {}) =>
      agent.get(`${base}/${resource}/actions/search${text ? `/${encodeURIComponent(text)}` : ''}`).query(query),
    show: (resource: string, id: number | string) => agent.get(`${base}/${resource}/records/${id}/show`),
    editForm: (resource: string, id: number | string) => agent.get(`${base}/${resource}/records/${id}/edit`),
    edit: (resource: string, id: number | string, fields: Record<string, string>) => agent.post(`${base}/${resource}/records/${id}/edit`).type('form').send(fields),
    create: (resource: string, fields: Record<string, string>) => agent.post(`${base}/${resource}/actions/new`).type('form').send(fields),
    remove: (resource: string, id: number | string) => agent.post(`${base}/${resource}/records/${id}/delete`),
    bulkDelete: (resource: string, ids: Array<number | string>) => agent.post(`${base}/${resource}/bulk/bulkDelete`).query({ recordIds: ids.join(',') }),
    /** One-click actions run as GET requests from the console's pages, exactly as here. */
    act: (resource: string, id: number | string, action: string) => agent.get(`${base}/${resource}/records/${id}/${action}`),
    /** A record action on a page of its own, as its form posts it (Reset PIN, Reply, Assign). */
    perform: (resource: string, id: number | string, action: string, fields: Record<string, string> = {}) =>
      agent.post(`${base}/${resource}/records/${id}/${action}`).type('form').send(fields),
    /** A resource action's form (Add members on a group's page posts to its record; Import to its list). */
    resourceAction: (resource: string, action: string, fields: Record<string, string> = {}) => agent.post(`${base}/${resource}/actions/${action}`).type('form').send(fields),
    dashboard: () => agent.get('/admin/api/dashboard'),
  };
}

export type ConsoleApi = ReturnType<typeof consoleApi>;

interface RecordJson { id: string; params: Record<string, unknown>; recordActions?: Array<{ name: string }> }

export const ids = (res: { body: { records?: RecordJson[] } }) => (res.body.records ?? []).map((r) => Number(r.id));
export const noticeOf = (res: { body: { notice?: { message: string; type: string } } }) => res.body.notice;

/** AdminJS answers a missing record (here: another school's) with an error notice and no data. */
export function expectNotFound(res: { status: number; body: { notice?: { type: string; message: string }; record?: RecordJson } }) {
  expect(res.status).toBe(200);
  expect(res.body.notice?.type).toBe('error');
  expect(res.body.notice?.message).toMatch(/not be found|not found/i);
  expect(res.body.record?.params ?? {}).toEqual({});
}
