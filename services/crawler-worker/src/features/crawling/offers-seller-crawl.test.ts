import { type ClaimTargetResponse, type CrawlTask, OfferRecord, type ReportTargetBody, SellerRecord } from '@crawl/contracts';
import { Value } from '@sinclair/typebox/value';
import { createSimulator, type Simulator } from '@crawl/marketplace-simulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProxyPool } from '../egress/index.ts';
import { allowedUrlRule, SessionPool, UndiciPageFetcher, UpstreamClient } from '../fetching/index.ts';
import type { UpstreamRateLimiter } from '../rate-limit/index.ts';
import { TargetCrawler, type CatalogPort } from './target-crawler.ts';

class FreeLimiter implements UpstreamRateLimiter {
  async acquire(): Promise<void> {}
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

const task = (type: string, value: string, config: Record<string, unknown> = {}): CrawlTask =>
  ({ jobId: 'job-1', organizationId: 'org-1', projectId: 'p-1', type, value, targetIndex: 0, config }) as unknown as CrawlTask;

describe('offers and seller targets against the simulator', () => {
  let sim: Simulator;
  let fetcher: UndiciPageFetcher;
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
    catalog = new FakeCatalog();
    const sessions = new SessionPool({ proxies: new ProxyPool({ urls: [], restAfterBlocks: 3, restMs: 1000, now: Date.now }), maxUses: 100, size: 4 });
    const upstream = new UpstreamClient({
      fetcher,
      limiter: new FreeLimiter(),
      sessions,
      maxAttempts: 3,
      backoffMs: 1,
      maxBackoffMs: 5,
      sleep: async () => {},
      now: Date.now,
    });
    crawler = new TargetCrawler({ catalog, upstream, sessions, baseUrl: () => sim.url });
  });

  it("an offers target reads every page of the view, the buy box first, never the sibling's offer, and bills the pages", async () => {
    // B0SIM00003: sold by Quayside Direct, 21 offers listed (one of them a sibling variation's), three pages.
    await crawler.crawl(task('offers', 'B0SIM00003', { domain: 'amazon.de' }));
    const report = catalog.reports[0];
    expect(report?.status).toBe('success');
    expect(report?.items.map((item) => item.position)).toEqual(Array.from({ length: 21 }, (_, i) => i + 1));
    expect(report?.items[0]).toMatchObject({
      asin: 'B0SIM00003',
      buyBox: true,
      sellerName: 'Quayside Direct',
      page: 1,
      marketplace: 'amazon.de',
      totalOffers: 21,
    });
    expect(report?.items.filter((item) => item.buyBox)).toHaveLength(1);
    expect(report?.items.every((item) => item.asin === 'B0SIM00003' && item.price?.currency === 'EUR')).toBe(true);
    expect(new Set(report?.items.map((item) => item.page))).toEqual(new Set([1, 2, 3]));
    expect(report).toMatchObject({ requests: 3, billableUnits: 3 });
    expect(sim.stats().byRoute).toMatchObject({ offers: 3 });
    expect(report?.items.filter((item) => !Value.Check(OfferRecord, item))).toEqual([]);
  });

  it('config.condition asks the view for used offers and keeps only those', async () => {
    await crawler.crawl(task('offers', 'B0SIM00005', { condition: 'used' }));
    const report = catalog.reports[0];
    expect(report?.items.length).toBe(9);
    expect(report?.items.every((item) => item.condition === 'used' && !item.buyBox && item.conditionNote)).toBe(true);
    expect(report).toMatchObject({ requests: 1, billableUnits: 1 });
  });

  it('a sign-in page in place of the view is retried, and the view read', async () => {
    sim.setFaults({ rules: [{ path: 'aodAjaxMain', fault: 'signin', times: 1 }] });
    await crawler.crawl(task('offers', 'B0SIM00007'));
    expect(catalog.reports[0]).toMatchObject({ status: 'success', requests: 2, billableUnits: 1 });
    expect(catalog.reports[0]?.items).toHaveLength(2);
  });

  it.each([
    ['offers', 'B0SIM00007', 'aodAjaxMain', 'signin', 'unrecognized_page'],
    ['offers', 'B0SIM00007', 'aodAjaxMain', 'unrecognized', 'unrecognized_page'],
    ['offers', 'B0SIM00007', 'aodAjaxMain', 'captcha', 'blocked'],
    ['seller', 'ASRQPONML0Z567', '/sp?', 'signin', 'unrecognized_page'],
    ['seller', 'ASRQPONML0Z567', '/sp?', 'error-page', 'unrecognized_page'],
  ])('%s %s: a %s page on every try is never taken for the page asked for (%s)', async (type, value, path, fault, reason) => {
    sim.setFaults({ rules: [{ path, fault: fault as 'captcha' }] });
    await crawler.crawl(task(type, value));
    expect(catalog.reports[0]).toMatchObject({ status: 'failed', reason, items: [] });
  });

  it('a product without a price has no buy-box offer, only the others, billed per page that had some', async () => {
    await crawler.crawl(task('offers', 'B0NOPRICE1'));
    const report = catalog.reports[0];
    expect(report?.status).toBe('success');
    expect(report?.items.length).toBeGreaterThan(0);
    expect(report?.items.every((item) => !item.buyBox)).toBe(true);
    expect(report?.billableUnits).toBe(new Set(report?.items.map((item) => item.page)).size);
  });

  it("a seller target is the seller's profile, one record", async () => {
    await crawler.crawl(task('seller', 'ASRQPONML0Z567', { domain: 'amazon.fr', require: ['name', 'storefrontUrl'] }));
    const report = catalog.reports[0];
    expect(report).toMatchObject({ status: 'success', requests: 1 });
    expect(report?.billableUnits).toBeUndefined();
    expect(report?.items).toHaveLength(1);
    expect(report?.items[0]).toMatchObject({
      sellerId: 'ASRQPONML0Z567',
      name: 'Vintage Shelf',
      marketplace: 'amazon.fr',
      url: `${sim.url}/sp?seller=ASRQPONML0Z567`,
      storefrontUrl: expect.stringContaining('me=ASRQPONML0Z567'),
      quality: { status: 'complete', missing: [] },
    });
    expect(sim.stats().byRoute).toMatchObject({ seller: 1 });
    expect(Value.Check(SellerRecord, report?.items[0])).toBe(true);
  });
});
