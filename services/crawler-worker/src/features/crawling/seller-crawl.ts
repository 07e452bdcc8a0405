import type { SellerRecord } from '@crawl/contracts';
import { marketplaceForOrigin, type SellerPage } from '@crawl/marketplace';
import type { FetchedPage } from '../fetching/index.ts';
import { type Crawled, type CrawlContext, describeUnrecognized, failed, failedFetch, PageParseError, parseOrFail, succeeded } from './crawl-context.ts';
import type { Storefront } from './marketplace-origin.ts';
import { judgeRecords, shortfall } from './record-checks.ts';
import { recordQuality } from './record-quality.ts';

/** `GET {origin}/sp?ie=UTF8&seller=<id>`: the seller's profile. */
export function sellerUrl(store: Storefront, sellerId: string): string {
  const query = new URLSearchParams({ ie: 'UTF8', seller: sellerId });
  for (const [key, value] of Object.entries(store.query)) query.set(key, value);
  return `${store.origin}/sp?${query.toString()}`;
}

/**
 * A seller target: its profile page, recognised as the profile of the seller asked for (another
 * seller's, a sign-in page or a front page is retried like a block). One record, one unit.
 */
export async function crawlSeller(ctx: CrawlContext): Promise<Crawled> {
  const sellerId = ctx.task.value;
  const url = sellerUrl(ctx.store, sellerId);
  const marketplace = ctx.store.domain ?? marketplaceForOrigin(ctx.store.origin)?.domain;
  const options = { origin: ctx.store.origin, sellerId, ...(ctx.store.domain ? { marketplace: ctx.store.domain } : {}) };
  const reads = new WeakMap<FetchedPage, SellerPage>();
  const read = async (fetched: FetchedPage): Promise<SellerPage> => {
    const result = await parseOrFail(ctx, `profile of seller ${sellerId}`, () => ctx.parser.read('seller', fetched, options, ctx.signal));
    reads.set(fetched, result);
    return result;
  };
  const records = (parsed: SellerPage): SellerRecord[] => {
    if (parsed.seller === undefined) return [];
    const record: Omit<SellerRecord, 'quality'> = {
      ...parsed.seller,
      ...(marketplace !== undefined ? { marketplace } : {}),
      url: `${ctx.store.origin}/sp?seller=${sellerId}`,
    };
    return [{ ...record, quality: recordQuality(record, ctx.required) }];
  };
  const tries = ctx.tries(url);
  try {
    for await (const fetched of ctx.pages(tries)) {
      const parsed = await read(fetched);
      if (!parsed.recognized) tries.reject('unrecognized_page', describeUnrecognized(fetched, `profile of seller ${sellerId}`));
      else judgeRecords(tries, records(parsed));
    }
  } catch (error) {
    if (error instanceof PageParseError) return failed('parse_error', error.message, 1);
    throw error;
  }
  const outcome = ctx.outcomeOf(tries);
  if (!outcome.ok) return failedFetch(outcome, outcome.attempts);
  const parsed = reads.get(outcome.page) ?? (await read(outcome.page));
  if (!parsed.recognized) return failed('unrecognized_page', describeUnrecognized(outcome.page, `profile of seller ${sellerId}`), outcome.attempts);
  const items = records(parsed);
  return succeeded(items, outcome.attempts, shortfall(items));
}
