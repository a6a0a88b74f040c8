/**
 * A typed client for the school platform API: every path, parameter, body and answer is checked
 * against schema.d.ts, which `npm run client:generate` writes from the server's OpenAPI document.
 *
 *   const api = createSchoolClient({ baseUrl: 'https://school.example.org' });
 *   const { data } = await api.POST('/web-app/signin', { body: { email, password } });
 *   api.setToken(data?.data.access_token);
 *   const { data: board } = await api.GET('/web-app/noticeboard', { params: { query: { school_id: 'greenwood' } } });
 */
import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './schema.js';

export type { components, operations, paths };

/** The error body of every 4xx and 5xx answer. */
export type ApiError = components['schemas']['Error'];

export interface SchoolClientOptions {
  /** Where the API is served, e.g. https://school.example.org (no trailing path). */
  baseUrl: string;
  /** An access_token from one of the login routes; it also picks the app the calls may reach. */
  token?: string;
  /** A fetch of your own (tests, React Native polyfills); the global fetch otherwise. */
  fetch?: (request: Request) => Promise<Response>;
}

export interface SchoolClient extends Client<paths> {
  /** Sends this token from the next call on (after a login), or none (after a logout). */
  setToken(token: string | undefined): void;
}

export function createSchoolClient(options: SchoolClientOptions): SchoolClient {
  let token = options.token;
  const client = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ''), ...(options.fetch ? { fetch: options.fetch } : {}) });
  client.use({
    onRequest({ request }) {
      if (token) request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  });
  return Object.assign(client, {
    setToken(next: string | undefined) {
      token = next;
    },
  });
}
