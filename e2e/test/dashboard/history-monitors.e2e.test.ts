/**
 * The dashboard's monitors and product pages in a real Chromium against the all-in-one crawling a
 * simulator the test changes: a monitor built in the editor (rules with selects, read back in
 * words, a wrong value said in words, submitted from the keyboard), run from its page twice around
 * a price drop, the event in its feed linked to the product's page, whose latest values and charts
 * show the drop; pause, resume and delete. Every page is checked at phone width, with screenshots
 * like the main browser suite. Skipped without Chromium, except in CI.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DASHBOARD_DIST } from '@crawl/dashboard';
import { createSimulator, type Simulator } from '@crawl/marketplace-simulator';
import { type ListeningService, startListeningAllInOne } from '@crawl/server/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHROMIUM_PATH, hasChromium, launchChromium } from './chromium.ts';
import { DESKTOP, screenshot } from './screenshots.ts';

if (!hasChromium()) {
  if (process.env.CI === 'true') throw new Error(`Chromium is missing at ${CHROMIUM_PATH}: the dashboard tests need it in CI`);
  console.warn(`dashboard monitor pages skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`);
}

const PRODUCT = 'B0SIM00024';
const PASSWORD = 'a-long-enough-password';

describe.skipIf(!hasChromium())('dashboard monitors and product history in Chromium', () => {
  let sim: Simulator;
  let api: ListeningService;
  let chromium: { context: BrowserContext; close: () => Promise<void> };
  let page: Page;
  let token: string;
  let projectId: string;
  const pageErrors: string[] = [];

  async function apiCall<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${api.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await res.json()) as T;
  }
  async function setProduct(body: unknown): Promise<void> {
    const res = await fetch(`${sim.url}/__control/products/${PRODUCT}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
  }
  /** Runs the monitor from its page and waits for the job the page says it started to end. */
  async function runNow(): Promise<string> {
    await page.getByRole('button', { name: 'Run monitor Mouse price now' }).click();
    const notice = page.getByRole('status').filter({ hasText: 'Started job' });
    await notice.waitFor();
    const jobId = /Started job (job_\S+):/.exec((await notice.textContent()) ?? '')?.[1] as string;
    expect(jobId).toBeTruthy();
    await vi.waitFor(
      async () => expect((await apiCall<{ data: { status: string; monitorId: string } }>('GET', `/jobs/${jobId}`)).data).toMatchObject({ status: 'completed' }),
      { timeout: 30_000, interval: 100 },
    );
    return jobId;
  }

  beforeAll(async () => {
    if (!existsSync(join(DASHBOARD_DIST, 'index.html'))) throw new Error(`no dashboard build in ${DASHBOARD_DIST}: pnpm --filter @crawl/dashboard build`);
    sim = await createSimulator({ pageSize: 'small', seed: 24 });
    [api, chromium] = await Promise.all([
      startListeningAllInOne({ MARKETPLACE: 'live', MARKETPLACE_BASE_URL: sim.url, MARKETPLACE_EXTRA_HOSTS: sim.host }),
      launchChromium({ viewport: DESKTOP, locale: 'en-US', timezoneId: 'UTC' }),
    ]);
    const email = `dash-monitors-${Date.now()}@example.com`;
    const registered = await fetch(`${api.url}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    token = ((await registered.json()) as { accessToken: string }).accessToken;
    projectId = (await apiCall<{ data: { id: string } }>('POST', '/projects', { name: 'Watched products' })).data.id;
    await setProduct({ price: 50, inStock: true });

    page = chromium.context.pages()[0] ?? (await chromium.context.newPage());
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) pageErrors.push(message.text());
    });
    await page.goto(`${api.url}/app/`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await chromium?.close();
    await api?.close();
    await sim?.close();
  });

  it('builds a monitor in the editor: rules from selects read back in words, a wrong value said in words, submitted with Enter', async () => {
    await page.goto(`${api.url}/app/projects/${projectId}/jobs`);
    await page.getByRole('navigation', { name: 'Project sections' }).getByRole('link', { name: 'Monitors' }).click();
    await page.getByText('No monitors yet.').waitFor();
    await page.getByRole('button', { name: 'New monitor' }).click();
    await page.getByLabel('ASINs or product URLs, one per line').fill(`${PRODUCT}\n`);
    const words = page.getByTestId('rule-words');
    await expect.poll(() => words.first().textContent()).toBe('Fires when price drops by 10 %.');

    await page.getByRole('button', { name: 'Add rule' }).click();
    const second = page.getByRole('group', { name: 'Rule 2' });
    await second.getByLabel('Field').selectOption('inStock');
    await expect
      .poll(() => second.getByLabel('Operation').locator('option').allTextContents())
      .toEqual(['changes', 'becomes unavailable', 'becomes available']);
    await second.getByLabel('Operation').selectOption('becomesUnavailable');
    await expect.poll(() => words.nth(1).textContent()).toBe('Fires when it becomes unavailable.');

    const first = page.getByRole('group', { name: 'Rule 1' });
    await first.getByLabel('Percent').fill('150');
    await expect.poll(() => words.first().textContent()).toBe('Give a percentage above 0 and at most 100.');
    await first.getByLabel('Percent').fill('15');
    await first.getByLabel('Crawl the target once more to confirm before it fires').check();
    await first.getByLabel('Crawl the target once more to confirm before it fires').uncheck();
    await expect.poll(() => words.first().textContent()).toBe('Fires when price drops by 15 %.');
    await screenshot(page, 'monitor-editor');

    // The name last, then Enter: the form submits from the keyboard.
    await page.getByLabel('Name').fill('Mouse price');
    await page.getByLabel('Name').press('Enter');
    await page.waitForURL(/\/app\/monitors\/mon_/);
    await expect
      .poll(() => page.getByTestId('monitor-rules').locator('li').allTextContents())
      .toEqual(['when price drops by 15 %', 'when it becomes unavailable']);
    await page.getByText('No rule has fired yet.', { exact: false }).waitFor();
  });

  it('runs it around a price drop: the event is in the feed, linked to the job and to the product page', async () => {
    const baseline = await runNow();
    await setProduct({ price: 40 });
    const changed = await runNow();
    expect(changed).not.toBe(baseline);
    await page.reload();
    const row = page.getByTestId('monitor-event');
    await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => row.first().textContent()).toContain('price 50 → 40 (−20 %)');
    expect(await row.first().textContent()).toContain('when price drops by 15 %');
    expect(
      await row
        .first()
        .getByRole('link', { name: `Job ${changed}` })
        .getAttribute('href'),
    ).toBe(`/app/jobs/${changed}`);
    await screenshot(page, 'monitor-detail');

    await row.first().getByRole('link', { name: PRODUCT }).click();
    await page.waitForURL(new RegExp(`/app/products/${PRODUCT}\\?domain=amazon\\.com$`));
    await expect.poll(() => page.getByTestId('latest-values').textContent()).toContain('$40.00');
    expect(await page.getByTestId('latest-values').textContent()).toContain('Yes');
    await page.getByLabel('Points').selectOption('raw');
    await expect.poll(() => page.getByTestId('price-chart').locator('canvas').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('price-chart').getByRole('img').getAttribute('aria-label')).toBe('Price: Price from $40.00 to $50.00, latest $40.00.');
    await page.getByText('Change points as a table (2)').click();
    await screenshot(page, 'product-history');
  });

  it('pauses, resumes and deletes from the monitors list; no page error or blocked resource', async () => {
    await page.goto(`${api.url}/app/projects/${projectId}/monitors`);
    const card = page.getByTestId('monitor-card');
    await card.getByRole('button', { name: 'Pause monitor Mouse price' }).click();
    await expect.poll(() => card.locator('.status').textContent()).toBe('paused');
    await screenshot(page, 'monitors');
    await card.getByRole('button', { name: 'Resume monitor Mouse price' }).click();
    await expect.poll(() => card.locator('.status').textContent()).toBe('active');
    page.once('dialog', (dialog) => void dialog.accept());
    await card.getByRole('button', { name: 'Delete monitor Mouse price' }).click();
    await page.getByText('No monitors yet.').waitFor();
    expect(pageErrors).toEqual([]);
  });
});
