import type { ClaimTargetResponse, CrawlTask, ReportTargetBody } from '@crawl/contracts';
import { errors } from '@crawl/errors';
import { RetryLaterError } from '@crawl/queue';
import { describe, expect, it } from 'vitest';
import type { CrawlSession, GetPageInput, PageOutcome } from '../fetching/index.ts';
import { stubUpstream } from '../../testing/stub-upstream.ts';
import { inlinePageParser, type PageParser } from '../parsing/index.ts';
import { searchPagesOf } from './search-crawl.ts';
import { shopperQuery, TargetCrawler, type CatalogPort, type TargetCrawlerOptions } from './target-crawler.ts';

function searchHtml(asins: string[], next: boolean): string {
  const cards = asins
    .map(
      (asin) => `<div data-asin="${asin}" data-component-type="s-search-result" class="s-result-item">
        <h2><a href="/dp/${asin}"><span>Product ${asin}</span></a></h2>
        <span class="a-price"><span class="a-offscreen">$19.99</span></span></div>`,
    )
    .join('');
  return `<html><body>${cards}${next ? '<a class="s-pagination-next" href="/s?k=x&page=2">Next</a>' : ''}</body></html>`;
}

class FakeCatalog implements CatalogPort {
  reports: Array<{ index: number; body: ReportTargetBody }> = [];
  claims = 0;
  proceed = true;
  failReports = 0;
  claimError: Error | undefined;
  async claimTarget(): Promise<ClaimTargetResponse['data']> {
    this.claims += 1;
    if (this.claimError) throw this.claimError;
    return { proceed: this.proceed, jobStatus: this.proceed ? 'running' : 'cancelled', targetStatus: this.proceed ? 'running' : 'cancelled' };
  }
  async reportTarget(_jobId: string, index: number, body: ReportTargetBody) {
    if (this.failReports > 0) {
      this.failReports -= 1;
      throw new Error('catalog unavailable');
    }
    this.reports.push({ index, body });
    return { jobStatus: 'running', finished: false };
  }
}

function crawlerWith<C extends CatalogPort = FakeCatalog>(
  pages: Record<string, PageOutcome | ((input: GetPageInput) => PageOutcome)>,
  catalog: C = new FakeCatalog() as unknown as C,
  extra: Partial<TargetCrawlerOptions> = {},
) {
  const urls: string[] = [];
  const crawler = new TargetCrawler({
    ...extra,
    catalog,
    upstream: stubUpstream((input) => {
      urls.push(input.url);
      const entry = pages[input.url];
      if (!entry) return { ok: false, reason: 'not_found', message: 'HTTP 404', attempts: 1 };
      return typeof entry === 'function' ? entry(input) : entry;
    }),
    sessions: { take: () => ({ id: 1 }) as CrawlSession },
    baseUrl: () => 'https://www.amazon.com',
  });
  return { crawler, catalog, urls };
}

const ok = (html: string, url = 'https://www.amazon.com/'): PageOutcome => ({
  ok: true,
  page: { status: 200, headers: {}, html, url, redirects: 0, bytes: html.length },
  attempts: 1,
});
const task = (over: Partial<CrawlTask> = {}): CrawlTask => ({
  jobId: 'job_1',
  organizationId: 'org_1',
  projectId: 'prj_1',
  targetIndex: 0,
  type: 'search',
  value: 'x',
  config: {},
  ...over,
});

describe('searchPagesOf', () => {
  it('defaults to 1 and caps at the documented maximum', () => {
    expect(searchPagesOf({})).toBe(1);
    expect(searchPagesOf({ pages: 3 })).toBe(3);
    expect(searchPagesOf({ pages: 99 })).toBe(5);
    // A task stored before its config was checked may hold anything.
    expect(searchPagesOf({ pages: 'many' as unknown as number })).toBe(1);
  });
});

