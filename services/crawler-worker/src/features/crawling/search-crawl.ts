import { CATALOG_LIMITS, type JobConfig, type SearchRecord } from '@crawl/contracts';
import type { SearchItem, SearchPage } from '@crawl/marketplace';
import type { FetchedPage } from '../fetching/index.ts';
import {
  CANCELLED,
  type Crawled,
  type CrawlContext,
  describeUnrecognized,
  failed,
  failedFetch,
  PageParseError,
  parseOrFail,
  succeeded,
} from './crawl-context.ts';
import { searchUrl } from './marketplace-origin.ts';
import { type CheckedRecord, checkRecord, judgeRecords, shortfall, type UncheckedRecord } from './record-checks.ts';

/** Search result pages per keyword: `config.pages`, default 1, at most this (each page is billed). */
export const MAX_SEARCH_PAGES = CATALOG_LIMITS.maxSearchPages;

export function searchPagesOf(config: Pick<JobConfig, 'pages'>): number {
  const { pages } = config;
  if (pages === undefined || !Number.isInteger(pages) || pages < 1) return 1;
  return Math.min(pages, MAX_SEARCH_PAGES);
}

/**
 * A search target: `config.pages` result pages of its keyword, each recognised as a result page
 * (cards, or the storefront saying there are none; else retried like a block). Organic items are
 * ranked across the pages, each kind de-duplicated apart. A page whose items lack a required field
 * or show another delivery location than asked for gets a second session.
 */
export async function crawlSearch(ctx: CrawlContext): Promise<Crawled> {
  const keyword = ctx.task.value;
  const pages = searchPagesOf(ctx.task.config);
  const reads = new WeakMap<FetchedPage, SearchPage>();
  const items: CheckedRecord<SearchRecord>[] = [];
  const seen = new Set<string>();
  let organic = 0;
  let requests = 0;
  let referer: string | undefined;

  for (let page = 1; page <= pages; page += 1) {
    if (page > 1 && !(await ctx.stillWanted())) return CANCELLED;
    const options = { origin: ctx.store.origin, keyword, page, ...(ctx.store.domain ? { marketplace: ctx.store.domain } : {}) };
    const read = async (fetched: FetchedPage): Promise<SearchPage> => {
      const result = await parseOrFail(ctx, `search page ${page} for ${JSON.stringify(keyword)}`, () => ctx.parser.search(fetched, options, ctx.signal));
      reads.set(fetched, result);
      return result;
    };
    // Ranks are given once a page is taken; the checks only need each item's own fields.
    const records = (parsed: SearchPage, rankFrom: number): CheckedRecord<SearchRecord>[] => {
      let rank = rankFrom;
      return parsed.items.map((item) => {
        const record = toResultRecord(item, parsed, keyword, page, item.sponsored ? undefined : (rank += 1));
        return checkRecord(record, requiredOf(item, ctx.required), ctx.zip);
      });
    };
    const tries = ctx.tries(searchUrl(ctx.store, keyword, page), referer);
    try {
      for await (const fetched of ctx.pages(tries)) {
        const parsed = await read(fetched);
        if (!parsed.recognized) tries.reject('unrecognized_page', describeUnrecognized(fetched, 'search result'));
        else judgeRecords(tries, records(parsed, organic));
      }
    } catch (error) {
      if (error instanceof PageParseError) return failed('parse_error', error.message, requests + 1);
      throw error;
    }
    const outcome = ctx.outcomeOf(tries);
    requests += outcome.attempts;
    if (!outcome.ok) return failedFetch(outcome, requests, page > 1 ? `page ${page} of ${pages}: ` : '');
    const parsed = reads.get(outcome.page) ?? (await read(outcome.page));
    if (!parsed.recognized) return failed('unrecognized_page', describeUnrecognized(outcome.page, 'search result'), requests);
    const fresh = parsed.items.filter((item) => {
      // An ad for a product does not take the product's organic place: de-duplicate each kind apart.
      const key = `${item.sponsored ? 'sponsored' : 'organic'}:${item.asin}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    const taken = records({ ...parsed, items: fresh }, organic);
    organic += fresh.filter((item) => !item.sponsored).length;
    items.push(...taken);
    if (!parsed.hasNextPage) break;
    referer = outcome.page.url;
  }
  return succeeded(items, requests, shortfall(items));
}

/** Fields only one kind of item has are required of that kind only: organic items have no placement, ads no rank. */
export function requiredOf(item: Pick<SearchItem, 'sponsored'>, required: readonly string[]): readonly string[] {
  const notApplicable = item.sponsored ? 'rank' : 'placement';
  return required.includes(notApplicable) ? required.filter((field) => field !== notApplicable) : required;
}

/**
 * A search item as stored: `rank` is the organic position across all crawled pages. The values of
 * its page (total results estimate, related searches) travel on every item of that page, so a
 * record (or an exported row) stands on its own.
 */
function toResultRecord(item: SearchItem, page: SearchPage, keyword: string, pageNumber: number, rank: number | undefined): UncheckedRecord<SearchRecord> {
  const { rank: _pageRank, missingFields, ...rest } = item;
  const pageMissing = [...(page.totalResults === undefined ? ['searchTotalResults'] : []), ...(page.relatedSearches === undefined ? ['relatedSearches'] : [])];
  return {
    ...rest,
    keyword,
    page: pageNumber,
    ...(rank !== undefined ? { rank } : {}),
    ...(page.totalResults !== undefined ? { searchTotalResults: page.totalResults } : {}),
    ...(page.relatedSearches !== undefined ? { relatedSearches: page.relatedSearches } : {}),
    ...(page.deliverTo !== undefined ? { deliverTo: page.deliverTo } : {}),
    missingFields: [...missingFields, ...pageMissing],
  };
}
