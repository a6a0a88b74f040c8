import type { Logger } from 'pino';
import type { PushMessage, PushProvider, PushResult } from './provider.js';

/**
 * The default provider: logs each message and reports it sent, so the outbox, its records and the
 * diagnostics work without any push or SMS account. The address is never logged.
 */
export function createLogProvider(log: Logger): PushProvider {
  return {
    name: 'log',
    async send(message: PushMessage): Promise<PushResult> {
      log.info({ channel: message.channel, title: message.title, data: message.data }, 'notification recorded (log provider)');
      return { ok: true };
    },
    async close() {},
  };
}
