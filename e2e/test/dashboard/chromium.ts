import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, type BrowserContextOptions, chromium } from 'playwright-core';

/** Debian's chromium package (`apt-get install chromium`); CHROMIUM_PATH points elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether the browser suites can run; in CI (CI=true, where .ci/run installs it) a missing browser is a failure, not a skip. */
export function hasChromium(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  if (process.env.CI === 'true') throw new Error(`CI requires Chromium for the dashboard's browser tests: none at ${CHROMIUM_PATH}`);
  return false;
}

/**
 * A headless Chromium with nothing of its own reaching the network (no sync, component updates,
 * QUIC or background requests) and a throwaway profile, so runs never share state.
 */
export async function launchChromium(options: BrowserContextOptions): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'crawl-dashboard-chromium-'));
  // Playwright passes the profile as --user-data-dir itself.
  const context = await chromium.launchPersistentContext(profile, {
    ...options,
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
