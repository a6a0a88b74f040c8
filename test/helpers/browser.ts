import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page, type Request } from 'playwright-core';

/** Where the browser tests leave their screenshots (gitignored): CI keeps the folder when a test fails. */
export const ARTIFACTS = path.resolve('test/artifacts');

/** Debian's chromium (playwright-core brings no browser of its own). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Errors the page's own scripts threw. */
  pageErrors: string[];
  /**
   * Resolves once no request of the page to the test's server has been waiting for `quietMs`: the
   * page has what it asked for. Unlike Playwright's networkidle, a request to another host (the
   * console's policy blocks AdminJS's font) cannot hold it; a request of ours that never answers
   * fails it, naming the request.
   */
  settled(quietMs?: number, timeoutMs?: number): Promise<void>;
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
  const waiting = new Set<Request>();
  let lastAnswer = Date.now();
  page.on('request', (request) => {
    if (new URL(request.url()).hostname === '127.0.0.1') waiting.add(request);
  });
  const answered = (request: Request) => {
    if (waiting.delete(request)) lastAnswer = Date.now();
  };
  page.on('requestfinished', answered);
  page.on('requestfailed', answered);
  return {
    context, page, pageErrors,
    async settled(quietMs = 500, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (waiting.size > 0 || Date.now() - lastAnswer < quietMs) {
        if (Date.now() > deadline) throw new Error(`the page still waits for ${[...waiting].map((r) => `${r.method()} ${r.url()}`).join(', ') || 'nothing, yet kept asking'}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
