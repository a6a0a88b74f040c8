/**
 * The gateways a fan-out talks to, each answering after a fixed delay: one HTTPS endpoint standing in
 * for Google's OAuth token endpoint and FCM, Twilio's Messages API (the test helpers' stand-in), both
 * behind a CONNECT proxy as HTTPS_PROXY, and an SMTP relay that only counts what it receives. The
 * certificates come from a throwaway CA the instance trusts through NODE_EXTRA_CA_CERTS.
 */
import { randomBytes } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { startConnectProxy, startTwilioStub, throwawayCa, type ThrowawayCa } from '../test/helpers/gateways.js';

export interface FanoutStubs {
  ca: ThrowawayCa;
  proxyUrl: string;
  smtpPort: number;
  /** Messages each gateway accepted. */
  counts(): { push: number; sms: number; email: number };
  close(): Promise<void>;
}

export async function startFanoutStubs(delayMs: number): Promise<FanoutStubs> {
  const ca = throwawayCa(['fcm.googleapis.com', 'oauth2.googleapis.com', 'api.twilio.com', 'localhost']);
  let push = 0;
  let email = 0;
  const google = https.createServer({ key: ca.key, cert: ca.cert, keepAlive: true }, (req, res) => {
    req.resume();
    req.on('end', () => {
      const token = req.url === '/token';
      if (!token) push++;
      const body = token ? { access_token: 'ya29.bench', expires_in: 3600, token_type: 'Bearer' } : { name: `projects/bench/messages/${randomBytes(8).toString('hex')}` };
      setTimeout(() => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body)), token ? 0 : delayMs);
    });
  });
  const googlePort = await new Promise<number>((resolve) => google.listen(0, '127.0.0.1', () => resolve((google.address() as AddressInfo).port)));
  const twilio = await startTwilioStub(ca, delayMs);
  const proxy = await startConnectProxy({ 'fcm.googleapis.com:443': googlePort, 'oauth2.googleapis.com:443': googlePort, 'api.twilio.com:443': twilio.port });
  const smtp = new SMTPServer({
    key: ca.key, cert: ca.cert, logger: false, authOptional: true, disabledCommands: ['AUTH'],
    onData(stream, _session, done) {
      stream.resume();
      stream.on('end', () => setTimeout(() => {
        email++;
        done();
      }, delayMs));
    },
  });
  const smtpPort = await new Promise<number>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve((smtp.server.address() as AddressInfo).port)));
  return {
    ca, proxyUrl: proxy.url, smtpPort,
    counts: () => ({ push, sms: twilio.requests.length, email }),
    async close() {
      google.closeAllConnections();
      await Promise.all([
        new Promise<void>((resolve) => google.close(() => resolve())), twilio.close(), proxy.close(), new Promise<void>((resolve) => smtp.close(() => resolve())),
      ]);
    },
  };
}
