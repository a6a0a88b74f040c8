import https from 'node:https';
import type { Logger } from 'pino';
import type { SendResult, SmsMessage, SmsProvider } from './provider.js';
import { tunnelAgent } from './tunnel.js';

export interface TwilioOptions {
  accountSid: string;
  authToken: string;
  /** The sender: a number (E.164), or a Messaging Service, which then takes its place. */
  from?: string;
  messagingServiceSid?: string;
  /** Where Twilio reports each message's status. */
  statusCallback: string;
  httpsProxy?: string;
  /** Certificate authorities trusted besides the system's (PEM). */
  ca?: string;
}

const API = 'https://api.twilio.com';
const TIMEOUT_MS = 15_000;
/** Sends in flight at once: the worker sends concurrently, and each keeps its connection for the next. */
const MAX_SOCKETS = 64;

/**
 * Sorts Twilio's answer into the outbox's outcomes: a 2xx is sent (its `sid` kept); a 429 or a 5xx
 * is worth another try; any other 4xx is refused for good, named by the `code` of Twilio's error body.
 */
export function twilioResult(status: number, body: string): SendResult {
  let answer: { sid?: unknown; code?: unknown } = {};
  try {
    answer = JSON.parse(body) as typeof answer;
  } catch {
    // A proxy's or load balancer's page: only the status speaks.
  }
  if (status >= 200 && status < 300) return { ok: true, ...(typeof answer.sid === 'string' ? { id: answer.sid } : {}) };
  const code = typeof answer.code === 'number' ? answer.code : undefined;
  const error = `twilio ${code ?? status}`;
  if (status === 429 || status >= 500) return { ok: false, kind: 'retryable', error, ...(code ? { code } : {}) };
  return { ok: false, kind: 'permanent', error, ...(code ? { code } : {}) };
}

/**
 * Sends SMS through Twilio's Messages API: a form-encoded POST with HTTP basic auth, by node's https
 * and, behind HTTPS_PROXY, an explicit CONNECT tunnel (the twilio package reads only HTTP_PROXY, and
 * axios's own proxy support sends the request to the proxy instead of tunnelling through it).
 */
export function createTwilioProvider(options: TwilioOptions, log: Logger): SmsProvider {
  const tls = options.ca ? { ca: options.ca } : {};
  const agent = options.httpsProxy
    ? tunnelAgent(options.httpsProxy, { maxSockets: MAX_SOCKETS, ...tls })
    : new https.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS, ...tls });
  const url = new URL(`${API}/2010-04-01/Accounts/${options.accountSid}/Messages.json`);
  const authorization = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;

  const post = (form: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = https.request(url, {
        method: 'POST', agent, timeout: TIMEOUT_MS, ...tls,
        headers: { Authorization: authorization, 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(form), Accept: 'application/json' },
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
      req.on('error', reject);
      req.end(form);
    });

  return {
    name: 'twilio',
    async send(message: SmsMessage): Promise<SendResult> {
      const form = new URLSearchParams({
        To: message.to,
        ...(options.messagingServiceSid ? { MessagingServiceSid: options.messagingServiceSid } : { From: options.from! }),
        Body: message.body,
        StatusCallback: options.statusCallback,
      }).toString();
      try {
        const { status, body } = await post(form);
        const result = twilioResult(status, body);
        if (!result.ok) log.warn({ status, error: result.error, data: message.data }, 'twilio refused a message');
        return result;
      } catch (err) {
        const error = `twilio unreachable: ${err instanceof Error ? err.message : String(err)}`.slice(0, 1000);
        log.warn({ error, data: message.data }, 'twilio send failed');
        return { ok: false, kind: 'retryable', error };
      }
    },
    async close() {
      agent.destroy();
    },
  };
}
