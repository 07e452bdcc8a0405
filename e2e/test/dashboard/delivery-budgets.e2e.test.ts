/**
 * Cost control and delivery in the dashboard, in a real Chromium against the all-in-one crawling
 * the built-in simulator: the server's estimate under the job form (credits, balance, queue), a
 * "Spend at most" cap the estimate flags and the create refuses in words, a schedule's monthly
 * budget, and the project's destinations (listed empty; with an S3 server from `scripts/s3.sh`
 * (TEST_S3_URL): one created in the form, tested, chosen in the job form, the job's delivery seen
 * delivered and replayed, then deleted). Skipped without Chromium, and the S3 part without an S3
 * server, except in CI.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DASHBOARD_DIST } from '@crawl/dashboard';
import { createTestBucket, s3TestServer, TEST_S3_CREDENTIALS } from '@crawl/destination-s3/test-server';
import { startListeningAllInOne } from '@crawl/server/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, hasChromium, launchChromium } from './chromium.ts';
import { DESKTOP, screenshot } from './screenshots.ts';
import { DASHBOARD_TEST_ENV } from './servers.ts';

if (!hasChromium()) {
  if (process.env.CI === 'true') throw new Error(`Chromium is missing at ${CHROMIUM_PATH}: the dashboard tests need it in CI`);
  console.warn(`dashboard delivery and budgets skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`);
}

const PASSWORD = 'a-long-enough-password';
const s3 = hasChromium() ? await s3TestServer() : { skipReason: 'no Chromium' };

describe.skipIf(!hasChromium())('dashboard estimates, caps, budgets and destinations in Chromium', () => {
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
    const email = `dash-delivery-${Date.now()}@example.com`;
    const registered = await fetch(`${server.url}/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    const token = ((await registered.json()) as { accessToken: string }).accessToken;
    const project = await fetch(`${server.url}/projects`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Delivery' }),
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

  it("shows the server's estimate as the form is typed, and a cap the create refuses in words", async () => {
    await page.goto(`${server.url}/app/projects/${projectId}/jobs`);
    await page.getByRole('radio', { name: /^Search/ }).check();
    await page.getByLabel('Keywords, one per line').fill('usb-c cable\nlamp\nusb-c cable');
    await expect.poll(() => page.getByTestId('estimate-credits').textContent(), { timeout: 10_000 }).toBe('10 credits');
    const panel = page.getByTestId('job-estimate');
    expect(await panel.textContent()).toContain('for 2 targets');
    expect(await page.getByTestId('estimate-balance').textContent()).toMatch(/available/);
    expect(await page.getByTestId('estimate-queue').textContent()).toMatch(/^Queue: #1 in your queue, \d+ targets? ahead, /);
    expect(await panel.textContent()).toMatch(/Monthly limits: (uses 2 of the [\d,]+ targets left this month|over)/);

    await page.getByLabel('Pages per keyword').fill('2');
    await expect.poll(() => page.getByTestId('estimate-credits').textContent(), { timeout: 10_000 }).toBe('20 credits');

    await page.getByLabel('Spend at most (credits, optional)').fill('15');
    await expect.poll(() => panel.textContent(), { timeout: 10_000 }).toContain('over your cap of 15: the job would be refused');
    await screenshot(page, 'job-form-estimate');
    await page.getByRole('button', { name: 'Start job' }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.first().textContent(), { timeout: 10_000 }).toMatch(/Over your spending cap: .*20 credits.*15/);
    expect(page.url()).toContain(`/projects/${projectId}/jobs`);

    await page.getByLabel('Spend at most (credits, optional)').fill('20');
    await expect.poll(() => panel.textContent(), { timeout: 10_000 }).toContain('within your cap of 20');
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('takes a monthly budget on a schedule and shows it against the month', async () => {
    await page.goto(`${server.url}/app/projects/${projectId}/schedules`);
    await page.getByRole('button', { name: 'New schedule' }).click();
    await page.getByRole('radio', { name: /^Details/ }).check();
    await page.getByLabel('ASINs or product URLs, one per line').fill('B0SIM00001');
    await page.getByLabel('Monthly budget (credits, optional)').fill('0');
    expect(await page.locator('#budget-note').textContent()).toContain('Monthly budget: a whole number');
    await page.getByLabel('Monthly budget (credits, optional)').fill('500');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await expect.poll(() => page.getByTestId('schedule-budget').first().textContent(), { timeout: 10_000 }).toMatch(/^0 of 500 credits in \d{4}-\d{2}$/);
  }, 60_000);

  it('lists the project destinations and says why a create is refused', async () => {
    await page.goto(`${server.url}/app/projects/${projectId}/delivery`);
    await page.getByRole('heading', { name: 'Destinations' }).waitFor();
    await page.getByText('No destinations yet.').waitFor();
    await page.getByRole('button', { name: 'New destination' }).click();
    await page.getByLabel('Bucket').fill('no-such-store');
    await page.getByLabel('Endpoint (S3-compatible stores; empty for AWS)').fill('http://127.0.0.1:9');
    await page.getByLabel('Access key id').fill('key');
    await page.getByLabel('Secret access key').fill('secret');
    await page.getByRole('button', { name: 'Add destination' }).click();
    await expect.poll(() => page.getByRole('alert').first().textContent(), { timeout: 30_000 }).toBeTruthy();
    expect(await page.getByTestId('destinations').locator('li').count()).toBe(0);
  }, 60_000);

  it.skipIf(s3.skipReason !== undefined)(
    'creates, tests and uses a destination: the job page lists its delivery, replayed on demand',
    async () => {
      const endpoint = s3.url as string;
      const bucket = `dash-${Date.now()}`;
      await createTestBucket(endpoint, bucket);
      await page.goto(`${server.url}/app/projects/${projectId}/delivery`);
      if ((await page.getByRole('button', { name: 'New destination' }).count()) > 0) await page.getByRole('button', { name: 'New destination' }).click();
      await page.getByLabel('Name').fill('Results');
      await page.getByLabel('Bucket').fill(bucket);
      await page.getByLabel('Prefix').fill('crawl');
      await page.getByLabel('Region').fill(TEST_S3_CREDENTIALS.region);
      await page.getByLabel('Endpoint (S3-compatible stores; empty for AWS)').fill(endpoint);
      await page.getByLabel('Access key id').fill(TEST_S3_CREDENTIALS.accessKeyId);
      await page.getByLabel('Secret access key').fill(TEST_S3_CREDENTIALS.secretAccessKey);
      await page.getByRole('button', { name: 'Add destination' }).click();
      const row = page.getByTestId('destinations').locator('li').first();
      await expect.poll(() => row.textContent(), { timeout: 15_000 }).toContain(`s3://${bucket}/crawl at ${endpoint}`);
      expect(await page.content()).not.toContain(TEST_S3_CREDENTIALS.secretAccessKey);
      await page.getByRole('button', { name: 'Test destination Results' }).click();
      await expect.poll(() => page.getByTestId('destination-test').textContent(), { timeout: 15_000 }).toMatch(/^Test object written/);
      await screenshot(page, 'delivery');

      await page.goto(`${server.url}/app/projects/${projectId}/jobs`);
      await page.getByRole('radio', { name: /^Details/ }).check();
      await page.getByLabel('ASINs or product URLs, one per line').fill('B0SIM00001\nB0SIM00002');
      await page.getByLabel('Write the results to').selectOption({ label: `Results — s3://${bucket}/crawl at ${endpoint}` });
      await page.getByRole('button', { name: 'Start job' }).click();
      await page.waitForURL(/\/app\/jobs\//);
      const deliveries = page.locator('section[aria-labelledby="deliveries-title"]');
      await expect
        .poll(() => deliveries.textContent({ timeout: 1_000 }).catch(() => page.locator('main').textContent()), { timeout: 60_000 })
        .toMatch(/delivered after 1 attempt, \d+ rows?/);
      expect(await deliveries.textContent()).toContain('manifest.json');
      await deliveries.getByRole('button', { name: /^Replay delivery/ }).click();
      await expect.poll(() => deliveries.textContent(), { timeout: 30_000 }).toMatch(/delivered after 2 attempts/);
      await screenshot(page, 'job-deliveries');

      await page.goto(`${server.url}/app/projects/${projectId}/delivery`);
      page.once('dialog', (dialog) => void dialog.accept());
      await page.getByRole('button', { name: 'Delete destination Results' }).click();
      await page.getByText('No destinations yet.').waitFor();
      expect(pageErrors).toEqual([]);
    },
    120_000,
  );
});
