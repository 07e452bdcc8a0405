import { CATALOG_LIMITS, type JobConfig, type OfferRecord } from '@crawl/contracts';
import { marketplaceForOrigin, type OfferItem, type OffersPage } from '@crawl/marketplace';
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
import type { Storefront } from './marketplace-origin.ts';
import { judgeRecords, shortfall } from './record-checks.ts';
import { recordQuality } from './record-quality.ts';

/** The all-offers view lists ten offers a page; a product's offers are read to this many pages at most. */
export const OFFERS_PER_PAGE = 10;
/** As many as a target holds units for: a page past them would be read and never charged. */
export const MAX_OFFER_PAGES = CATALOG_LIMITS.maxOfferPages;

type Condition = NonNullable<JobConfig['condition']>;

// The view's own condition filters: `new`, and the four used grades. Collectible and renewed offers
// have none there, so those jobs read every offer and keep the ones whose heading names the condition.
const VIEW_FILTERS: Partial<Record<Condition, Record<string, boolean>>> = {
  new: { all: false, new: true },
  used: { all: false, usedLikeNew: true, usedVeryGood: true, usedGood: true, usedAcceptable: true },
};

/** `GET {origin}/gp/product/ajax/aodAjaxMain/?asin=<ASIN>&pc=dp&pageno=N[&filters=…]`: one page of the all-offers view. */
export function offersUrl(store: Storefront, asin: string, page: number, condition: Condition | undefined): string {
  const query = new URLSearchParams({ asin, pc: 'dp', pageno: String(page) });
  const filters = condition === undefined ? undefined : VIEW_FILTERS[condition];
  if (filters !== undefined) query.set('filters', JSON.stringify(filters));
  for (const [key, value] of Object.entries(store.query)) query.set(key, value);
  return `${store.origin}/gp/product/ajax/aodAjaxMain/?${query.toString()}`;
}

/** An offer's identity across pages: the view repeats none, but a page read twice must not count twice. */
function offerKey(offer: OfferItem): string {
  return [offer.buyBox, offer.sellerId ?? offer.sellerName, offer.price?.amount, offer.shipping?.amount, offer.conditionRaw].join('\u0000');
}

/**
 * An offers target: the product's all-offers view, page after page (ten offers each, the pinned
 * buy-box offer first) while the view says there are more, each page recognised as the view of the
 * ASIN asked for (a page of another ASIN, a sign-in page or an empty answer is retried like a block).
 * `config.condition` asks the view for that condition where it has a filter, and keeps only the
 * offers in it. Billed per page that yielded offers (`billableUnits`).
 */
export async function crawlOffers(ctx: CrawlContext): Promise<Crawled> {
  const asin = ctx.task.value;
  const condition = ctx.task.config.condition;
  const marketplace = ctx.store.domain ?? marketplaceForOrigin(ctx.store.origin)?.domain;
  const items: OfferRecord[] = [];
  const seen = new Set<string>();
  let requests = 0;
  let billableUnits = 0;
  let referer: string | undefined;

  const records = (parsed: OffersPage, page: number, from: number): OfferRecord[] =>
    parsed.offers
      .filter((offer) => condition === undefined || offer.condition === condition)
      .map((offer, i) => {
        const { position: _onPage, ...rest } = offer;
        const record: Omit<OfferRecord, 'quality'> = {
          ...rest,
          position: from + i + 1,
          page,
          ...(marketplace !== undefined ? { marketplace } : {}),
          ...(parsed.totalOffers !== undefined ? { totalOffers: parsed.totalOffers } : {}),
          ...(parsed.deliverTo !== undefined ? { deliverTo: parsed.deliverTo } : {}),
        };
        return { ...record, quality: recordQuality(record, ctx.required) };
      });

  for (let page = 1; page <= MAX_OFFER_PAGES; page += 1) {
    if (page > 1 && !(await ctx.stillWanted())) return CANCELLED;
    const options = { origin: ctx.store.origin, asin, ...(ctx.store.domain ? { marketplace: ctx.store.domain } : {}) };
    const reads = new WeakMap<FetchedPage, OffersPage>();
    const read = async (fetched: FetchedPage): Promise<OffersPage> => {
      const result = await parseOrFail(ctx, `offers page ${page} of ${asin}`, () => ctx.parser.read('offers', fetched, options, ctx.signal));
      reads.set(fetched, result);
      return result;
    };
    const tries = ctx.tries(offersUrl(ctx.store, asin, page, condition), referer);
    try {
      for await (const fetched of ctx.pages(tries)) {
        const parsed = await read(fetched);
        if (!parsed.recognized) tries.reject('unrecognized_page', describeUnrecognized(fetched, `all-offers view of ${asin}`));
        else judgeRecords(tries, records(parsed, page, items.length));
      }
    } catch (error) {
      if (error instanceof PageParseError) return failed('parse_error', error.message, requests + 1);
      throw error;
    }
    const outcome = ctx.outcomeOf(tries);
    requests += outcome.attempts;
    if (!outcome.ok) return failedFetch(outcome, requests, page > 1 ? `page ${page} of the offers: ` : '');
    const parsed = reads.get(outcome.page) ?? (await read(outcome.page));
    if (!parsed.recognized) return failed('unrecognized_page', describeUnrecognized(outcome.page, `all-offers view of ${asin}`), requests);
    const fresh = parsed.offers.filter((offer) => !seen.has(offerKey(offer)) && seen.add(offerKey(offer)));
    const taken = records({ ...parsed, offers: fresh }, page, items.length);
    if (taken.length > 0) billableUnits += 1;
    items.push(...taken);
    const listed = parsed.offers.length + parsed.foreignOffers;
    const more = parsed.hasNextPage || (parsed.totalOffers !== undefined && page * OFFERS_PER_PAGE < parsed.totalOffers);
    // A page that lists nothing ends the view even when its count says otherwise.
    if (!more || listed === 0) break;
    referer = outcome.page.url;
  }
  return { ...succeeded(items, requests, shortfall(items)), billableUnits };
}
