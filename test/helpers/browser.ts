import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Where the browser tests leave their screenshots (gitignored): CI keeps the folder when a test fails. */
export const ARTIFACTS = path.resolve('test/artifacts');

/** Debian's chromium (playwright-core brings no browser of its own). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Errors the page's own scripts threw. */
  pageErrors: string[];
  close(): Promise<void>;
}

/** Chromium headless on a throwaway profile, without the network chatter a fresh profile starts with. */
export async function launchBrowser(options: { viewport?: { width: number; height: number }; acceptDownloads?: boolean } = {}): Promise<Browser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'sp-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    ...options,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const pageErrors: string[] = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
  return {
    context, page, pageErrors,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
