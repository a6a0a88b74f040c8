/**
 * Writes the OpenAPI document that the server serves at /openapi.json, from createApp on a throwaway
 * SQLite database, without listening: `tsx scripts/openapi.ts [file]` (default openapi.json, which git ignores).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createApp } from '../src/app.js';
import { buildOpenApi } from '../src/api/openapi.js';
import { createContext } from '../src/bootstrap.js';
import { loadConfig } from '../src/config.js';
import { version } from '../src/version.js';

export const DEFAULT_OPENAPI_FILE = 'openapi.json';

/** The document as JSON text, formatted for diffs. */
export async function openApiText(): Promise<string> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sp-openapi-'));
  try {
    const config = { ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_CONSOLE_ENABLED: 'false' }), runJobs: false };
    const ctx = await createContext(config);
    try {
      return `${JSON.stringify(buildOpenApi(createApp(ctx).routes, version), null, 2)}\n`;
    } finally {
      await ctx.db.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function writeOpenApi(file: string): Promise<void> {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  writeFileSync(file, await openApiText());
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2] ?? DEFAULT_OPENAPI_FILE;
  await writeOpenApi(file);
  console.log(`Wrote ${file}`);
}
