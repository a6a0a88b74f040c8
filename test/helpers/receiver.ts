import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The answers to give, in order; once used up, 200. */
  answers: Array<{ status: number; headers?: Record<string, string> }>;
  close(): Promise<void>;
}

/** A webhook receiver on 127.0.0.1 (an ephemeral port): the only address the tests ever call. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const answers: Receiver['answers'] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      const answer = answers.shift() ?? { status: 200 };
      res.writeHead(answer.status, answer.headers).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** What a receiver does with a delivery: recompute the signature over "<timestamp>.<body>" and compare in constant time. */
export function verifies(secret: string, r: Received): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${r.headers['x-webhook-timestamp']}.${r.body}`).digest('hex')}`);
  const given = Buffer.from(String(r.headers['x-webhook-signature'] ?? ''));
  return given.length === expected.length && timingSafeEqual(given, expected);
}
