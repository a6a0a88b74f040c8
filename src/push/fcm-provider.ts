import { createRequire } from 'node:module';
import type * as FirebaseApp from 'firebase-admin/app';
import type * as FirebaseMessaging from 'firebase-admin/messaging';
import type { Logger } from 'pino';
import type { PushMessage, PushProvider, PushResult } from './provider.js';
import { tunnelAgent } from './tunnel.js';

export interface FcmOptions {
  serviceAccountFile: string;
  httpsProxy?: string;
}

const unregisteredCodes = new Set(['messaging/registration-token-not-registered', 'messaging/invalid-registration-token']);
const retryableCodes = new Set([
  'messaging/server-unavailable',
  'messaging/internal-error',
  'messaging/message-rate-exceeded',
  'messaging/device-message-rate-exceeded',
  'messaging/topics-message-rate-exceeded',
  'app/network-error',
  'app/network-timeout',
]);

/**
 * Sorts a firebase-admin failure into the outbox's three outcomes. firebase-admin keeps the HTTP
 * status only in the message of an unmapped answer ("Status code: 502"), so that is read too; a
 * failed OAuth token fetch is a network or proxy problem unless Google refused the key itself.
 */
export function classifyFcmError(err: unknown): PushResult {
  const e = err as { code?: string; message?: string };
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message : String(err);
  const error = (code ? `${code}: ${message}` : message).slice(0, 1000);
  if (unregisteredCodes.has(code)) return { ok: false, kind: 'unregistered', error };
  if (retryableCodes.has(code)) return { ok: false, kind: 'retryable', error };
  const status = Number(/Status code: (\d{3})/.exec(message)?.[1]);
  if (status === 429 || status >= 500) return { ok: false, kind: 'retryable', error };
  if (code === 'app/invalid-credential') {
    return { ok: false, kind: /invalid_grant|invalid_client|unauthorized_client/.test(message) ? 'permanent' : 'retryable', error };
  }
  // Not a firebase error at all: a socket or DNS failure surfaced as it is.
  if (!code.includes('/')) return { ok: false, kind: 'retryable', error };
  return { ok: false, kind: 'permanent', error };
}

let appSeq = 0;
/** Sends in flight at once through the proxy, as the worker sends them (its SEND_CONCURRENCY). */
const MAX_SOCKETS = 64;

/**
 * Sends through Firebase Cloud Messaging with the service account file. Behind HTTPS_PROXY every
 * outbound request goes through one proxy agent: the OAuth token fetch (given to cert() together with
 * the key file path, the form whose token client honours it) and the sends (the app's httpAgent,
 * used by messaging.send; sendEach would switch to HTTP/2 and bypass it). cert() keeps one
 * credential per file path for the whole process, agent and token included, so a process builds
 * one provider (see providers.ts).
 */
// firebase-admin is CommonJS: required here, it loads with the fcm provider only (a server sending
// through the log provider saves its 15 MB resident), and still synchronously, so a bad
// service-account file fails the start as before.
const require = createRequire(import.meta.url);

export function createFcmProvider(options: FcmOptions, log: Logger): PushProvider {
  const { cert, deleteApp, initializeApp } = require('firebase-admin/app') as typeof FirebaseApp;
  const { getMessaging } = require('firebase-admin/messaging') as typeof FirebaseMessaging;
  // Kept alive: without it every push opens a new tunnel and TLS session to Google, most of a send's cost.
  const agent = options.httpsProxy ? tunnelAgent(options.httpsProxy, { maxSockets: MAX_SOCKETS }) : undefined;
  const app = initializeApp(
    { credential: cert(options.serviceAccountFile, agent), ...(agent ? { httpAgent: agent } : {}) },
    `school-platform-push-${++appSeq}`,
  );
  const messaging = getMessaging(app);
  return {
    name: 'fcm',
    async send(message: PushMessage): Promise<PushResult> {
      if (message.channel !== 'push') return { ok: false, kind: 'permanent', error: `the fcm provider does not send ${message.channel}` };
      try {
        const id = await messaging.send({
          token: message.address,
          notification: { title: message.title, body: message.body },
          data: message.data,
        });
        return { ok: true, id };
      } catch (err) {
        const result = classifyFcmError(err);
        if (!result.ok) log.warn({ kind: result.kind, error: result.error }, 'fcm send failed');
        return result;
      }
    },
    async close() {
      await deleteApp(app);
    },
  };
}