describe('TargetCrawler', () => {
  it('crawls the requested search pages, ranks organic items across pages and de-duplicates', async () => {
    const { crawler, catalog, urls } = crawlerWith({
      'https://www.amazon.com/s?k=x': ok(searchHtml(['B000000001', 'B000000002'], true), 'https://www.amazon.com/s?k=x'),
      'https://www.amazon.com/s?k=x&page=2': ok(searchHtml(['B000000002', 'B000000003'], true)),
    });
    await crawler.crawl(task({ config: { pages: 2 } }));
    expect(urls).toEqual(['https://www.amazon.com/s?k=x', 'https://www.amazon.com/s?k=x&page=2']);
    const report = catalog.reports[0]?.body;
    expect(report?.status).toBe('success');
    expect(report?.items.map((i) => [i.asin, i.rank, i.page])).toEqual([
      ['B000000001', 1, 1],
      ['B000000002', 2, 1],
      ['B000000003', 3, 2],
    ]);
    expect(report?.items[0]).toMatchObject({ keyword: 'x', price: { amount: 19.99, currency: 'USD' } });
    expect(report?.requests).toBe(2);
  });

  it("stores each page's total results estimate and related searches on that page's items, and what is missing", async () => {
    const withPageValues = (html: string, total: string, related: string[]): string =>
      html.replace(
        '<body>',
        `<body><span data-component-type="s-result-info-bar"><h1><span>${total}</span></h1></span><div data-component-type="s-related-searches">${related.map((r) => `<a href="/s?k=${r}">${r}</a>`).join('')}</div>`,
      );
    const { crawler, catalog } = crawlerWith({
      'https://www.amazon.com/s?k=x': ok(
        withPageValues(searchHtml(['B000000001'], true), '1-16 of over 2,000 results for', ['x case', 'x mini']),
        'https://www.amazon.com/s?k=x',
      ),
      'https://www.amazon.com/s?k=x&page=2': ok(searchHtml(['B000000003'], false)),
    });
    await crawler.crawl(task({ config: { pages: 2 } }));
    const [first, second] = catalog.reports[0]?.body.items ?? [];
    expect(first).toMatchObject({ searchTotalResults: 2000, relatedSearches: ['x case', 'x mini'] });
    expect(first?.missingFields).not.toContain('searchTotalResults');
    expect(first?.missingFields).toEqual(expect.arrayContaining(['image', 'rating', 'coupon']));
    expect(second?.searchTotalResults).toBeUndefined();
    expect(second?.missingFields).toEqual(expect.arrayContaining(['searchTotalResults', 'relatedSearches']));
  });

  it("asks the storefront for the job's sort and language, and echoes the page's delivery location on each record", async () => {
    const url = 'https://www.amazon.com/s?k=x&language=es_US&s=price-asc-rank';
    const html = searchHtml(['B000000001'], false).replace(
      '<body>',
      '<body><span id="glow-ingress-line1">Deliver to</span><span id="glow-ingress-line2">New York 10001</span>',
    );
    const { crawler, catalog, urls } = crawlerWith({ [url]: ok(html) });
    await crawler.crawl(task({ config: { sort: 'price_asc', lang: 'es', deliveryZip: '10001' } }));
    expect(urls).toEqual([url]);
    expect(catalog.reports[0]?.body.items[0]).toMatchObject({ asin: 'B000000001', deliverTo: 'New York 10001' });
  });

  it('puts the language and (on search pages) the sort in the URL, never the delivery postal code', () => {
    const simulator = { origin: 'http://127.0.0.1:4010', domain: 'amazon.de', query: { domain: 'amazon.de' } };
    expect(shopperQuery(simulator, { deliveryZip: '10115', lang: 'en', sort: 'newest' }, 'search')).toEqual({
      language: 'en_GB',
      s: 'date-desc-rank',
    });
    expect(shopperQuery(simulator, { sort: 'newest', lang: 'fr' }, 'details')).toEqual({});
    expect(shopperQuery({ origin: 'https://www.amazon.de', domain: 'amazon.de', query: {} }, { deliveryZip: '10115', sort: 'featured' }, 'search')).toEqual({});
  });

  it('stops before the requested pages when there is no next page', async () => {
    const { crawler, urls, catalog } = crawlerWith({ 'https://www.amazon.com/s?k=x': ok(searchHtml(['B000000001'], false)) });
    await crawler.crawl(task({ config: { pages: 3 } }));
    expect(urls).toHaveLength(1);
    expect(catalog.reports[0]?.body.status).toBe('success');
  });

  it('reports the failure reason of the upstream, and fails the target when a later page fails', async () => {
    const blocked = crawlerWith({
      'https://www.amazon.com/s?k=x': { ok: false, reason: 'blocked', message: 'captcha (HTTP 200) after 4 attempts', attempts: 4 },
    });
    await blocked.crawler.crawl(task());
    expect(blocked.catalog.reports[0]?.body).toMatchObject({ status: 'failed', reason: 'blocked', items: [], requests: 4 });

    const second = crawlerWith({
      'https://www.amazon.com/s?k=x': ok(searchHtml(['B000000001'], true)),
      'https://www.amazon.com/s?k=x&page=2': { ok: false, reason: 'timeout', message: 'slow', attempts: 4 },
    });
    await second.crawler.crawl(task({ config: { pages: 2 } }));
    expect(second.catalog.reports[0]?.body).toMatchObject({ status: 'failed', reason: 'timeout', items: [], requests: 5 });
  });

  it('crawls details by ASIN; a page that is no product page is unrecognized_page, a 404 is not_found', async () => {
    const product =
      '<html><body><input type="hidden" id="ASIN" value="B000000001"><span id="productTitle"> Great Lamp </span><span class="a-price"><span class="a-offscreen">$5.00</span></span></body></html>';
    const { crawler, catalog } = crawlerWith({
      'https://www.amazon.com/dp/B000000001': ok(product),
      'https://www.amazon.com/dp/B000000002': ok('<html><head><title>Amazon.com</title></head><body>Nothing here</body></html>'),
      // A title but no ASIN of its own: a landing page that happens to use the title's id.
      'https://www.amazon.com/dp/B000000004': ok('<html><body><span id="productTitle">Deals of the day</span></body></html>'),
    });
    await crawler.crawl(task({ type: 'details', value: 'B000000001' }));
    await crawler.crawl(task({ type: 'details', value: 'B000000002', targetIndex: 1 }));
    await crawler.crawl(task({ type: 'details', value: 'B000000003', targetIndex: 2 }));
    await crawler.crawl(task({ type: 'details', value: 'B000000004', targetIndex: 3 }));
    expect(catalog.reports[0]?.body).toMatchObject({
      status: 'success',
      items: [{ asin: 'B000000001', title: 'Great Lamp', quality: { status: 'complete', missing: [] } }],
    });
    expect(catalog.reports[0]?.body.uncharged).toBeUndefined();
    expect(catalog.reports[1]?.body).toMatchObject({ status: 'failed', reason: 'unrecognized_page', message: expect.stringMatching(/titled "Amazon.com"/) });
    expect(catalog.reports[2]?.body).toMatchObject({ status: 'failed', reason: 'not_found' });
    expect(catalog.reports[3]?.body).toMatchObject({ status: 'failed', reason: 'unrecognized_page' });
  });

  it('delivers a record lacking a required field as partial and uncharged', async () => {
    const product =
      '<html><body><input type="hidden" id="ASIN" value="B000000001"><span id="productTitle">Great Lamp</span><div id="corePrice_feature_div"><span class="a-price"><span class="a-offscreen">$5.00</span></span></div></body></html>';
    const { crawler, catalog } = crawlerWith({ 'https://www.amazon.com/dp/B000000001': ok(product) });
    await crawler.crawl(task({ type: 'details', value: 'B000000001', config: { require: ['price', 'rating', 'brand'] } }));
    expect(catalog.reports[0]?.body).toMatchObject({ status: 'success', uncharged: 'partial', message: 'required fields missing: rating, brand' });
    expect(catalog.reports[0]?.body.items[0]).toMatchObject({ price: { amount: 5 }, quality: { status: 'partial', missing: ['rating', 'brand'] } });
  });

  it('requires of search items only the fields their kind has: no rank of an ad, no placement of an organic result', async () => {
    const url = 'https://www.amazon.com/s?k=x';
    const { crawler, catalog } = crawlerWith({ [url]: ok(searchHtml(['B000000001', 'B000000002'], false)) });
    await crawler.crawl(task({ config: { require: ['rank', 'price'] } }));
    expect(catalog.reports[0]?.body.uncharged).toBeUndefined();
    expect(catalog.reports[0]?.body.items.map((i) => i.quality)).toEqual([
      { status: 'complete', missing: [] },
      { status: 'complete', missing: [] },
    ]);
    const partial = crawlerWith({ [url]: ok(searchHtml(['B000000001'], false)) });
    await partial.crawler.crawl(task({ config: { require: ['rating'] } }));
    expect(partial.catalog.reports[0]?.body).toMatchObject({ status: 'success', uncharged: 'partial' });
  });

  it('fails an unsupported config.domain as invalid_target without any request', async () => {
    const { crawler, catalog, urls } = crawlerWith({});
    await crawler.crawl(task({ config: { domain: 'evil.example' } }));
    expect(urls).toEqual([]);
    expect(catalog.reports[0]?.body).toMatchObject({ status: 'failed', reason: 'invalid_target' });
  });

  it('drops a task whose claim says no (cancelled job or finished target)', async () => {
    const catalog = new FakeCatalog();
    catalog.proceed = false;
    const { crawler, urls } = crawlerWith({}, catalog);
    await crawler.crawl(task());
    expect(urls).toEqual([]);
    expect(catalog.reports).toEqual([]);
  });

  it('drops a task whose job is gone (404 on claim) but lets other claim errors through for a retry', async () => {
    const catalog = new FakeCatalog();
    catalog.claimError = errors.notFound('Target');
    const { crawler, urls } = crawlerWith({}, catalog);
    await crawler.crawl(task());
    expect(urls).toEqual([]);
    catalog.claimError = errors.unavailable();
    await expect(crawler.crawl(task())).rejects.toThrow(/unavailable/);
  });

  it('stops between pages when the job was cancelled meanwhile and reports nothing', async () => {
    const catalog = new FakeCatalog();
    const { crawler, urls } = crawlerWith(
      {
        'https://www.amazon.com/s?k=x': () => {
          catalog.proceed = false;
          return ok(searchHtml(['B000000001'], true));
        },
      },
      catalog,
    );
    await crawler.crawl(task({ config: { pages: 3 } }));
    expect(urls).toHaveLength(1);
    expect(catalog.reports).toEqual([]);
  });

  it('re-sends an undelivered report on redelivery instead of crawling again', async () => {
    const catalog = new FakeCatalog();
    catalog.failReports = 1;
    const { crawler, urls } = crawlerWith({ 'https://www.amazon.com/s?k=x': ok(searchHtml(['B000000001'], false)) }, catalog);
    await expect(crawler.crawl(task())).rejects.toThrow('catalog unavailable');
    await crawler.crawl(task());
    expect(urls).toHaveLength(1);
    expect(catalog.reports).toHaveLength(1);
    expect(catalog.reports[0]?.body.status).toBe('success');
  });

  it('reports upstream_error when the queue gives up on a task', async () => {
    const { crawler, catalog } = crawlerWith({});
    await crawler.giveUp(task({ targetIndex: 3 }), new Error('boom'));
    expect(catalog.reports[0]).toMatchObject({ index: 3, body: { status: 'failed', reason: 'upstream_error' } });
  });

  it('hands a page being parsed back unreported when the worker stops (not a parse_error)', async () => {
    const stopping = new AbortController();
    const parsing: PageParser = {
      ...inlinePageParser,
      // A page whose extraction outlasts the shutdown: settles only when the signal aborts.
      search: (_html, _options, signal) => new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason))),
    };
    const url = 'https://www.amazon.com/s?k=x';
    const { crawler, catalog } = crawlerWith({ [url]: ok(searchHtml(['B000000001'], false)) }, new FakeCatalog(), { parser: parsing, signal: stopping.signal });
    const crawling = crawler.crawl(task(), { attempt: 3, maxAttempts: 3 });
    setTimeout(() => stopping.abort(new Error('crawler-worker stopping')), 10);
    await expect(crawling).rejects.toThrow('crawler-worker stopping');
    expect(catalog.reports).toEqual([]);
  });

  it('reports what a parser running elsewhere extracts', async () => {
    const calls: string[] = [];
    const elsewhere: PageParser = {
      ...inlinePageParser,
      search: async (page, options) => {
        calls.push(String(options.keyword));
        return inlinePageParser.search(page, options);
      },
    };
    const url = 'https://www.amazon.com/s?k=x';
    const { crawler, catalog } = crawlerWith({ [url]: ok(searchHtml(['B000000001', 'B000000002'], false)) }, new FakeCatalog(), { parser: elsewhere });
    await crawler.crawl(task());
    expect(calls).toEqual(['x']);
    expect(catalog.reports[0]?.body.items.map((i) => i.asin)).toEqual(['B000000001', 'B000000002']);
  });
});

