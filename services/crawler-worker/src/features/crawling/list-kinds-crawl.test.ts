import type { ClaimTargetResponse, CrawlTask, ReportTargetBody } from '@crawl/contracts';
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

describe('bestsellers, category and autocomplete targets against the simulator', () => {
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

  it('a bestsellers target is the top 100 of its list, ranked, with the category on every item', async () => {
    await crawler.crawl(task('bestsellers', '172541', { list: 'new-releases', domain: 'amazon.de' }));
    const report = catalog.reports[0];
    expect(report?.status).toBe('success');
    expect(report?.items.map((item) => item.rank)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(report?.items[0]).toMatchObject({ nodeId: '172541', list: 'new-releases', quality: { status: 'complete', missing: [] } });
    expect(report?.items[0]?.price?.currency).toBe('EUR');
    const path = report?.items[0]?.categoryPath as { name: string; nodeId?: string }[];
    expect(path.at(-1)).toEqual({ name: report?.items[0]?.categoryName, nodeId: '172541' });
    expect(report?.requests).toBe(2);
    expect(sim.stats().byRoute).toMatchObject({ bestsellers: 2 });
  });

  it.each([
    ['bestsellers', '5', '/gp/bestsellers/5', 'signin', 'unrecognized_page'],
    ['bestsellers', '5', '/gp/bestsellers/5', 'unrecognized', 'unrecognized_page'],
    ['bestsellers', '5', '/gp/bestsellers/5', 'captcha', 'blocked'],
    ['category', '5', '/s?rh=n%3A5', 'signin', 'unrecognized_page'],
    ['category', '5', '/s?rh=n%3A5', 'error-page', 'unrecognized_page'],
    ['autocomplete', 'hea', '/api/2017/suggestions', 'signin', 'unrecognized_page'],
    ['autocomplete', 'hea', '/api/2017/suggestions', 'captcha', 'blocked'],
  ])('%s %s: a %s page on every try is never taken for the page asked for (%s)', async (type, value, path, fault, reason) => {
    sim.setFaults({ rules: [{ path, fault: fault as 'captcha' }] });
    await crawler.crawl(task(type, value));
    expect(catalog.reports[0]).toMatchObject({ status: 'failed', reason, items: [] });
  });

  it('a category target pages its listing, ranks organic items across pages and bills the pages', async () => {
    await crawler.crawl(task('category', '3167641', { pages: 2, sort: 'price_asc' }));
    const report = catalog.reports[0];
    expect(report?.status).toBe('success');
    expect(report?.billableUnits).toBe(2);
    const organic = (report?.items ?? []).filter((item) => !item.sponsored);
    expect(organic.map((item) => item.rank)).toEqual(Array.from({ length: 48 }, (_, i) => i + 1));
    expect(new Set(report?.items.map((item) => item.page))).toEqual(new Set([1, 2]));
    expect(report?.items[0]).toMatchObject({ nodeId: '3167641', categoryName: expect.any(String), quality: { status: 'complete' } });
    const firstPage = organic.filter((item) => item.page === 1 && item.price).map((item) => item.price?.amount as number);
    expect(firstPage).toEqual([...firstPage].sort((a, b) => a - b));
  });

  it('an autocomplete target is its suggestions in order, one request', async () => {
    await crawler.crawl(task('autocomplete', 'hea', { domain: 'amazon.co.uk' }));
    const report = catalog.reports[0];
    expect(report?.status).toBe('success');
    expect(report?.requests).toBe(1);
    expect(report?.items.length).toBeGreaterThan(3);
    report?.items.forEach((item, i) => {
      expect(item).toMatchObject({ prefix: 'hea', position: i + 1, type: expect.stringMatching(/KEYWORD|WIDGET/) });
      expect(String(item.suggestion).startsWith('hea')).toBe(true);
    });
    expect(sim.stats().byRoute).toMatchObject({ autocomplete: 1 });
  });

  it('a prefix with no suggestions is an answer with no records', async () => {
    await crawler.crawl(task('autocomplete', 'zz nosuggest'));
    expect(catalog.reports[0]).toMatchObject({ status: 'success', items: [] });
  });
});
