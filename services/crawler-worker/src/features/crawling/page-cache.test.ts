import type { CrawlTask, ReportTargetBody, ResultRecord } from '@crawl/contracts';
import { describe, expect, it } from 'vitest';
import type { CrawlSession, PageOutcome } from '../fetching/index.ts';
import { stubUpstream } from '../../testing/stub-upstream.ts';
import { cacheQuestion, type PageCache } from './page-cache.ts';
import { TargetCrawler } from './target-crawler.ts';

/** A cache with the store's semantics (age by fetch time), on a clock the test moves. */
class MemoryCache implements PageCache {
  readonly entries = new Map<string, { records: ResultRecord[]; fetchedAt: string }>();
  now = Date.now();
  async lookup(key: string, maxAgeMs: number) {
    const entry = this.entries.get(key);
    return entry !== undefined && Date.parse(entry.fetchedAt) >= this.now - maxAgeMs ? entry : undefined;
  }
  async store(key: string, records: readonly ResultRecord[], fetchedAt: string) {
    this.entries.set(key, { records: [...records], fetchedAt });
  }
}

const product = (asin: string) =>
  `<html><body><input type="hidden" id="ASIN" value="${asin}"><span id="productTitle">Lamp ${asin}</span><span class="a-price"><span class="a-offscreen">$5.00</span></span></body></html>`;

function setup() {
  const cache = new MemoryCache();
  const reports: ReportTargetBody[] = [];
  const requests: string[] = [];
  const lookups: boolean[] = [];
  const crawler = new TargetCrawler({
    catalog: {
      claimTarget: async () => ({ proceed: true, jobStatus: 'running', targetStatus: 'running' }),
      reportTarget: async (_job, _index, body) => {
        reports.push(body);
        return { jobStatus: 'running', finished: false };
      },
    },
    upstream: stubUpstream((input): PageOutcome => {
      requests.push(input.url);
      const html = product(input.url.split('/dp/')[1] ?? '');
      return { ok: true, page: { status: 200, headers: {}, html, url: input.url, redirects: 0, bytes: html.length }, attempts: 1 };
    }),
    sessions: { take: () => ({ id: 1 }) as CrawlSession },
    baseUrl: () => 'https://www.amazon.com',
    pageCache: cache,
    metrics: { targetFinished: () => undefined, pageCacheLookup: (_type, hit) => lookups.push(hit) },
  });
  return { cache, crawler, reports, requests, lookups };
}

const task = (over: Partial<CrawlTask> = {}): CrawlTask => ({
  jobId: 'job_1',
  organizationId: 'org_1',
  projectId: 'prj_1',
  targetIndex: 0,
  type: 'details',
  value: 'B000000001',
  config: { maxAge: '1h' },
  ...over,
});

describe('the shared page cache in the crawl', () => {
  it("answers another organization's job within the age from the cache, with no request and cachedAt on the report and records", async () => {
    const { crawler, reports, requests, lookups, cache } = setup();
    await crawler.crawl(task());
    expect(requests).toHaveLength(1);
    expect(reports[0]?.cachedAt).toBeUndefined();
    cache.now += 30 * 60_000;
    await crawler.crawl(task({ jobId: 'job_2', organizationId: 'org_2', projectId: 'prj_2' }));
    expect(requests).toHaveLength(1);
    const fetchedAt = [...cache.entries.values()][0]?.fetchedAt;
    expect(reports[1]).toMatchObject({ status: 'success', requests: 0, cachedAt: fetchedAt, items: [{ asin: 'B000000001', cachedAt: fetchedAt }] });
    expect(lookups).toEqual([false, true]);
  });

  it('fetches again past the age, and keeps the newer fetch', async () => {
    const { crawler, reports, requests, cache } = setup();
    await crawler.crawl(task());
    cache.now += 2 * 3_600_000;
    await crawler.crawl(task({ jobId: 'job_2' }));
    expect(requests).toHaveLength(2);
    expect(reports[1]?.cachedAt).toBeUndefined();
  });

  it('never reads or fills the cache for a job without maxAge, nor for another type', async () => {
    const { crawler, requests, cache, lookups } = setup();
    await crawler.crawl(task({ config: {} }));
    await crawler.crawl(task({ config: {} }));
    expect(requests).toHaveLength(2);
    expect(cache.entries.size).toBe(0);
    expect(lookups).toEqual([]);
    expect(cacheQuestion(task({ type: 'reviews' }), { origin: 'https://www.amazon.com', domain: undefined })).toBeUndefined();
  });

  it("checks cached records against the asking job's required fields: the entry keeps no job's checks", async () => {
    const { crawler, reports } = setup();
    await crawler.crawl(task());
    await crawler.crawl(task({ jobId: 'job_2', config: { maxAge: '1h', require: ['rating'] } }));
    expect(reports[1]).toMatchObject({ uncharged: 'partial', items: [{ quality: { status: 'partial', missing: ['rating'] } }] });
  });

  it('keys by the page, never by who asked: same target and options share a key, another ZIP, language, sort or pages do not', () => {
    const store = { origin: 'https://www.amazon.com', domain: undefined };
    const key = (over: Partial<CrawlTask>) => cacheQuestion(task(over), store)?.key;
    const base = key({});
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    expect(key({ organizationId: 'org_9', projectId: 'prj_9', jobId: 'job_9', targetIndex: 7, value: 'b000000001' })).toBe(base);
    expect(key({ config: { maxAge: '1h', deliveryZip: '10001' } })).not.toBe(base);
    expect(key({ config: { maxAge: '1h', lang: 'es' } })).not.toBe(base);
    const search = (config: CrawlTask['config']) => key({ type: 'search', value: 'lamp', config: { maxAge: '1h', ...config } });
    expect(search({})).toBe(search({ sort: 'featured', pages: 1 }));
    expect(search({ sort: 'price_asc' })).not.toBe(search({}));
    expect(search({ pages: 2 })).not.toBe(search({}));
    expect(cacheQuestion(task({ config: { maxAge: '6h' } }), store)?.maxAgeMs).toBe(6 * 3_600_000);
  });
});
