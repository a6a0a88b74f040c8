import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/**
 * The gateways' side of the wire for tests: a throwaway certificate authority, a local HTTPS
 * endpoint standing in for api.twilio.com, a CONNECT proxy in front of it, and an SMTP server whose
 * messages are parsed as a mail client would.
 */

export interface ThrowawayCa {
  /** The CA's certificate (PEM): what a client must trust. */
  ca: string;
  caFile: string;
  /** A server key and certificate signed by the CA, for the given names and 127.0.0.1. */
  key: string;
  cert: string;
}

/** A CA and one server certificate signed by it, made with openssl (EC keys: fast to make). */
export function throwawayCa(names: string[]): ThrowawayCa {
  const dir = mkdtempSync(path.join(tmpdir(), 'sp-ca-'));
  const file = (name: string) => path.join(dir, name);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  ssl('req', '-x509', ...ec, '-keyout', file('ca.key'), '-out', file('ca.crt'), '-days', '3', '-subj', '/CN=School platform test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  ssl('req', ...ec, '-keyout', file('server.key'), '-out', file('server.csr'), '-subj', `/CN=${names[0]}`);
  writeFileSync(file('ext.cnf'), [
    `subjectAltName=${[...names.map((n) => `DNS:${n}`), 'IP:127.0.0.1'].join(',')}`, 'basicConstraints=CA:FALSE', 'extendedKeyUsage=serverAuth', 'keyUsage=digitalSignature',
  ].join('\n'));
  ssl('x509', '-req', '-in', file('server.csr'), '-CA', file('ca.crt'), '-CAkey', file('ca.key'), '-CAcreateserial', '-out', file('server.crt'), '-days', '3', '-extfile', file('ext.cnf'));
  return { ca: readFileSync(file('ca.crt'), 'utf8'), caFile: file('ca.crt'), key: readFileSync(file('server.key'), 'utf8'), cert: readFileSync(file('server.crt'), 'utf8') };
}

const listen = (server: net.Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
const close = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

export interface TwilioRequest {
  path: string;
  authorization: string | undefined;
  form: Record<string, string>;
}

export type TwilioAnswer = { status: number; body?: unknown; delayMs?: number } | 'hang up';

export interface TwilioStub {
  port: number;
  requests: TwilioRequest[];
  /** How the next requests are answered, in order; then `fallback` (201 with a new sid). */
  answers: TwilioAnswer[];
  fallback: (req: TwilioRequest) => TwilioAnswer;
  close(): Promise<void>;
}

/** Twilio's Messages API as far as sending goes: records each form and answers as told. */
export async function startTwilioStub(tls: { key: string; cert: string }, delayMs = 0): Promise<TwilioStub> {
  const stub: TwilioStub = {
    port: 0, requests: [], answers: [],
    fallback: () => ({ status: 201, body: { sid: `SM${randomBytes(16).toString('hex')}`, status: 'queued' }, delayMs }),
    close: async () => undefined,
  };
  const server = https.createServer({ ...tls, keepAlive: true }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = { path: req.url ?? '', authorization: req.headers.authorization, form: Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))) };
      stub.requests.push(request);
      const answer = stub.answers.shift() ?? stub.fallback(request);
      if (answer === 'hang up') {
        req.socket.destroy();
        return;
      }
      setTimeout(() => res.writeHead(answer.status, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer.body ?? {})), answer.delayMs ?? 0);
    });
  });
  stub.port = await listen(server);
  stub.close = async () => {
    server.closeAllConnections();
    await close(server);
  };
  return stub;
}

export interface ConnectProxy {
  url: string;
  /** Each CONNECT's target, `host:port`. */
  targets: string[];
  close(): Promise<void>;
}

/** An HTTP proxy that tunnels CONNECTs to the hosts it knows (to local ports) and refuses the others with 502. */
export async function startConnectProxy(routes: Record<string, number>): Promise<ConnectProxy> {
  const targets: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const target = req.url ?? '';
    targets.push(target);
    const port = routes[target];
    if (!port) {
      client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const upstream = net.connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
  });
  const port = await listen(server);
  return {
    url: `http://127.0.0.1:${port}`,
    targets,
    async close() {
      for (const s of sockets) s.destroy();
      await close(server);
    },
  };
}

export interface ReceivedMail {
  envelope: { from: string; to: string[] };
  raw: string;
  parsed: ParsedMail;
  secure: boolean;
  user?: string;
}

export interface Mailbox {
  port: number;
  mails: ReceivedMail[];
  /** Refuses the next recipients with these SMTP codes, in order (550: for good, 451: for now). */
  refusals: number[];
  /** Resolves once `n` mails in all have arrived. */
  waitFor(n: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

/**
 * An SMTP server as a relay would be: STARTTLS offered on a plain port (or TLS from the start with
 * `secure`), signing in with the given user, each message parsed by mailparser.
 */
export async function startMailbox(tls: { key: string; cert: string }, options: { secure?: boolean; user?: string; pass?: string; delayMs?: number } = {}): Promise<Mailbox> {
  const mails: ReceivedMail[] = [];
  const refusals: number[] = [];
  const waiters: Array<() => void> = [];
  const config: SMTPServerOptions = {
    secure: options.secure ?? false,
    key: tls.key,
    cert: tls.cert,
    logger: false,
    disabledCommands: options.user ? [] : ['AUTH'],
    authOptional: !options.user,
    onAuth(auth, _session, done) {
      if (auth.username === options.user && auth.password === options.pass) return done(null, { user: auth.username });
      return done(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onRcptTo(_address, _session, done) {
      const code = refusals.shift();
      if (code) return done(Object.assign(new Error(code >= 500 ? 'Mailbox unavailable' : 'Try again later'), { responseCode: code }));
      return done();
    },
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          envelope: { from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address) },
          raw, parsed: await simpleParser(raw), secure: session.secure, user: session.user as string | undefined,
        });
        for (const wake of waiters.splice(0)) wake();
        setTimeout(() => done(), options.delayMs ?? 0);
      });
    },
  };
  const server = new SMTPServer(config);
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.server.address() as AddressInfo).port)));
  return {
    port,
    mails,
    refusals,
    async waitFor(n, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (mails.length < n) {
        if (Date.now() > deadline) throw new Error(`${mails.length} of ${n} mails arrived`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return mails;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
