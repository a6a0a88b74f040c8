import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { AppContext } from '../context.js';
import { createFcmProvider } from './fcm-provider.js';
import { createLogEmailProvider, createLogProvider, createLogSmsProvider } from './log-provider.js';
import type { EmailProvider, OutboundMessage, PushProvider, SendResult, SmsProvider } from './provider.js';
import { createSmtpProvider } from './smtp-provider.js';
import { createTwilioProvider } from './twilio-provider.js';

export function createPushProvider(config: Pick<Config, 'pushProvider' | 'fcmServiceAccountFile' | 'httpsProxy'>, log: Logger): PushProvider {
  if (config.pushProvider === 'fcm') {
    return createFcmProvider({ serviceAccountFile: config.fcmServiceAccountFile!, httpsProxy: config.httpsProxy }, log);
  }
  return createLogProvider(log);
}

export function createSmsProvider(config: Config, log: Logger): SmsProvider {
  if (config.smsProvider === 'twilio' && config.twilio) {
    return createTwilioProvider({
      ...config.twilio, statusCallback: `${config.publicAppUrl}/webhooks/twilio/status`, httpsProxy: config.httpsProxy, ca: config.trustedCa,
    }, log);
  }
  return createLogSmsProvider(log);
}

export function createEmailProvider(config: Config, log: Logger): EmailProvider {
  return config.smtpUrl ? createSmtpProvider({ url: config.smtpUrl, mailFrom: config.mailFrom, ca: config.trustedCa }, log) : createLogEmailProvider(log);
}

interface Providers {
  push: PushProvider;
  sms: SmsProvider;
  email: EmailProvider;
}

const providers = new WeakMap<AppContext, Providers>();

/** The configured providers of this process, created once (the fcm one holds a Firebase app and its token, the others their connections). */
export function providersOf(ctx: AppContext): Providers {
  let p = providers.get(ctx);
  if (!p) {
    p = { push: createPushProvider(ctx.config, ctx.log), sms: createSmsProvider(ctx.config, ctx.log), email: createEmailProvider(ctx.config, ctx.log) };
    providers.set(ctx, p);
  }
  return p;
}

export const pushProvider = (ctx: AppContext): PushProvider => providersOf(ctx).push;

/** Sends one message through the provider of its channel. */
export function sendMessage(ctx: AppContext, message: OutboundMessage): Promise<SendResult> {
  const p = providersOf(ctx);
  if (message.channel === 'sms') return p.sms.send(message);
  if (message.channel === 'email') return p.email.send(message);
  return p.push.send(message);
}

export async function closePushProvider(ctx: AppContext): Promise<void> {
  const p = providers.get(ctx);
  providers.delete(ctx);
  if (p) await Promise.all([p.push.close(), p.sms.close(), p.email.close()]);
}
