import path from 'node:path';
import type { Router } from 'express';
import type { AppContext } from '../context.js';
import { stubAdminBundler } from './bundler-stub.js';

/**
 * The console's router when ADMIN_CONSOLE_ENABLED, else nothing. AdminJS is imported only here, on
 * demand, so the CLI and a server without the console never pay its start-up time and memory.
 */
export async function loadConsole(ctx: AppContext): Promise<Router | undefined> {
  if (!ctx.config.adminConsoleEnabled) return undefined;
  // Read by AdminJS when it loads, so set first. Its components are served ready-made (src/admin/components/):
  // no rollup bundling at start-up. Its working folder has no leading dot, which Express 5 refuses to serve from.
  process.env.ADMIN_JS_SKIP_BUNDLE = 'true';
  process.env.ADMIN_JS_TMP_DIR ??= path.join(ctx.config.dataDir, 'admin-bundle');
  stubAdminBundler();
  const { buildConsole } = await import('./console.js');
  return buildConsole(ctx);
}
