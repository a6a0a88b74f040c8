import twilio from 'twilio';
import type { TestApp } from './app.js';

/** A Twilio account for tests: the token signs the callbacks the tests send as Twilio would. */
export const TWILIO_ACCOUNT_SID = `AC${'0123456789abcdef'.repeat(2)}`;
export const TWILIO_AUTH_TOKEN = 'twilio-test-auth-token-0123456789';
export const twilioEnv = { TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN };

/**
 * A callback as Twilio sends it: form-encoded, signed by the twilio package's own function over the
 * URL Twilio was given (PUBLIC_APP_URL and the path), whatever address the request reaches.
 */
export function twilioCallback(t: TestApp, path: string, params: Record<string, string>, authToken = TWILIO_AUTH_TOKEN) {
  const signature = twilio.getExpectedTwilioSignature(authToken, `${t.ctx.config.publicAppUrl}${path}`, params);
  return t.api.post(path).type('form').set('X-Twilio-Signature', signature).send(params);
}
