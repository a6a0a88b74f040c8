import type { Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { EmailMessage, EmailProvider, SendResult } from './provider.js';

export interface SmtpOptions {
  /** smtp://user:pass@host:587 (STARTTLS when the server offers it) or smtps://user:pass@host:465 (TLS from the start). */
  url: string;
  /** The envelope sender and From address. */
  mailFrom: string;
  /** Certificate authorities trusted besides the system's (PEM). */
  ca?: string;
}

/**
 * Connections kept open to the relay: the worker sends concurrently, one message at a time on each,
 * so this caps e-mail at about this many per round trip of a message (within Postfix's default of 50
 * connections from one client).
 */
const MAX_CONNECTIONS = 32;

/**
 * Sorts a failed send: a 5xx reply is refused for good (`smtp <code>`); a 4xx reply, a refused
 * connection, a time-out or a dropped socket is worth another try, and means the relay could not be
 * reached or would not take mail for now.
 */
export function smtpResult(err: unknown): SendResult & { ok: false; unreachable: boolean } {
  const e = err as { responseCode?: unknown; code?: unknown; message?: unknown };
  const reply = typeof e?.responseCode === 'number' ? e.responseCode : undefined;
  if (reply !== undefined && reply >= 500) return { ok: false, kind: 'permanent', error: `smtp ${reply}`, unreachable: false };
  if (reply !== undefined) return { ok: false, kind: 'retryable', error: `smtp ${reply}`, unreachable: true };
  const why = [e?.code, e?.message].filter((v) => typeof v === 'string').join(': ');
  return { ok: false, kind: 'retryable', error: `smtp unreachable: ${why || String(err)}`.slice(0, 1000), unreachable: true };
}

/**
 * Sends e-mail through an SMTP relay with nodemailer, over a pool of kept connections. nodemailer
 * (about 14 MB resident) is loaded with the first message, so a server that sends none never holds it.
 */
export function createSmtpProvider(options: SmtpOptions, log: Logger): EmailProvider {
  const url = new URL(options.url);
  const secure = url.protocol === 'smtps:';
  let transport: Promise<Transporter> | undefined;
  const transportOf = () => (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport({
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } } : {}),
    pool: true,
    maxConnections: MAX_CONNECTIONS,
    maxMessages: Infinity,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
    ...(options.ca ? { tls: { ca: options.ca } } : {}),
  })));
  let state: 'ok' | 'degraded' = 'ok';
  return {
    name: 'smtp',
    async send(message: EmailMessage): Promise<SendResult> {
      try {
        const info = await (await transportOf()).sendMail({
          from: { name: message.fromName, address: options.mailFrom },
          to: message.to,
          envelope: { from: options.mailFrom, to: [message.to] },
          subject: message.subject,
          text: message.text,
          html: message.html,
          ...(message.unsubscribeUrl
            ? { headers: { 'List-Unsubscribe': `<${message.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } }
            : {}),
        });
        state = 'ok';
        return { ok: true, id: info.messageId };
      } catch (err) {
        const { unreachable, ...result } = smtpResult(err);
        state = unreachable ? 'degraded' : 'ok';
        log.warn({ error: result.error, data: message.data }, 'smtp send failed');
        return result;
      }
    },
    status: () => state,
    async close() {
      if (transport) (await transport).close();
    },
  };
}