/** Catalog answering 503 (its database is down) until the fake clock reaches `upAt`. */
class OutageCatalog implements CatalogPort {
  readonly reports: Array<{ index: number; body: ReportTargetBody }> = [];
  refused = 0;
  readonly clock: { now: number };
  upAt: number;
  readonly downFor: 'claim' | 'report' | 'both';
  constructor(clock: { now: number }, upAt: number, downFor: 'claim' | 'report' | 'both' = 'both') {
    this.clock = clock;
    this.upAt = upAt;
    this.downFor = downFor;
  }
  #check(call: 'claim' | 'report'): void {
    if ((this.downFor === 'both' || this.downFor === call) && this.clock.now < this.upAt) {
      this.refused += 1;
      throw errors.unavailable('Service temporarily unavailable');
    }
  }
  async claimTarget(): Promise<ClaimTargetResponse['data']> {
    this.#check('claim');
    return { proceed: true, jobStatus: 'running', targetStatus: 'running' };
  }
  async reportTarget(_jobId: string, index: number, body: ReportTargetBody) {
    this.#check('report');
    this.reports.push({ index, body });
    return { jobStatus: 'running', finished: false };
  }
}

/**
 * Delivers a task the way both queue adapters do: RetryLaterError waits its delay (on the fake
 * clock) without spending an attempt, another error spends one, the last one ends the task.
 */
