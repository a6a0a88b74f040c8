import type { RequestHandler } from 'express';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { twilioInbound, twilioStatus, verifyTwilio, type CallbackParams } from '../../services/delivery/twilio-callbacks.js';
import type { Routers } from '../routers.js';

const TWIML = '<Response/>';

/** Refuses (403) a callback without Twilio's signature before its body is read for anything else. */
const signedByTwilio = (ctx: AppContext): RequestHandler => (req, _res, next) => {
  verifyTwilio(ctx, req.originalUrl, (req.body ?? {}) as CallbackParams, req.get('X-Twilio-Signature'));
  next();
};

const params = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
const signature =
  'Signed by Twilio: `X-Twilio-Signature` is checked against `TWILIO_AUTH_TOKEN` over `PUBLIC_APP_URL` followed by this path (and query), then every ' +
  'POST parameter in name order; a missing or wrong signature is 403 `FORBIDDEN` (the JSON error body) and changes nothing. Not rate limited. ' +
  'Answers `<Response/>` (no reply message).';

export function registerTwilioRoutes(r: Routers): void {
  r.root.publicRoute(
    {
      method: 'post', path: '/webhooks/twilio/status', auth: false, form: true, rateLimited: false, before: [signedByTwilio(r.root.ctx)],
      summary: 'Twilio: a message\'s status',
      description:
        '`MessageSid`, `MessageStatus`, `ErrorCode`. The record is found by the sid Twilio gave when it took the message (none: nothing changes). `delivered` sets ' +
        '`delivered_at`; `undelivered` or `failed` fails the record with `last_error` `twilio <ErrorCode>`; other statuses change nothing. ErrorCode 21610 ' +
        `(the recipient replied STOP) also turns SMS off for that phone. ${signature}`,
      body: params, errors: [403],
      example: { MessageSid: 'SM0123456789abcdef0123456789abcdef', MessageStatus: 'delivered', AccountSid: 'AC0123456789abcdef0123456789abcdef' },
      produces: { type: 'text/xml', description: 'Taken: TwiML with no reply', example: TWIML },
    },
    async ({ ctx, body, res }) => {
      await twilioStatus(ctx, body);
      res.type('text/xml').send(TWIML);
    },
  );
  r.root.publicRoute(
    {
      method: 'post', path: '/webhooks/twilio/inbound', auth: false, form: true, rateLimited: false, before: [signedByTwilio(r.root.ctx)],
      summary: 'Twilio: a text message a parent sent',
      description:
        '`From`, `Body`. `STOP`, `STOPALL`, `UNSUBSCRIBE`, `CANCEL`, `END` or `QUIT` (trimmed, any case) turns SMS off for every parent, in every school, ' +
        `whose phone is \`From\`; \`START\` or \`UNSTOP\` turns it on; anything else changes nothing. ${signature}`,
      body: params, errors: [403],
      example: { From: '+919876543210', Body: 'STOP', MessageSid: 'SM0123456789abcdef0123456789abcdef' },
      produces: { type: 'text/xml', description: 'Taken: TwiML with no reply', example: TWIML },
    },
    async ({ ctx, body, res }) => {
      await twilioInbound(ctx, body);
      res.type('text/xml').send(TWIML);
    },
  );
}
