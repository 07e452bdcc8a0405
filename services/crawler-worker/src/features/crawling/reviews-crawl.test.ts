import type { ClaimTargetResponse, CrawlTask, ReportTargetBody, ReviewRecord } from '@crawl/contracts';
import {
  type CatalogProduct,
  createSimulator,
  getProduct,
  makeCatalogAsin,
  reviewListing,
  reviewsWallOf,
  type Simulator,
  topReviews,
} from '@crawl/marketplace-simulator';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ProxyPool } from '../egress/index.ts';
import { allowedUrlRule, SessionPool, UndiciPageFetcher, UpstreamClient } from '../fetching/index.ts';
import type { UpstreamRateLimiter } from '../rate-limit/index.ts';
import { fanOut, reviewsConfigOf } from './reviews-plan.ts';
import { TargetCrawler, type CatalogPort } from './target-crawler.ts';

const unlimited: UpstreamRateLimiter = { acquire: async () => {}, setRate: async () => {}, rate: () => 60, close: () => {} };

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

const task = (value: string, config: Record<string, unknown> = {}): CrawlTask =>
  ({ jobId: 'job-1', organizationId: 'org-1', projectId: 'p-1', type: 'reviews', value, targetIndex: 0, config }) as unknown as CrawlTask;

const ALL = { filter: 'all_stars', sort: 'helpful', verifiedOnly: false } as const;

/** Catalog products by how many written reviews they have and where their list asks to sign in. */
function findProduct(test: (written: number, wall: ReturnType<typeof reviewsWallOf>, product: CatalogProduct) => boolean): string {
  for (let i = 0; i < 20000; i++) {
    const asin = makeCatalogAsin(i % 10, `crawl-reviews-${i}`);
    const product = getProduct(asin);
    if (product && test(reviewListing(product, ALL, 1).totalReviews, reviewsWallOf(asin), product)) return asin;
  }
  throw new Error('no such product');
}

/** The most written reviews any one star of a product has. */
function maxPerStar(product: CatalogProduct): number {
  const filters = ['five_star', 'four_star', 'three_star', 'two_star', 'one_star'] as const;
  return Math.max(...filters.map((filter) => reviewListing(product, { ...ALL, filter }, 1).totalReviews));
}

describe('reviews plan', () => {
  it('reads the job config with its defaults', () => {
    expect(reviewsConfigOf({})).toEqual({ filters: ['all_stars'], sort: 'helpful', verifiedOnly: false, maxReviews: 100 });
    expect(reviewsConfigOf({ stars: [1, 5], sort: 'recent', verifiedOnly: true, maxReviews: 9000, since: '2026-01-01' })).toEqual({
      filters: ['five_star', 'one_star'],
      sort: 'recent',
      verifiedOnly: true,
      maxReviews: 5000,
      since: '2026-01-01',
    });
  });

  it('fans a capped walk out over the star filters and the other sort', () => {
    expect(fanOut({ filter: 'all_stars', sort: 'helpful' }).map((w) => `${w.filter}/${w.sort}`)).toEqual([
      'five_star/helpful',
      'four_star/helpful',
      'three_star/helpful',
      'two_star/helpful',
      'one_star/helpful',
      'all_stars/recent',
    ]);
    expect(fanOut({ filter: 'two_star', sort: 'recent' })).toEqual([{ filter: 'two_star', sort: 'helpful' }]);
  });
});