async function driveLikeTheQueue(crawler: TargetCrawler, clock: { now: number }, maxAttempts: number) {
  let attempt = 1;
  const waits: number[] = [];
  for (let delivery = 0; delivery < 200; delivery += 1) {
    try {
      await crawler.crawl(task(), { attempt, maxAttempts });
      return { attempt, waits, outcome: 'done' as const };
    } catch (error) {
      if (error instanceof RetryLaterError) {
        waits.push(error.delayMs);
        clock.now += error.delayMs;
        continue;
      }
      if (attempt >= maxAttempts) return { attempt, waits, outcome: 'dead-lettered' as const };
      attempt += 1;
      clock.now += 2_000;
    }
  }
  throw new Error('the task never ended');
}

describe('infrastructure outages (catalog or its database down)', () => {
  const page = { 'https://www.amazon.com/s?k=x': ok(searchHtml(['B000000001', 'B000000002'], false)) };
  const retry = (clock: { now: number }) => ({ infrastructureRetry: { now: () => clock.now, random: () => 1 } });

  it('a 20 s outage before the claim spends no attempt: the target is crawled once it is back', async () => {
    const clock = { now: 0 };
    const catalog = new OutageCatalog(clock, 20_000);
    const { crawler, urls } = crawlerWith(page, catalog, retry(clock));
    const run = await driveLikeTheQueue(crawler, clock, 3);
    expect(run).toMatchObject({ attempt: 1, outcome: 'done' });
    expect(catalog.refused).toBeGreaterThan(3);
    // Capped exponential waits: 1 s, 2 s, 4 s, 8 s, 16 s… (full jitter pinned to the ceiling here).
    expect(run.waits.slice(0, 5)).toEqual([1_000, 2_000, 4_000, 8_000, 16_000]);
    expect(urls).toHaveLength(1);
    expect(catalog.reports).toHaveLength(1);
    expect(catalog.reports[0]?.body).toMatchObject({ status: 'success', items: [expect.any(Object), expect.any(Object)] });
  });

  it('a report refused for minutes keeps the crawled result and delivers it, without crawling again or failing the target', async () => {
    const clock = { now: 0 };
    const catalog = new OutageCatalog(clock, 20 * 60_000, 'report');
    const { crawler, urls } = crawlerWith(page, catalog, retry(clock));
    const run = await driveLikeTheQueue(crawler, clock, 1);
    expect(run).toMatchObject({ attempt: 1, outcome: 'done' });
    expect(Math.max(...run.waits)).toBe(30_000);
    expect(urls).toHaveLength(1);
    expect(catalog.reports.map((r) => r.body.status)).toEqual(['success']);
  });

  it('a claim refused for longer than the window spends attempts, and the last one reports the target failed once catalog answers', async () => {
    const clock = { now: 0 };
    const catalog = new OutageCatalog(clock, 60 * 60_000);
    const { crawler, urls } = crawlerWith(page, catalog, { infrastructureRetry: { now: () => clock.now, random: () => 1, windowMs: 60_000 } });
    const run = await driveLikeTheQueue(crawler, clock, 2);
    expect(run).toMatchObject({ attempt: 2, outcome: 'done' });
    expect(clock.now).toBeGreaterThanOrEqual(60 * 60_000);
    expect(urls).toEqual([]);
    expect(catalog.reports).toEqual([
      { index: 0, body: expect.objectContaining({ status: 'failed', reason: 'upstream_error', message: expect.stringMatching(/crawl task failed/) }) },
    ]);
  });

  it('a task whose last attempt breaks reports the target failed itself, retrying that report through an outage', async () => {
    const clock = { now: 0 };
    const catalog = new OutageCatalog(clock, 0, 'report');
    const { crawler } = crawlerWith(
      {
        'https://www.amazon.com/s?k=x': () => {
          catalog.upAt = clock.now + 20_000;
          throw new Error('parser bug');
        },
      },
      catalog,
      retry(clock),
    );
    const run = await driveLikeTheQueue(crawler, clock, 2);
    expect(run).toMatchObject({ attempt: 2, outcome: 'done' });
    expect(catalog.refused).toBeGreaterThan(0);
    expect(catalog.reports).toEqual([
      { index: 0, body: expect.objectContaining({ status: 'failed', reason: 'upstream_error', message: 'crawl task failed: parser bug' }) },
    ]);
  });

  it('waits its turn when catalog is applying another report of the target (409)', async () => {
    const catalog = new FakeCatalog();
    const report = catalog.reportTarget.bind(catalog);
    let contended = 2;
    catalog.reportTarget = async (...args) => {
      if (contended-- > 0) throw errors.conflict('Another report for this target is being applied');
      return report(...args);
    };
    const clock = { now: 0 };
    const { crawler, urls } = crawlerWith(page, catalog, retry(clock));
    const run = await driveLikeTheQueue(crawler, clock, 1);
    expect(run).toMatchObject({ attempt: 1, outcome: 'done', waits: [1_000, 2_000] });
    expect(urls).toHaveLength(1);
    expect(catalog.reports.map((r) => r.body.status)).toEqual(['success']);
  });

  it('drops a report for a job that no longer exists (404) instead of retrying it', async () => {
    const catalog = new FakeCatalog();
    catalog.reportTarget = async () => {
      throw errors.notFound('Target');
    };
    const { crawler } = crawlerWith(page, catalog);
    await expect(crawler.crawl(task(), { attempt: 1, maxAttempts: 1 })).resolves.toBeUndefined();
  });
});
