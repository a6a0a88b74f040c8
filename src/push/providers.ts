import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { AppContext } from '../context.js';
import { createFcmProvider } from './fcm-provider.js';
import { createLogProvider } from './log-provider.js';
import type { PushMessage, PushProvider } from './provider.js';

export function createPushProvider(config: Pick<Config, 'pushProvider' | 'fcmServiceAccountFile' | 'httpsProxy'>, log: Logger): PushProvider {
  if (config.pushProvider === 'fcm') {
    return createFcmProvider({ serviceAccountFile: config.fcmServiceAccountFile!, httpsProxy: config.httpsProxy }, log);
  }
  return createLogProvider(log);
}

const providers = new WeakMap<AppContext, { push: PushProvider; sms: PushProvider }>();

function providersOf(ctx: AppContext) {
  let p = providers.get(ctx);
  if (!p) {
    // There is no SMS gateway: text messages (PIN set-up links) are recorded by the log provider.
    p = { push: createPushProvider(ctx.config, ctx.log), sms: createLogProvider(ctx.log) };
    providers.set(ctx, p);
  }
  return p;
}

/** The configured push provider of this process, created once (the fcm one holds a Firebase app and its token). */
export const pushProvider = (ctx: AppContext): PushProvider => providersOf(ctx).push;

/** Sends one message through the provider of its channel. */
export function sendMessage(ctx: AppContext, message: PushMessage) {
  const p = providersOf(ctx);
  return (message.channel === 'sms' ? p.sms : p.push).send(message);
}

export async function closePushProvider(ctx: AppContext): Promise<void> {
  const p = providers.get(ctx);
  providers.delete(ctx);
  await p?.push.close();
}
