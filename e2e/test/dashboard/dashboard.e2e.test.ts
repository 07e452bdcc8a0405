/**
 * The dashboard in a real Chromium against the all-in-one crawling the marketplace simulator: the
 * pages a customer uses, driven as a user would (labels, buttons, links), with screenshots of each
 * page at desktop and phone width under test-output/screenshots. In CI (CI=true) a missing
 * Chromium fails the suite; elsewhere it is skipped with a note. The app is the dashboard's build
 * as it stands: turbo runs `@crawl/dashboard`'s build before this package's tests.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DASHBOARD_DIST } from '@crawl/dashboard';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_PATH, hasChromium, launchChromium } from './chromium.ts';
import { DESKTOP, screenshot as takeScreenshots } from './screenshots.ts';
import { type Deployment, startAllInOne, startSplit, startWebhookReceiver, type WebhookReceiver } from './servers.ts';

const inCi = process.env.CI === 'true';
if (!hasChromium()) {
  if (inCi) throw new Error(`Chromium is missing at ${CHROMIUM_PATH}: the dashboard tests need it in CI (apt-get install chromium; .ci/run does)`);
  console.warn(`dashboard browser tests skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`);
}

const PASSWORD = 'a-long-enough-password';

dashboardSuite('all-in-one', startAllInOne);
dashboardSuite('split services (gateway in its own process)', startSplit);

function dashboardSuite(mode: string, start: () => Promise<Deployment>) {
  const allInOne = mode === 'all-in-one';
  // Screenshots come from the all-in-one run; the split run checks the same pages.
  const screenshot = allInOne ? takeScreenshots : async () => {};

  describe.skipIf(!hasChromium())(`dashboard in Chromium: ${mode}`, () => {
    let server: Deployment;
    let receiver: WebhookReceiver;
    let chromium: { context: BrowserContext; close: () => Promise<void> };
    let context: BrowserContext;
    let page: Page;
    const email = `dash-${Date.now()}@example.com`;
    const pageErrors: string[] = [];
    const offOrigin: string[] = [];
    const eventStreams: string[] = [];
    let projectUrl = '';
    let jobUrl = '';

    beforeAll(async () => {
      if (!existsSync(join(DASHBOARD_DIST, 'index.html'))) {
        throw new Error(`no dashboard build in ${DASHBOARD_DIST}: pnpm --filter @crawl/dashboard build (turbo runs it before these tests)`);
      }
      [server, receiver, chromium] = await Promise.all([
        start(),
        startWebhookReceiver(),
        launchChromium({ viewport: DESKTOP, acceptDownloads: true, locale: 'en-US', timezoneId: 'UTC' }),
      ]);
      context = chromium.context;
      page = context.pages()[0] ?? (await context.newPage());
      page.on('pageerror', (error) => pageErrors.push(error.message));
      page.on('console', (message) => {
        // A CSP violation is reported on the console: the page must not need anything the policy forbids.
        if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) pageErrors.push(message.text());
      });
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (/^\/jobs\/[^/]+\/events$/.test(url.pathname)) eventStreams.push(url.pathname);
        if (url.origin !== new URL(server.url).origin && !['data:', 'blob:'].includes(url.protocol)) offOrigin.push(request.url());
      });
    }, 120_000);

    afterAll(async () => {
      await chromium?.close();
      await receiver?.close();
      await server?.close();
    });

    it('serves /app with its CSP and caching, and keeps the API headers', async () => {
      const index = await fetch(`${server.url}/app/`);
      expect(index.status).toBe(200);
      expect(index.headers.get('cache-control')).toBe('no-cache');
      expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
      const html = await index.text();
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
      const asset = /src="(\/app\/assets\/[^"]+\.js)"/.exec(html)?.[1];
      expect(asset).toBeDefined();
      const js = await fetch(server.url + asset);
      expect(js.status).toBe(200);
      expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const deepLink = await fetch(`${server.url}/app/projects/abc/jobs`);
      expect(deepLink.status).toBe(200);
      expect(await deepLink.text()).toBe(html);
      const missing = await fetch(`${server.url}/app/assets/nothing-here.js`);
      expect(missing.status).toBe(404);
      expect((await missing.json()).error.code).toBe('NOT_FOUND');
      const health = await fetch(`${server.url}/health`);
      expect(health.headers.get('content-security-policy')).toBeNull();
      expect(health.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('signs up (referral code from ?ref=), signs out, refuses a wrong password in words, signs in', async () => {
      await page.goto(`${server.url}/app?ref=NOSUCHCODE`);
      await expect.poll(() => page.getByLabel('Referral code (optional)').inputValue()).toBe('NOSUCHCODE');
      await screenshot(page, 'sign-up');
      await page.getByLabel('Referral code (optional)').fill('');
      await page.getByLabel('Name').fill('Dana Dashboard');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign up' }).click();
      await page.getByRole('heading', { name: 'Projects' }).waitFor();
      const stored = await page.evaluate(() => ({ session: sessionStorage.getItem('crawl.session'), cookie: document.cookie }));
      expect(stored.session).toContain('token');
      expect(stored.cookie).toBe('');

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill('not-the-password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('Wrong email or password');
      await screenshot(page, 'sign-in-error');
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Projects' }).waitFor();
    });

    it('creates, renames, archives and unarchives a project', async () => {
      await page.getByLabel('New project name').fill('Headphones');
      await page.getByRole('button', { name: 'Create project' }).click();
      await page.getByRole('link', { name: 'Headphones' }).waitFor();
      await page.getByRole('button', { name: 'Rename Headphones' }).click();
      await page.getByLabel('Name', { exact: true }).fill('Headphones research');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('link', { name: 'Headphones research' }).waitFor();
      await page.getByRole('button', { name: 'Archive Headphones research' }).click();
      await page.getByText('No projects yet').waitFor();
      await page.getByLabel('Archived').check();
      await page.getByRole('button', { name: 'Unarchive Headphones research' }).click();
      await page.getByLabel('Active').check();
      await page.getByRole('link', { name: 'Headphones research' }).waitFor();
      await screenshot(page, 'projects');
      await page.getByRole('link', { name: 'Headphones research' }).click();
      await page.getByRole('heading', { name: 'Jobs' }).waitFor();
      projectUrl = page.url();
    });

    it('creates a search job with its cost shown, watches it complete live and sees its results', async () => {
      // Targets read from a file: the first column of each line (a plain list or a CSV).
      await page
        .getByLabel('Or read them from a file (.txt or .csv)')
        .setInputFiles({ name: 'targets.csv', mimeType: 'text/csv', buffer: Buffer.from('usb hub,x\nhdmi cable,y\n') });
      await expect.poll(() => page.getByLabel('Keywords, one per line').inputValue()).toBe('usb hub\nhdmi cable\n');
      await expect.poll(() => page.getByTestId('job-cost').textContent()).toBe('10');
      await page.getByLabel('Keywords, one per line').fill('wireless headphones\nusb-c cable\nwireless headphones\nblocked speaker\nslowsearch lamp');
      // Four distinct keywords at 5 credits each.
      await expect.poll(() => page.getByTestId('job-cost').textContent()).toBe('20');
      await page.getByLabel('Pages per keyword').fill('2');
      await expect.poll(() => page.getByTestId('job-cost').textContent()).toBe('40');
      await page.getByLabel('Pages per keyword').fill('1');
      await screenshot(page, 'job-create');
      await page.getByRole('button', { name: 'Start job' }).click();
      await page.getByRole('heading', { name: /Search job/ }).waitFor();
      jobUrl = page.url();
      await expect.poll(() => page.getByRole('heading', { name: /Search job/ }).textContent(), { timeout: 30_000 }).toContain('completed');
      // The page followed the job over its event stream (the simulator holds "slowsearch" pages 300 ms).
      expect(eventStreams.length).toBeGreaterThan(0);
      const blocked = page.getByRole('row', { name: /blocked speaker/ });
      await expect.poll(() => blocked.textContent()).toMatch(/failed.*block/i);
      // Each success says whether it is charged; the job sums them up.
      expect(
        await page
          .getByRole('row', { name: /usb-c cable/ })
          .getByRole('cell')
          .allTextContents(),
      ).toContain('yes');
      expect(await page.getByTestId('target-charges').textContent()).toMatch(/^[1-9]\d* charged, \d+ delivered without charge$/);
      expect(Number(await page.getByTestId('result-count').textContent())).toBeGreaterThan(0);
      await page.getByRole('table').last().waitFor();
      await screenshot(page, 'job-detail');
    });

    it('sorts results by price, hides a column, and exports CSV that parses', async () => {
      await page.getByRole('button', { name: /^price/ }).click();
      const prices = await page.locator('table.results tbody tr').evaluateAll((rows) =>
        rows.map((row) => {
          const headers = [...document.querySelectorAll('table.results thead th')].map((th) => th.textContent?.trim().split(' ')[0]);
          const cell = row.children[headers.indexOf('price')]?.textContent ?? '';
          return Number.parseFloat(cell);
        }),
      );
      const numeric = prices.filter((p) => Number.isFinite(p));
      expect(numeric.length).toBeGreaterThan(1);
      expect(numeric).toEqual([...numeric].sort((a, b) => a - b));

      await page.getByText('Columns', { exact: true }).click();
      await page.getByRole('checkbox', { name: 'asin' }).uncheck();
      expect(await page.locator('table.results thead th').allTextContents()).not.toContain('asin');

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
      const path = await download.path();
      const csv = readFileSync(path, 'utf8').trim().split(/\r?\n/);
      expect(csv[0]).toMatch(/asin/);
      expect(csv.length - 1).toBe(Number(await page.getByTestId('result-count').textContent()));
    });

    it('retries a finished job as a new job', async () => {
      await page.getByRole('button', { name: 'Retry job' }).click();
      await expect.poll(() => page.url()).not.toBe(jobUrl);
      expect(page.url()).toMatch(/\/app\/jobs\/[^/]+$/);
      await expect.poll(() => page.getByRole('heading', { name: /Search job/ }).textContent(), { timeout: 30_000 }).toContain('completed');
    });

    it('cancels a running job: its open targets end cancelled', async () => {
      await page.goto(projectUrl);
      await page.getByText('New job').click();
      // 24 pages the simulator holds 300 ms each, four at a time: about two seconds of crawling.
      const slow = Array.from({ length: 24 }, (_, i) => `slowsearch item ${i}`).join('\n');
      await page.getByLabel('Keywords, one per line').fill(slow);
      await page.getByRole('button', { name: 'Start job' }).click();
      await page.getByRole('button', { name: 'Cancel job' }).click();
      await expect.poll(() => page.getByRole('heading', { name: /Search job/ }).textContent(), { timeout: 30_000 }).toContain('cancelled');
      expect(await page.getByRole('row', { name: /slowsearch item.*cancelled/ }).count()).toBeGreaterThan(0);
      await page.getByRole('button', { name: 'Retry job' }).waitFor();
    });

    it('says in words why a job was refused (the monthly target limit)', async () => {
      await page.goto(projectUrl);
      await page.getByText('New job').click();
      const many = Array.from({ length: 120 }, (_, i) => `keyword ${i}`).join('\n');
      await page.getByLabel('Keywords, one per line').fill(many);
      await page.getByRole('button', { name: 'Start job' }).click();
      const alert = page.getByRole('alert');
      await expect.poll(() => alert.textContent()).toMatch(/^Monthly target limit reached .*Monthly limits start again/);
      await screenshot(page, 'job-refused');
    });

    it('falls back to polling the job where the server has no event stream', async () => {
      // As an older server answers: the stream route is unknown.
      await page.route('**/jobs/*/events', (route) =>
        route.fulfill({
          status: 404,
          contentType: 'application/json',
          body: JSON.stringify({ success: false, error: { code: 'NOT_FOUND', message: 'Route not found', details: [] } }),
        }),
      );
      const polls: string[] = [];
      const onRequest = (request: { url(): string }) => {
        if (/\/jobs\/[^/]+$/.test(new URL(request.url()).pathname)) polls.push(request.url());
      };
      page.on('request', onRequest);
      try {
        await page.goto(projectUrl);
        await page.getByText('New job').click();
        await page.getByLabel('Keywords, one per line').fill('slowsearch chair\nslowsearch table\nslowsearch shelf\nslowsearch rug\nslowsearch stool');
        await page.getByRole('button', { name: 'Start job' }).click();
        await page.getByText('polling every 1.5 s').waitFor();
        await expect.poll(() => page.getByRole('heading', { name: /Search job/ }).textContent(), { timeout: 30_000 }).toContain('completed');
        expect(polls.length).toBeGreaterThan(2);
      } finally {
        page.off('request', onRequest);
        await page.unroute('**/jobs/*/events');
      }
    });

    it('works from the keyboard: a skip link first, visible focus, forms submitted with Enter', async () => {
      await page.goto(`${server.url}/app/projects`);
      await page.getByRole('heading', { name: 'Projects' }).waitFor();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
      await page.getByLabel('New project name').focus();
      const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
      expect(outline).not.toBe('none');
      await page.keyboard.type('Keyboard project');
      await page.keyboard.press('Enter');
      await page.getByRole('link', { name: 'Keyboard project' }).waitFor();
    });

    it('creates a schedule with the cron in words and the next runs, edits and disables it', async () => {
      await page.goto(projectUrl.replace(/\/jobs$/, '/schedules'));
      await page.getByRole('button', { name: 'New schedule' }).click();
      await page.getByLabel('Cron rule').fill('0 6 * * *');
      await expect.poll(() => page.getByTestId('cron-words').textContent()).toBe('At 06:00, every day (UTC)');
      await page.getByText(/^Next runs:/).waitFor();
      await page.getByLabel('Keywords, one per line').fill('standing desk');
      await screenshot(page, 'schedule-create');
      await page.getByRole('button', { name: 'Create schedule' }).click();
      const card = page.locator('li.card', { hasText: '0 6 * * *' });
      await card.getByText('enabled', { exact: true }).waitFor();
      await card.getByText('At 06:00, every day (UTC)').waitFor();
      await card.getByRole('button', { name: 'Edit' }).click();
      await card.getByLabel('Cron rule').fill('30 7 * * 1');
      await card.getByRole('button', { name: 'Save schedule' }).click();
      const edited = page.locator('li.card', { hasText: '30 7 * * 1' });
      await edited.getByText(/At 07:30, only on Monday/).waitFor();
      await edited.getByRole('button', { name: /^Disable schedule/ }).click();
      await edited.getByText('disabled', { exact: true }).waitFor();
      await screenshot(page, 'schedules');
    });

    it('shows usage against limits, buys a sandbox credit package and sees the balance grow, with the daily chart and referral code', async () => {
      await page.getByRole('link', { name: 'Usage & credits' }).click();
      const available = page.getByTestId('credits-available');
      await available.waitFor();
      const before = Number((await available.textContent())!.replace(/\D/g, ''));
      await page.locator('.chart canvas').first().waitFor();
      // The jobs crawled earlier in this run were charged: the ledger's days show it.
      await expect.poll(async () => Number((await page.getByTestId('credits-spent-month').textContent())!.replace(/\D/g, ''))).toBeGreaterThan(0);
      expect(await page.getByTestId('targets-charged').textContent()).toMatch(/^Targets settled: [1-9][\d,]* charged, [\d,]+ delivered without charge\.$/);
      await page.getByTestId('referral-code').waitFor();
      await expect.poll(() => page.getByRole('progressbar', { name: 'Jobs' }).getAttribute('aria-valuenow')).not.toBe('0');
      const buy = page.getByRole('button', { name: /^Buy / }).first();
      await buy.click();
      await page
        .getByRole('status')
        .getByText(/completed/)
        .waitFor();
      await expect.poll(async () => Number((await available.textContent())!.replace(/\D/g, ''))).toBeGreaterThan(before);
      await screenshot(page, 'usage');
    });

    it('registers a webhook (secret shown once), sends a test event, sees the delivery with its attempt and replays it', async () => {
      await page.goto(projectUrl.replace(/\/jobs$/, '/webhooks'));
      await page.getByLabel('Endpoint URL').fill(receiver.url);
      await page.getByLabel('Description').fill('local receiver');
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await expect.poll(() => page.getByTestId('webhook-secret').textContent()).toMatch(/^whsec_/);
      await page.getByRole('button', { name: 'I stored it' }).click();
      expect(await page.getByTestId('webhook-secret').count()).toBe(0);
      await page.getByRole('button', { name: 'Send test event' }).click();
      const delivery = page.getByTestId('delivery').first();
      await expect.poll(() => delivery.textContent(), { timeout: 20_000 }).toMatch(/delivered.*204/s);
      expect(receiver.received.length).toBeGreaterThan(0);
      expect(receiver.received[0]!.headers['webhook-signature']).toBeTruthy();
      await delivery.getByRole('button', { name: /^Replay/ }).click();
      await expect.poll(() => delivery.textContent(), { timeout: 20_000 }).toContain('(replay)');
      await screenshot(page, 'webhooks');
    });

    it('lists the audit log and filters it by action', async () => {
      await page.getByRole('link', { name: 'Audit log' }).click();
      await page.getByTestId('audit-event').first().waitFor();
      await page.getByLabel('Action').selectOption('job.export');
      // While the filtered page loads the list can be empty for a moment, and every row of none is a match: wait for rows.
      await expect
        .poll(async () => {
          const rows = await page.getByTestId('audit-event').allTextContents();
          return rows.length > 0 && rows.every((row) => row.includes('job.export'));
        })
        .toBe(true);
      await page.getByLabel('Action').selectOption('');
      await screenshot(page, 'audit');
    });

    it('hides the admin page from a user, and shows an admin the queue, the upstream rate and an organization', async () => {
      expect(await page.getByRole('link', { name: 'Admin' }).count()).toBe(0);
      await page.getByRole('link', { name: 'Usage & credits' }).click();
      const organizationId = (await page.getByTestId('organization-id').textContent())!;
      await page.getByRole('button', { name: 'Sign out' }).click();
      const admin = await server.registerAdmin();
      await page.getByLabel('Email').fill(admin.email);
      await page.getByLabel('Password').fill(admin.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('link', { name: 'Admin' }).click();
      await page.getByTestId('queue-waiting').waitFor();
      await page.getByText(/requests per minute per egress identity/).waitFor();
      await page.getByLabel('Organization id').fill(organizationId);
      await page.getByRole('button', { name: 'Look up' }).click();
      const available = page.getByTestId('admin-available');
      await available.waitFor();
      const before = Number((await available.textContent())!.replace(/\D/g, ''));
      await page.getByLabel('Amount').fill('500');
      await page.getByLabel('Reason').fill('goodwill');
      await page.getByRole('button', { name: 'Apply' }).click();
      await expect.poll(async () => Number((await available.textContent())!.replace(/\D/g, ''))).toBe(before + 500);
      await page.getByLabel('Requests per minute').fill('1200');
      await page.getByRole('button', { name: 'Set rate' }).click();
      await page.getByText(/^1200 requests per minute per egress identity/).waitFor();
      await page.getByLabel('Jobs per month').fill('25');
      await page.getByRole('button', { name: 'Set limits' }).click();
      await expect.poll(() => page.getByRole('progressbar', { name: 'Jobs' }).getAttribute('aria-valuemax')).toBe('25');
      await screenshot(page, 'admin');
    });

    it('loaded nothing from another origin and broke no CSP rule', () => {
      expect(offOrigin).toEqual([]);
      expect(pageErrors).toEqual([]);
    });
  });
}
