import { readFileSync } from 'node:fs';
import supertest, { type Response, type Test } from 'supertest';
import { assertAllowed, checkedFetch, createResponseCheck, type ResponseCheck } from '../../clients/typescript/response-check.js';

/**
 * Every answer a test receives through HTTP is checked against the OpenAPI document that
 * `scripts/openapi.ts` generates (written once per run by the global set-up): a route whose answer
 * leaves the document fails the test that called it, on either database.
 *
 * Outside the check: the admin console (`/admin`, AdminJS's own pages and JSON), the reference page
 * (`/docs`) and the document itself (`/openapi.json`), CORS preflights, and a 404 for a route the
 * document does not have.
 */
const outside = (path: string) => path === '/openapi.json' || /^\/(admin|docs)(\/|$)/.test(path);

let shared: ResponseCheck | undefined;
export function responseCheck(): ResponseCheck {
  const file = process.env.SP_OPENAPI_DOCUMENT;
  if (!file) throw new Error('SP_OPENAPI_DOCUMENT is not set: run the tests through jest, whose global set-up writes the document');
  shared ??= createResponseCheck(JSON.parse(readFileSync(file, 'utf8')), { outside });
  return shared;
}

const verbs = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const;
type Agent = ReturnType<typeof supertest>;

/** The answer of one supertest call, checked when the test awaits it (`.expect()` chains included); a body read as bytes is read back as text. */
function checked(test: Test, method: string, url: string): Test {
  const then = test.then.bind(test);
  test.then = ((onFulfilled, onRejected) =>
    then((res: Response) => {
      assertAllowed(responseCheck(), { method, url, status: res.status, contentType: res.headers['content-type'], body: res.text ?? (Buffer.isBuffer(res.body) ? res.body.toString('utf8') : undefined) });
      return res;
    }).then(onFulfilled, onRejected)) as Test['then'];
  return test;
}

/** supertest on an app or server, with every answer checked against the document. */
export function checkedSupertest(app: Parameters<typeof supertest>[0]): Agent {
  const agent = supertest(app);
  // supertest's agent is a plain object of one function per verb: the copy replaces the ones tests use.
  const wrapped = { ...agent } as Agent;
  for (const verb of verbs) {
    wrapped[verb] = ((url: string) => checked(agent[verb](url), verb, url)) as Agent[typeof verb];
  }
  wrapped.del = wrapped.delete;
  return wrapped;
}

/** fetch, with every answer checked against the document. */
export const fetchChecked: typeof fetch = (input, init) => checkedFetch(responseCheck())(input, init);

/** An answer read off a raw socket (status line, headers, a blank line, the body), checked like any other. */
export function assertRawAnswer(method: string, url: string, raw: string): void {
  const [head = '', ...body] = raw.split('\r\n\r\n');
  const [statusLine = '', ...headers] = head.split('\r\n');
  const contentType = headers.find((h) => /^content-type:/i.test(h))?.replace(/^content-type:\s*/i, '');
  assertAllowed(responseCheck(), { method, url, status: Number(statusLine.split(' ')[1]), contentType, body: body.join('\r\n\r\n') });
}
