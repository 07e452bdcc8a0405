/**
 * Target lists and the shared page cache in the dashboard, in a real Chromium against the
 * all-in-one crawling the built-in simulator: a small list uploaded on the Lists tab (valid lines,
 * a duplicate, a line no details job takes) → its counts and the refused line with its number and
 * reason → "New job from this list" opens the job form with the list in place of the targets → the
 * job, asked to reuse pages fetched within an hour, completes → a second job over the same list is
 * answered from the cache, each target saying when its page was fetched → the list deleted.
 * Skipped without Chromium, except in CI.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DASHBOARD_DIST } from '@crawl/dashboard';
import { startListeningAllInOne } from '@crawl/server/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, hasChromium, launchChromium } from './chromium.ts';
import { DESKTOP, screenshot } from './screenshots.ts';
import { DASHBOARD_TEST_ENV } from './servers.ts';

if (!hasChromium()) {
  if (process.env.CI === 'true') throw new Error(`Chromium is missing at ${CHROMIUM_PATH}: the dashboard tests need it in CI`);
  console.warn(`dashboard target lists skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`);
}

const PASSWORD = 'a-long-enough-password';
/** Three products, one of them twice (as a URL), and a line that is no ASIN or product URL (line 5). */
const LIST = ['B0SIM00001', 'B0SIM00002', 'https://www.amazon.com/dp/B0SIM00001', 'B0SIM00003', 'not a product!', ''].join('\n');

describe.skipIf(!hasChromium())('dashboard target lists and the page cache in Chromium', () => {
  let server: { url: string; close(): Promise<void> };
  let chromium: { context: BrowserContext; close: () => Promise<void> };
  let page: Page;
  let projectId: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(join(DASHBOARD_DIST, 'index.html'))) throw new Error(`no dashboard build in ${DASHBOARD_DIST}: pnpm --filter @crawl/dashboard build`);
    [server, chromium] = await Promise.all([
      startListeningAllInOne(DASHBOARD_TEST_ENV),
      launchChromium({ viewport: DESKTOP, locale: 'en-US', timezoneId: 'UTC' }),
    ]);
    const email = `dash-lists-${Date.now()}@example.com`;
    const registered = await fetch(`${server.url}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    const token = ((await registered.json()) as { accessToken: string }).accessToken;
    const project = await fetch(`${server.url}/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Lists' }),
    });
    projectId = ((await project.json()) as { data: { id: string } }).data.id;

    page = chromium.context.pages()[0] ?? (await chromium.context.newPage());
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) pageErrors.push(message.text());
    });
    await page.goto(`${server.url}/app/`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await chromium?.close();
    await server?.close();
  });

  it('uploads a list and shows its counts and the refused line with its number and reason', async () => {
    await page.goto(`${server.url}/app/projects/${projectId}/jobs`);
    await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Lists' }).click();
    await page.getByRole('heading', { name: 'Target lists', level: 1 }).waitFor();
    await page.getByText('No target lists yet.').waitFor();
    await page.getByLabel('File (.txt or .csv)').setInputFiles({ name: 'lamps.txt', mimeType: 'text/plain', buffer: Buffer.from(LIST) });
    await page.getByLabel('Job type').selectOption('details');
    await page.getByLabel('List name').fill('Lamps');
    await page.getByRole('button', { name: 'Upload list' }).click();
    await expect
      .poll(
        () =>
          page
            .getByTestId('upload-counts')
            .textContent({ timeout: 1_000 })
            .catch(() => null),
        { timeout: 15_000 },
      )
      .toBe('3 accepted, 1 duplicate, 1 rejected');
    const refused = await page.getByTestId('rejected-lines').locator('li').allTextContents();
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatch(/^line 5: not a product! — \S/);
    const row = page.getByTestId('target-lists').locator('li');
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    expect(await row.first().textContent()).toContain('Lamps');
    expect(await row.first().textContent()).toContain('3 targets');
    await screenshot(page, 'target-lists');
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('starts a job from the list that completes, then one answered from the shared page cache', async () => {
    for (const round of ['fetched', 'cached'] as const) {
      await page.goto(`${server.url}/app/projects/${projectId}/lists`);
      await page.getByRole('button', { name: 'New job from the list Lamps' }).click();
      await page.waitForURL(/\/jobs\?list=/);
      await expect
        .poll(
          () =>
            page
              .getByTestId('job-list')
              .textContent({ timeout: 1_000 })
              .catch(() => null),
          { timeout: 10_000 },
        )
        .toBe('Lamps (details) · 3 targets');
      expect(await page.getByLabel('ASINs or product URLs, one per line').count()).toBe(0);
      expect(await page.getByTestId('job-cost').textContent()).toBe('6');
      await page.getByLabel('Reuse pages fetched within (optional)').fill('2w');
      expect(await page.locator('#max-age-note').textContent()).toContain('a whole number and m, h or d');
      await page.getByLabel('Reuse pages fetched within (optional)').fill('1h');
      expect(await page.locator('#max-age-note').textContent()).toContain('1 credit instead of 2');
      if (round === 'cached') await screenshot(page, 'job-form-list');
      await page.getByRole('button', { name: 'Start job' }).click();
      await page.waitForURL(/\/app\/jobs\//);
      const heading = page.getByRole('heading', { name: /Details job/ });
      await expect.poll(() => heading.textContent(), { timeout: 60_000 }).toMatch(/completed|failed/);
      expect(await heading.textContent()).toContain('completed');
      const targetRows = page.locator('h2:text-is("Targets") + .table-wrap tbody tr');
      expect(await targetRows.allTextContents()).toEqual([
        expect.stringContaining('B0SIM00001'),
        expect.stringContaining('B0SIM00002'),
        expect.stringContaining('B0SIM00003'),
      ]);
      const cached = await page.getByTestId('target-cached').allTextContents();
      if (round === 'fetched') expect(cached).toEqual([]);
      else {
        expect(cached).toHaveLength(3);
        for (const text of cached) expect(text).toMatch(/^from cache, fetched (just now|\d+ min ago)$/);
        await screenshot(page, 'job-cached');
      }
    }
    expect(pageErrors).toEqual([]);
  }, 150_000);

  it('deletes a list after a confirm', async () => {
    await page.goto(`${server.url}/app/projects/${projectId}/lists`);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete the list Lamps' }).click();
    await page.getByText('No target lists yet.').waitFor();
    expect(pageErrors).toEqual([]);
  }, 30_000);
});
