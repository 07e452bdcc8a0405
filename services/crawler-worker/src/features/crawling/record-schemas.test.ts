import { readFileSync } from 'node:fs';
import { ProductRecord, SearchRecord } from '@crawl/contracts';
import { PRODUCT_LAYOUTS, renderProductPage, renderSearchPage, SEARCH_LAYOUTS, SPECIAL_ASINS, WELL_KNOWN_ASINS } from '@crawl/marketplace-simulator';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import type { CrawlSession, PageOutcome } from '../fetching/index.ts';
import { stubUpstream } from '../../testing/stub-upstream.ts';
import { type CatalogPort, TargetCrawler } from './target-crawler.ts';

const BASE = 'http://127.0.0.1:4010';

/** The records the crawler reports for simulator pages (every layout and page kind), checked against the published schemas. */
async function recordsFor(type: 'search' | 'details', value: string, html: string, config: Record<string, unknown> = {}): Promise<Record<string, unknown>[]> {
  const reports: Record<string, unknown>[][] = [];
  const catalog: CatalogPort = {
    claimTarget: async () => ({ proceed: true, jobStatus: 'running', targetStatus: 'running' }),
    reportTarget: async (_job, _index, body) => {
      reports.push(body.items);
      return { jobStatus: 'running', finished: false };
    },
  };
  const page = (url: string): PageOutcome => ({ ok: true, page: { status: 200, headers: {}, html, url, redirects: 0, bytes: html.length }, attempts: 1 });
  const crawler = new TargetCrawler({
    catalog,
    upstream: stubUpstream((input) => page(input.url)),
    sessions: { take: () => ({ id: 1 }) as CrawlSession },
    baseUrl: () => BASE,
  });
  await crawler.crawl({ jobId: 'job_1', organizationId: 'org_1', projectId: 'prj_1', targetIndex: 0, type, value, config });
  return reports[0] ?? [];
}

function expectValid(schema: typeof ProductRecord | typeof SearchRecord, record: Record<string, unknown>): void {
  const errors = [...Value.Errors(schema, record)].map((e) => `${e.path}: ${e.message}`);
  expect(errors).toEqual([]);
}

describe('published record schemas', () => {
  it('describe every product record the crawler stores, in every layout and for books', async () => {
    const asins = [...WELL_KNOWN_ASINS.slice(0, 4), SPECIAL_ASINS.noPrice, SPECIAL_ASINS.paperback, SPECIAL_ASINS.kindle];
    for (const layout of PRODUCT_LAYOUTS) {
      for (const asin of asins) {
        const html = renderProductPage({ asin, domain: 'amazon.de', layout, size: 'small', deliveryZip: '10115' })!.html;
        const [record] = await recordsFor('details', asin, html, { domain: 'amazon.de' });
        expect(record, `${layout} ${asin}`).toBeDefined();
        expectValid(ProductRecord, record!);
        expect(record!.deliverTo).toBe('10115');
      }
    }
  });

  it('describe the product records of the parser fixtures (books, Kindle, variations, legacy)', async () => {
    const fixtures = new URL('../../../../../packages/marketplace/test/fixtures/', import.meta.url);
    for (const name of ['product-book-us', 'product-kindle-de', 'product-variations-fr', 'product-legacy-uk', 'product-mobile-jp']) {
      const html = readFileSync(new URL(`${name}.html`, fixtures), 'utf8');
      const [record] = await recordsFor('details', 'B000000001', html);
      expect(record, name).toBeDefined();
      expectValid(ProductRecord, record!);
    }
  });

  it('describe every search record the crawler stores, in every layout', async () => {
    for (const layout of SEARCH_LAYOUTS) {
      const html = renderSearchPage({ keyword: 'wireless headphones', domain: 'amazon.fr', layout, size: 'small' }).html;
      const records = await recordsFor('search', 'wireless headphones', html, { domain: 'amazon.fr' });
      expect(records.length).toBeGreaterThan(10);
      for (const record of records) expectValid(SearchRecord, record);
      expect(records.some((r) => r.placement === 'video' || r.placement === 'brand' || r.placement === 'top')).toBe(true);
    }
  });
});
