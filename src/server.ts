import 'dotenv/config';
import type { Server } from 'node:http';
import { rejectMalformedRequest } from './api/middleware/client-error.js';
import { createApp } from './app.js';
import { createContext } from './bootstrap.js';
import { ConfigError, loadConfig } from './config.js';

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
  const { app } = createApp(ctx);
  const server: Server = app.listen(config.port, config.host, () => {
    ctx.log.info({ url: `http://${config.host}:${config.port}`, database: ctx.db.dialect }, 'school platform listening');
  });
  server.keepAliveTimeout = 65_000;
  server.on('clientError', rejectMalformedRequest);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    ctx.log.info({ signal }, 'draining requests before exit');
    // Finish in-flight requests, then close the database; a hung client cannot hold the exit past 10 s.
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.close(async () => {
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
