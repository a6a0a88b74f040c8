import './heap-growth.js';
import 'dotenv/config';
import type { Server } from 'node:http';
import { rejectMalformedRequest } from './api/middleware/client-error.js';
import { loadConsole } from './admin/index.js';
import { createApp } from './app.js';
import { createContext } from './bootstrap.js';
import { ConfigError, loadConfig } from './config.js';
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
  const { app } = createApp(ctx, { console: await loadConsole(ctx) });
  const background: Array<{ stop(): Promise<void> }> = [];
  const server: Server = app.listen(config.port, config.host, () => {
    ctx.log.info({ url: `http://${config.host}:${config.port}`, database: ctx.db.dialect }, 'school platform listening');
    // The push outbox worker and the maintenance timer; several instances may run them on one database.
    if (config.runJobs) background.push(startPushWorker(ctx), startScheduler(ctx));
  });
  server.keepAliveTimeout = 65_000;
  server.on('clientError', rejectMalformedRequest);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    ctx.log.info({ signal }, 'draining requests before exit');
    // No new outbox pass or job starts from here; one in progress finishes before the database closes.
    const backgroundStopped = Promise.all(background.map((b) => b.stop())).then(() => closePushProvider(ctx));
    // Finish in-flight requests, then close the database; a hung client cannot hold the exit past 10 s.
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    // Keep-alive sockets go idle as their last response ends: sweep them so close() can finish.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    server.close(async () => {
      clearInterval(sweep);
      await backgroundStopped.catch(() => undefined);
      await ctx.db.close().catch(() => undefined);
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
