import type { BestsellerRecord, JobConfig } from '@crawl/contracts';
import { BESTSELLER_LISTS, type BestsellerList, type BestsellersPage } from '@crawl/marketplace';
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
import { bestsellersUrl } from './list-urls.ts';
import { judgeRecords, shortfall } from './record-checks.ts';
import { recordQuality } from './record-quality.ts';

/** A ranked list is the top 100, 50 a page. */
export const BESTSELLER_PAGES = 2;
const PER_PAGE = 50;

export function bestsellerListOf(config: Pick<JobConfig, 'list'>): BestsellerList {
  return BESTSELLER_LISTS.includes(config.list as BestsellerList) ? (config.list as BestsellerList) : 'bestsellers';
}

/**
 * A bestsellers target: both pages of its node's list (`config.list`), each recognised as a ranked
 * list of that kind (a front page, sign-in page or carousel stand-in is retried like a block). A page
 * whose records lack a required field gets a second session. The second page is fetched only when
 * the first was full.
 */
export async function crawlBestsellers(ctx: CrawlContext): Promise<Crawled> {
  const nodeId = ctx.task.value;
  const list = bestsellerListOf(ctx.task.config);
  const items: BestsellerRecord[] = [];
  const seen = new Set<string>();
  let requests = 0;
  let referer: string | undefined;

  for (let page = 1; page <= BESTSELLER_PAGES; page += 1) {
    if (page > 1 && !(await ctx.stillWanted())) return CANCELLED;
    const options = { origin: ctx.store.origin, page, ...(ctx.store.domain ? { marketplace: ctx.store.domain } : {}) };
    const reads = new WeakMap<FetchedPage, BestsellersPage>();
    const read = async (fetched: FetchedPage): Promise<BestsellersPage> => {
      const result = await parseOrFail(ctx, `${list} page ${page} of node ${nodeId}`, () => ctx.parser.read('bestsellers', fetched, options, ctx.signal));
      reads.set(fetched, result);
      return result;
    };
    const tries = ctx.tries(bestsellersUrl(ctx.store, list, nodeId, page), referer);
    try {
      for await (const fetched of ctx.pages(tries)) {
        const parsed = await read(fetched);
        if (!parsed.recognized) tries.reject('unrecognized_page', describeUnrecognized(fetched, 'best-seller list'));
        else judgeRecords(tries, records(parsed, nodeId, list, ctx.required));
      }
    } catch (error) {
      if (error instanceof PageParseError) return failed('parse_error', error.message, requests + 1);
      throw error;
    }
    const outcome = ctx.outcomeOf(tries);
    requests += outcome.attempts;
    if (!outcome.ok) return failedFetch(outcome, requests, page > 1 ? `page ${page} of ${BESTSELLER_PAGES}: ` : '');
    const parsed = reads.get(outcome.page) ?? (await read(outcome.page));
    if (!parsed.recognized) return failed('unrecognized_page', describeUnrecognized(outcome.page, 'best-seller list'), requests);
    const fresh = records(parsed, nodeId, list, ctx.required).filter((record) => !seen.has(record.asin) && seen.add(record.asin));
    items.push(...fresh);
    if (parsed.items.length + parsed.unrenderedCount < PER_PAGE) break;
    referer = outcome.page.url;
  }
  return succeeded(items, requests, shortfall(items));
}

/**
 * A page's ranked items as stored: the page's category on every item (a record stands on its own),
 * the node asked for as the last level of the path when the tree shows it without a link.
 */
function records(page: BestsellersPage, nodeId: string, list: BestsellerList, required: readonly string[]): BestsellerRecord[] {
  const path = page.categoryPath?.map((level, i, all) => (i === all.length - 1 && level.nodeId === undefined ? { ...level, nodeId } : level));
  const pageMissing = [...(page.categoryName === undefined ? ['categoryName'] : []), ...(path === undefined ? ['categoryPath'] : [])];
  return page.items.map((item) => {
    const record: Omit<BestsellerRecord, 'quality'> = {
      nodeId,
      list,
      ...item,
      ...(page.categoryName !== undefined ? { categoryName: page.categoryName } : {}),
      ...(path !== undefined ? { categoryPath: path } : {}),
      missingFields: [...item.missingFields, ...pageMissing],
    };
    return { ...record, quality: recordQuality(record, required) };
  });
}