describe('reviews crawl (simulator)', () => {
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
    const sessions = new SessionPool({ proxies: new ProxyPool({ urls: [], restAfterBlocks: 3, restMs: 1000, now: Date.now }), maxUses: 1000, size: 4 });
    const upstream = new UpstreamClient({
      fetcher,
      limiter: unlimited,
      sessions,
      maxAttempts: 3,
      backoffMs: 1,
      maxBackoffMs: 5,
      sleep: async () => {},
      now: Date.now,
    });
    crawler = new TargetCrawler({ catalog, upstream, sessions, baseUrl: () => sim.url });
  });

  const crawl = async (asin: string, config: Record<string, unknown> = {}): Promise<ReportTargetBody> => {
    await crawler.crawl(task(asin, config));
    const report = catalog.reports.at(-1);
    if (!report) throw new Error('no report');
    return report;
  };

  it('stops at maxReviews (default 100) and says so; every page that yielded reviews is billed', async () => {
    const asin = findProduct((written, wall) => written > 300 && wall === 'none');
    const report = await crawl(asin);
    const product = getProduct(asin);
    expect(report.status).toBe('success');
    expect(report.items).toHaveLength(100);
    expect(report.coverage).toMatchObject({ fetched: 100, totalRatings: product?.reviewCount, limitedBy: 'maxReviews' });
    expect(report.billableUnits).toBe(10);
    const first = report.items[0] as ReviewRecord;
    expect(first).toMatchObject({ asin, source: 'review_list', quality: { status: 'complete', missing: [] } });
    expect(first.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('fans out past the ten-page cap and de-duplicates by review id', async () => {
    // More than one walk shows, but no star has more than one walk's worth.
    const asin = findProduct((written, wall, product) => written > 150 && wall === 'none' && maxPerStar(product) <= 100);
    const report = await crawl(asin, { maxReviews: 5000 });
    const ids = report.items.map((r) => (r as ReviewRecord).reviewId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(report.coverage?.totalReviews).toBeGreaterThan(100);
    expect(ids.length).toBeGreaterThan(100);
    // Five star filters in two sorts reach every review of a product with this many.
    expect(report.coverage).toMatchObject({ fetched: report.coverage?.totalReviews, limitedBy: 'none' });
    expect(report.billableUnits).toBeLessThanOrEqual(report.requests ?? 0);
  });

  it('reports page_cap when even the fan-out cannot reach every review', async () => {
    const asin = findProduct((written, wall) => written > 3000 && wall === 'none');
    const report = await crawl(asin, { maxReviews: 5000 });
    expect(report.status).toBe('success');
    expect(report.coverage?.limitedBy).toBe('page_cap');
    expect(report.coverage?.fetched).toBeLessThan(report.coverage?.totalReviews ?? 0);
    expect(report.items.length).toBeGreaterThan(100);
  });

  it('stops at the sign-in wall past page 1 with what it fetched, and says so', async () => {
    const asin = findProduct((written, wall) => written > 150 && wall === 'after_first_page');
    const report = await crawl(asin, { maxReviews: 500 });
    expect(report.status).toBe('success');
    expect(report.coverage).toMatchObject({ limitedBy: 'signin_wall' });
    expect(report.coverage?.fetched).toBeLessThan(report.coverage?.totalReviews ?? 0);
    // The first page of the list and of each fan-out walk are open.
    expect(report.items.length).toBeGreaterThanOrEqual(10);
    expect(sim.stats().byPath).toBeDefined();
  });

  it('falls back to the product page’s top reviews when the list is walled from its first page', async () => {
    const asin = findProduct((written, wall) => written > 20 && wall === 'every_page');
    const report = await crawl(asin);
    const product = getProduct(asin);
    if (!product) throw new Error('no product');
    expect(report.status).toBe('success');
    expect(report.items.map((r) => (r as ReviewRecord).reviewId)).toEqual(topReviews(product).map((r) => r.id));
    expect(report.items.every((r) => (r as ReviewRecord).source === 'product_page')).toBe(true);
    expect(report.coverage).toMatchObject({ fetched: 8, totalRatings: product.reviewCount, limitedBy: 'signin_wall' });
    expect(report.billableUnits).toBe(1);
  });

  it('fails a walled target with no fallback review as blocked by a sign-in wall, never an empty success', async () => {
    const asin = findProduct((written, wall) => written > 20 && wall === 'every_page');
    // Only one-star reviews asked for, and none of them among the product page's top reviews.
    const product = getProduct(asin);
    const top = product ? topReviews(product) : [];
    const missing = [1, 2, 3, 4, 5].find((s) => !top.some((r) => r.stars === s)) ?? 1;
    const report = await crawl(asin, { stars: [missing] });
    expect(report).toMatchObject({ status: 'failed', reason: 'blocked', blockKind: 'signin_wall', items: [] });
  });

  it('filters by stars, verified purchases and since, and stops a recent walk at the first older review', async () => {
    const asin = findProduct((written, wall) => written > 200 && wall === 'none');
    const report = await crawl(asin, { stars: [1, 2], verifiedOnly: true, sort: 'recent', since: '2026-06-01', maxReviews: 5000 });
    const items = report.items as ReviewRecord[];
    expect(items.every((r) => (r.rating === 1 || r.rating === 2) && r.verifiedPurchase && (r.date ?? '') >= '2026-06-01')).toBe(true);
    expect(report.coverage?.limitedBy).toBe('none');
    const product = getProduct(asin);
    if (!product) throw new Error('no product');
    const expected = [1, 2].flatMap((s) =>
      reviewListing(product, { filter: s === 1 ? 'one_star' : 'two_star', sort: 'recent', verifiedOnly: true }, 1).reviews.filter(
        (r) => r.date >= '2026-06-01',
      ),
    );
    for (const review of expected) expect(items.some((r) => r.reviewId === review.id)).toBe(true);
  });

  it('retries a captcha like any block and fails the target when it persists', async () => {
    const report = await crawl('B0BLOCKED1');
    expect(report).toMatchObject({ status: 'failed', reason: 'blocked', blockKind: 'captcha' });
  });
});
