import type { ClaimTargetResponse, CrawlTask, ReportTargetBody } from '@crawl/contracts';
import { ADDRESS_CHANGE_PATH, createSimulator, type Simulator } from '@crawl/marketplace-simulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProxyPool } from '../egress/index.ts';
import { allowedUrlRule, SessionPool, UndiciPageFetcher, UpstreamClient } from '../fetching/index.ts';
import type { UpstreamRateLimiter } from '../rate-limit/index.ts';
import { TargetCrawler, type CatalogPort } from './target-crawler.ts';

/** Counts what each request was charged to the egress budget. */
class CountingLimiter implements UpstreamRateLimiter {
  acquired = 0;
  async acquire(): Promise<void> {
    this.acquired += 1;
  }
  async setRate(): Promise<void> {}
  rate(): number {
    return 60;
  }
  close(): void {}
}

class FakeCatalog implements CatalogPort {
  reports: ReportTargetBody[] = [];
  async claimTarget(): Promise<ClaimTargetResponse['data']> {
    return { proceed: true, jobStatus: 'running', targetStatus: 'running' };
  }
  async reportTarget(_jobId: string, _index: number, body: ReportTargetBody) {
    this.reports.push(body);
    return { jobStatus: 'running', finished: false };
  }
}

const task = (type: 'search' | 'details', value: string, config: Record<string, unknown>, index = 0): CrawlTask =>
  ({ jobId: 'job-1', organizationId: 'org-1', projectId: 'p-1', type, value, targetIndex: index, config }) as unknown as CrawlTask;

describe('delivery location set on the crawl session through the storefront widget (simulator)', () => {
  let sim: Simulator;
  let fetcher: UndiciPageFetcher;
  let limiter: CountingLimiter;
  let catalog: FakeCatalog;
  let crawler: TargetCrawler;

  beforeAll(async () => {
    sim = await createSimulator({ pageSize: 'small' });
    fetcher = new UndiciPageFetcher({
      isAllowedUrl: allowedUrlRule(sim.url, []),
      connectTimeoutMs: 2000,
      timeoutMs: 5000,
      maxResponseBytes: 8 << 20,
      maxRedirects: 3,
    });
  });
  afterAll(async () => {
    await fetcher.close();
    await sim.close();
  });
  beforeEach(() => {
    sim.setFaults({});
    sim.resetStats();
    limiter = new CountingLimiter();
    catalog = new FakeCatalog();
    const sessions = new SessionPool({ proxies: new ProxyPool({ urls: [], restAfterBlocks: 3, restMs: 1000, now: Date.now }), maxUses: 100, size: 4 });
    const upstream = new UpstreamClient({ fetcher, limiter, sessions, maxAttempts: 2, backoffMs: 1, maxBackoffMs: 5, sleep: async () => {}, now: Date.now });
    crawler = new TargetCrawler({ catalog, upstream, sessions, baseUrl: () => sim.url });
  });

  it('sets the postal code once per session and zip, then every page (details and search) shows it', async () => {
    await crawler.crawl(task('details', 'B0SIM00001', { deliveryZip: '10001' }));
    await crawler.crawl(task('search', 'desk lamp', { deliveryZip: '10001', pages: 2 }, 1));
    expect(catalog.reports.map((r) => r.status)).toEqual(['success', 'success']);
    const [details, search] = catalog.reports;
    expect(details?.items[0]).toMatchObject({ asin: 'B0SIM00001', deliverTo: '10001' });
    expect(search?.items.length).toBeGreaterThan(20);
    expect(search?.items.every((item) => item.deliverTo === '10001')).toBe(true);
    expect(new Set(search?.items.map((item) => item.page))).toEqual(new Set([1, 2]));
    // Front page + address change for the first target; the second reuses the session.
    expect(sim.stats().byRoute).toMatchObject({ home: 1, 'address-change': 1, product: 1, search: 2 });
    expect(details?.requests).toBe(3);
    // The POST is charged to the egress budget like every page.
    expect(limiter.acquired).toBe(sim.stats().total);

    // Another postal code never gets that session: a new one is set for it.
    await crawler.crawl(task('details', 'B0SIM00002', { deliveryZip: '10002' }, 2));
    expect(catalog.reports[2]?.items[0]).toMatchObject({ deliverTo: '10002' });
    // And a target without one keeps the storefront's own location.
    await crawler.crawl(task('details', 'B0SIM00003', {}, 3));
    expect(catalog.reports[3]?.items[0]).toMatchObject({ deliverTo: 'United States' });
    expect(sim.stats().byRoute['address-change']).toBe(2);
  });

  it('sets the location per storefront on a simulator base', async () => {
    await crawler.crawl(task('details', 'B0SIM00004', { domain: 'amazon.de', deliveryZip: '10115' }));
    expect(catalog.reports[0]?.items[0]).toMatchObject({ marketplace: 'amazon.de', deliverTo: '10115' });
  });

  it('still delivers when the address change fails, with the location the page shows, unverified and not charged', async () => {
    sim.setFaults({ rules: [{ path: ADDRESS_CHANGE_PATH, fault: '503' }] });
    await crawler.crawl(task('details', 'B0SIM00005', { deliveryZip: '10001' }));
    await crawler.crawl(task('search', 'desk lamp', { deliveryZip: '10001' }, 1));
    expect(catalog.reports.map((r) => [r.status, r.uncharged])).toEqual([
      ['success', 'location_unverified'],
      ['success', 'location_unverified'],
    ]);
    const unverified = { requested: '10001', observed: 'United States', verified: false };
    expect(catalog.reports[0]?.items[0]).toMatchObject({ asin: 'B0SIM00005', deliverTo: 'United States', location: unverified });
    expect(catalog.reports[0]?.message).toMatch(/"United States", not postal code 10001/);
    expect(catalog.reports[1]?.items.every((item) => item.deliverTo === 'United States' && (item.location as { verified: boolean }).verified === false)).toBe(
      true,
    );
    // Each target tries the change (with its retries) on its session, then once more on a second
    // session after the page showed another location: 2 sessions × 2 tries, for each target.
    expect(sim.stats().byRoute['address-change']).toBe(8);
  });

  it('verifies the location on every record when the change went through, and charges for them', async () => {
    await crawler.crawl(task('details', 'B0SIM00006', { deliveryZip: '10001' }));
    expect(catalog.reports[0]).toMatchObject({ status: 'success' });
    expect(catalog.reports[0]?.uncharged).toBeUndefined();
    expect(catalog.reports[0]?.items[0]).toMatchObject({ location: { requested: '10001', observed: '10001', verified: true } });
  });
});
