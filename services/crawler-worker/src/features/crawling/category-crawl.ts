import type { CategoryItemRecord } from '@crawl/contracts';
import type { CategoryPage, SearchItem } from '@crawl/marketplace';
import type { FetchedPage } from '../fetching/index.ts';
import { CANCELLED, type Crawled, type CrawlContext, describeUnrecognized, failed, failedFetch, PageParseError, parseOrFail } from './crawl-context.ts';
import { categoryUrl } from './list-urls.ts';
import { checkLocation } from './location-check.ts';
import { judgeRecords, shortfall } from './record-checks.ts';
import { recordQuality } from './record-quality.ts';
import { searchPagesOf } from './search-crawl.ts';

/**
 * A category target: `config.pages` pages of its node's listing (`/s?rh=n:<node>`, in `config.sort`),
 * each recognised as a results page that names the category (a keyword search, front page or block
 * is retried). Organic items are ranked across the pages as search items are; each page fetched is
 * billed (`billableUnits`).
 */
export async function crawlCategory(ctx: CrawlContext): Promise<Crawled> {
  const nodeId = ctx.task.value;
  const pages = searchPagesOf(ctx.task.config);
  const items: CategoryItemRecord[] = [];
  const seen = new Set<string>();
  let organic = 0;
  let requests = 0;
  let billed = 0;
  let referer: string | undefined;

  for (let page = 1; page <= pages; page += 1) {
    if (page > 1 && !(await ctx.stillWanted())) return CANCELLED;
    const options = { origin: ctx.store.origin, page, ...(ctx.store.domain ? { marketplace: ctx.store.domain } : {}) };
    const reads = new WeakMap<FetchedPage, CategoryPage>();
    const read = async (fetched: FetchedPage): Promise<CategoryPage> => {
      const result = await parseOrFail(ctx, `category page ${page} of node ${nodeId}`, () => ctx.parser.read('category', fetched, options, ctx.signal));
      reads.set(fetched, result);
      return result;
    };
    const toRecords = (parsed: CategoryPage, rankFrom: number, only = parsed.items): CategoryItemRecord[] => {
      let rank = rankFrom;
      return only.map((item) => toRecord(item, parsed, nodeId, page, item.sponsored ? undefined : (rank += 1), ctx));
    };
    const tries = ctx.tries(categoryUrl(ctx.store, nodeId, page), referer);
    try {
      for await (const fetched of ctx.pages(tries)) {
        const parsed = await read(fetched);
        if (!parsed.recognized) tries.reject('unrecognized_page', describeUnrecognized(fetched, 'category listing'));
        else judgeRecords(tries, toRecords(parsed, organic));
      }
    } catch (error) {
      if (error instanceof PageParseError) return failed('parse_error', error.message, requests + 1);
      throw error;
    }
    const outcome = ctx.outcomeOf(tries);
    requests += outcome.attempts;
    if (!outcome.ok) return failedFetch(outcome, requests, page > 1 ? `page ${page} of ${pages}: ` : '');
    const parsed = reads.get(outcome.page) ?? (await read(outcome.page));
    if (!parsed.recognized) return failed('unrecognized_page', describeUnrecognized(outcome.page, 'category listing'), requests);
    billed += 1;
    const fresh = parsed.items.filter((item) => {
      // An ad for a product does not take the product's organic place: de-duplicate each kind apart.
      const key = `${item.sponsored ? 'sponsored' : 'organic'}:${item.asin}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    items.push(...toRecords(parsed, organic, fresh));
    organic += fresh.filter((item) => !item.sponsored).length;
    if (!parsed.hasNextPage) break;
    referer = outcome.page.url;
  }
  const short = shortfall(items);
  return {
    status: 'success',
    items,
    requests,
    billableUnits: billed,
    ...(short ? { uncharged: short.reason, message: short.detail.slice(0, 1000) } : {}),
  };
}

/** A listing item as stored: a search item's fields with the node, its category and the page's values. */
function toRecord(item: SearchItem, page: CategoryPage, nodeId: string, pageNumber: number, rank: number | undefined, ctx: CrawlContext): CategoryItemRecord {
  const { rank: _pageRank, keyword: _keyword, missingFields, ...rest } = item;
  const pageMissing = [...(page.totalResults === undefined ? ['searchTotalResults'] : []), ...(page.categoryName === undefined ? ['categoryName'] : [])];
  const record: Omit<CategoryItemRecord, 'quality'> = {
    nodeId,
    ...(page.categoryName !== undefined ? { categoryName: page.categoryName } : {}),
    ...rest,
    page: pageNumber,
    ...(rank !== undefined ? { rank } : {}),
    ...(page.totalResults !== undefined ? { searchTotalResults: page.totalResults } : {}),
    ...(page.deliverTo !== undefined ? { deliverTo: page.deliverTo } : {}),
    missingFields: [...missingFields, ...pageMissing],
  };
  // Fields only one kind of item has are required of that kind only: organic items have no placement, ads no rank.
  const notApplicable = item.sponsored ? 'rank' : 'placement';
  const required = ctx.required.filter((field) => field !== notApplicable);
  return {
    ...record,
    quality: recordQuality(record, required),
    ...(ctx.zip !== undefined ? { location: checkLocation(ctx.zip, page.deliverTo) } : {}),
  };
}
