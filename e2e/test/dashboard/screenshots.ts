import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

export const SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', 'test-output', 'screenshots');
export const DESKTOP = { width: 1280, height: 860 };
export const PHONE = { width: 390, height: 844 };

/** The page as it is now, at desktop and at phone width (then back to desktop). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}-phone.png`), fullPage: true });
  // Nothing may be wider than the phone's screen (tables scroll inside their own box).
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  await page.setViewportSize(DESKTOP);
  if (overflow > 0) throw new Error(`${name}: the page is ${overflow}px wider than a 390px phone`);
}
