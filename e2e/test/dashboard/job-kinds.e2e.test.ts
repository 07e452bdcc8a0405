/**
 * The job form and job page for the page kinds besides search and details, in a real Chromium
 * against the all-in-one crawling the built-in simulator: every type offered with what it fetches,
 * only the chosen type's options shown, the cost held per type ("at most" where pages that yield
 * records are charged); a reviews job made in the form, its config as chosen, each target's
 * resolved key and coverage in words, and the reviews' own columns. Skipped without Chromium,
 * except in CI.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DASHBOARD_DIST } from '@crawl/dashboard';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, hasChromium, launchChromium } from './chromium.ts';
import { DESKTOP, screenshot } from './screenshots.ts';
import { type Deployment, startAllInOne } from './servers.ts';

if (!hasChromium()) {
  if (process.env.CI === 'true') throw new Error(`Chromium is missing at ${CHROMIUM_PATH}: the dashboard tests need it in CI`);
  console.warn(`dashboard job kinds skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`);
}

const PASSWORD = 'a-long-enough-password';

describe.skipIf(!hasChromium())('dashboard jobs of every page kind in Chromium', () => {
  let server: Deployment;
  let chromium: { context: BrowserContext; close: () => Promise<void> };
  let page: Page;
  let token: string;
  let projectId: string;
  const pageErrors: string[] = [];

  async function apiCall<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await res.json()) as T;
  }

  const cost = () => page.getByTestId('job-cost').textContent();
  const costLine = () => page.locator('p.cost').textContent();

  beforeAll(async () => {
    if (!existsSync(join(DASHBOARD_DIST, 'index.html'))) throw new Error(`no dashboard build in ${DASHBOARD_DIST}: pnpm --filter @crawl/dashboard build`);
    [server, chromium] = await Promise.all([startAllInOne(), launchChromium({ viewport: DESKTOP, locale: 'en-US', timezoneId: 'UTC' })]);
    const email = `dash-kinds-${Date.now()}@example.com`;
    const registered = await fetch(`${server.url}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    token = ((await registered.json()) as { accessToken: string }).accessToken;
    projectId = (await apiCall<{ data: { id: string } }>('POST', '/projects', { name: 'Page kinds' })).data.id;

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

  it("offers every type, shows only the chosen type's options and prices each as the catalog holds it", async () => {
    await page.goto(`${server.url}/app/projects/${projectId}/jobs`);
    const types = page.getByRole('group', { name: 'Type' }).getByRole('radio');
    await expect.poll(() => types.count()).toBe(8);
    expect(await page.getByRole('group', { name: 'Type' }).locator('strong').allTextContents()).toEqual([
      'Search',
      'Details',
      'Reviews',
      'Offers',
      'Best sellers',
      'Category',
      'Seller',
      'Autocomplete',
    ]);

    await page.getByRole('radio', { name: /^Offers/ }).check();
    await page.getByLabel('ASINs or offer-listing URLs, one per line').fill('B0SIM00005\nB0SIM00006');
    await expect.poll(cost).toBe('20');
    expect(await costLine()).toMatch(/costs at most 20 credits \(1 a page that yields offers, never more\)/);
    await page.getByLabel('Offer condition').selectOption('used');
    expect(await page.getByLabel('Pages per keyword').count()).toBe(0);
    expect(await page.getByLabel('Verified purchases only').count()).toBe(0);

    await page.getByRole('radio', { name: /^Best sellers/ }).check();
    await page.getByLabel('Browse node ids or best-seller URLs, one per line').waitFor();
    await expect.poll(cost).toBe('10');
    expect(await costLine()).not.toContain('at most');
    expect(await page.getByLabel('Offer condition').count()).toBe(0);
    await page.getByLabel('Ranked list').selectOption('new-releases');

    await page.getByRole('radio', { name: /^Category/ }).check();
    await page.getByLabel('Pages per category').fill('3');
    await expect.poll(cost).toBe('30');
    expect(await page.getByLabel('Ranked list').count()).toBe(0);

    await page.getByRole('radio', { name: /^Seller/ }).check();
    await page.getByLabel('Seller ids or profile URLs, one per line').waitFor();
    await expect.poll(cost).toBe('4');
    expect(await page.getByLabel('Sort').count()).toBe(0);

    await page.getByRole('radio', { name: /^Autocomplete/ }).check();
    await page.getByLabel('Prefixes, one per line').waitFor();
    await expect.poll(cost).toBe('2');
  });

  it('creates a reviews job from the form: its options, cost, coverage, resolved keys and review columns', async () => {
    await page.getByRole('radio', { name: /^Reviews/ }).check();
    await page.getByLabel('ASINs or review URLs, one per line').fill('B0SIM00001\nhttps://www.amazon.com/product-reviews/B0SIM00002');
    // maxReviews 100 by default: ten pages of reviews held per target.
    await expect.poll(cost).toBe('20');
    expect(await costLine()).toContain('costs at most 20 credits (1 a page that yields reviews, never more)');
    await page.getByLabel('Reviews per product, at most').fill('30');
    await expect.poll(cost).toBe('6');
    await page.getByLabel('5 stars').check();
    await page.getByLabel('4 stars').check();
    await page.getByLabel('Sort').selectOption('recent');
    await screenshot(page, 'job-form-reviews');
    await page.getByRole('button', { name: 'Start job' }).click();
    await page.getByRole('heading', { name: /Reviews job/ }).waitFor();
    const jobId = /\/app\/jobs\/([^/?#]+)/.exec(page.url())?.[1] as string;
    expect(jobId).toBeTruthy();
    const job = (await apiCall<{ data: { type: string; config: Record<string, unknown>; creditsReserved: number } }>('GET', `/jobs/${jobId}`)).data;
    expect(job.type).toBe('reviews');
    expect(job.config).toEqual({ stars: [5, 4], sort: 'recent', maxReviews: 30 });
    expect(job.creditsReserved).toBe(6);

    await expect.poll(() => page.getByRole('heading', { name: /Reviews job/ }).textContent(), { timeout: 60_000 }).toMatch(/completed|failed/);
    expect(await page.getByRole('heading', { name: /Reviews job/ }).textContent()).toContain('completed');
    // The URL target names the ASIN it was resolved to; the bare ASIN is its own.
    expect(await page.getByRole('row', { name: /product-reviews/ }).textContent()).toContain('resolved: B0SIM00002');
    expect(await page.getByRole('row', { name: /^B0SIM00001/ }).textContent()).not.toContain('resolved:');
    const coverage = page.getByTestId('target-coverage');
    await expect.poll(() => coverage.count()).toBeGreaterThan(0);
    for (const text of await coverage.allTextContents()) {
      expect(text).toMatch(
        /^\d[\d,]* (of [\d,]+ (reviews|ratings)|fetched) — (all there are|stopped at the job’s maxReviews|the marketplace shows no more pages|stopped by a sign-in wall)$/,
      );
    }

    const headers = page.locator('table.results thead th');
    await expect.poll(() => headers.count(), { timeout: 15_000 }).toBeGreaterThan(0);
    const names = (await headers.allTextContents()).map((text) => text.trim().split(' ')[0]);
    expect(names[0]).toBe('rating');
    expect(names).toEqual(expect.arrayContaining(['title', 'verifiedPurchase']));
    expect(names).not.toContain('body');
    await screenshot(page, 'job-reviews');
    expect(pageErrors).toEqual([]);
  });
});
