import type { Logger } from 'pino';
import type { EmailProvider, MessageData, PushProvider, SendResult, SmsProvider } from './provider.js';

/**
 * The default providers: each logs what a message is about and reports it sent, so the outbox, its
 * records and the diagnostics work without any push, SMS or mail account. The address is never
 * logged, nor an SMS's text or an e-mail's body: they carry links whose tokens belong to their
 * recipient alone.
 */
function logged(log: Logger, line: { channel: string; title?: string; subject?: string; data: MessageData }): SendResult {
  log.info(line, 'notification recorded (log provider)');
  return { ok: true };
}

export function createLogProvider(log: Logger): PushProvider {
  return { name: 'log', send: async (m) => logged(log, { channel: m.channel, title: m.title, data: m.data }), close: async () => undefined };
}

export function createLogSmsProvider(log: Logger): SmsProvider {
  return { name: 'log', send: async (m) => logged(log, { channel: m.channel, data: m.data }), close: async () => undefined };
}

export function createLogEmailProvider(log: Logger): EmailProvider {
  return { name: 'log', send: async (m) => logged(log, { channel: m.channel, subject: m.subject, data: m.data }), status: () => 'ok', close: async () => undefined };
}
