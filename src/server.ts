import './gc-tuning.js';
import 'dotenv/config';
import type { Server } from 'node:http';
import { rejectMalformedRequest } from './api/middleware/client-error.js';
import { loadConsole } from './admin/index.js';
import { createApp } from './app.js';
import { closeContext, createContext } from './bootstrap.js';
import { ConfigError, loadConfig } from './config.js';
import { startPublisher } from './jobs/publisher.js';
import { startScheduler } from './jobs/scheduler.js';
import { closePushProvider } from './push/providers.js';
import { startPushWorker } from './push/worker.js';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const ctx = await createContext(config);
  const { app, drain } = createApp(ctx, { console: await loadConsole(ctx) });
  const background: Array<{ stop(): Promise<void> }> = [];
  const server: Server = app.listen(config.port, config.host, () => {
    // The address to open, not the interface bound: every interface is reached on this machine as localhost.
    const host = ['0.0.0.0', '::', ''].includes(config.host) ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
    const url = `http://${host}:${config.port}`;
    ctx.log.info({ url, database: ctx.db.dialect }, 'school platform listening');
    if (config.adminConsoleEnabled) ctx.log.info({ url: `${url}/admin` }, `admin console at ${url}/admin`);
    // The push outbox worker, the maintenance timer and the scheduled-post check; several instances may run them on one database.
    if (config.runJobs) background.push(startPushWorker(ctx), startScheduler(ctx), startPublisher(ctx));
  });
  server.keepAliveTimeout = 65_000;
  server.on('clientError', rejectMalformedRequest);

  let stopping = false;
  /**
   * The shutdown sequence: refuse new connections and answer new requests on open ones 503 (readiness
   * included), let the requests in flight finish for up to SHUTDOWN_GRACE_SECONDS, let the workers
   * finish their current item, close the pools, exit 0.
   */
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const graceMs = config.shutdownGraceSeconds * 1000;
    ctx.log.info({ signal, grace_s: config.shutdownGraceSeconds }, 'shutting down: draining requests in flight');
    // A pool that never closes (a silent database) must not keep the process from exiting.
    setTimeout(() => process.exit(1), graceMs + 10_000).unref();
    drain();
    const backgroundStopped = Promise.all(background.map((b) => b.stop())).then(() => closePushProvider(ctx));
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    // Keep-alive sockets go idle as their last response ends: sweep them so close() can finish.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    server.closeIdleConnections();
    let grace: NodeJS.Timeout | undefined;
    const graceOver = new Promise<'grace over'>((resolve) => (grace = setTimeout(() => resolve('grace over'), graceMs)));
    if ((await Promise.race([closed, graceOver])) === 'grace over') {
      ctx.log.warn('shutdown grace period over: closing the connections still open');
      server.closeAllConnections();
      await closed;
    }
    clearTimeout(grace);
    clearInterval(sweep);
    await backgroundStopped.catch((err) => ctx.log.error({ err }, 'stopping the workers failed'));
    await closeContext(ctx).catch((err) => ctx.log.error({ err }, 'closing the pools failed'));
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
