import type { ReportTargetBody, TargetCoverage } from '@crawl/contracts';
import type { ReviewsPage } from '@crawl/marketplace';
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
import { productUrl } from './marketplace-origin.ts';
import { ReviewCollector } from './reviews-collector.ts';
import { fanOut, REVIEW_PAGE_CAP, type ReviewWalk, type ReviewsConfig, reviewsConfigOf, reviewsUrl, STARS_OF_FILTER } from './reviews-plan.ts';

/** How one walk of the list ended. */
type WalkEnd = 'end' | 'cap' | 'signin_wall' | 'since' | 'max';

interface Totals {
  totalRatings?: number;
  totalReviews?: number;
}

/** A page fetched and read, or the target's report when the page could not be had. */
type PageRead = { ok: true; page: ReviewsPage; url: string } | { ok: false; report: Crawled };

/**
 * A reviews target: the review list of its ASIN, walked page by page in the job's sort and star
 * filters until `maxReviews` or the storefront's ten-page cap; past the cap, the same reviews under
 * each star filter and in the other sort (each reaches ten more pages), de-duplicated by review id.
 * The sign-in page the storefront sends instead of the list is recognised and stops the walks at
 * that point (a list walled from its first page falls back to the product page's top reviews), and
 * the target says so in its coverage: a short list is never passed off as all of it.
 */
export async function crawlReviews(ctx: CrawlContext): Promise<Crawled> {
  const asin = ctx.task.value.toUpperCase();
  const config = reviewsConfigOf(ctx.task.config);
  const stars = [...new Set(config.filters.flatMap((filter) => STARS_OF_FILTER[filter]))];
  const collector = new ReviewCollector(asin, config, stars, ctx.store.domain, ctx.required);
  const options = { origin: ctx.store.origin, asin, ...(ctx.store.domain ? { marketplace: ctx.store.domain } : {}) };
  const state = { requests: 0, listSeen: false, wallSeen: false, wallOnFirstPage: false, referer: undefined as string | undefined };

  const fetchPage = async (url: string, accept: ReviewsPage['kind'], what: string): Promise<PageRead> => {
    const reads = new WeakMap<FetchedPage, ReviewsPage>();
    const read = async (fetched: FetchedPage): Promise<ReviewsPage> => {
      const page = await parseOrFail(ctx, what, () => ctx.parser.read('reviews', fetched, { ...options, accept: [accept] }, ctx.signal));
      reads.set(fetched, page);
      return page;
    };
    const tries = ctx.tries(url, state.referer);
    try {
      for await (const fetched of ctx.pages(tries)) {
        const page = await read(fetched);
        // The sign-in page is known for what it is: another session is sent the same, so it is taken as the answer.
        if (!page.recognized && !page.signInWall) tries.reject('unrecognized_page', describeUnrecognized(fetched, 'review list'));
      }
    } catch (error) {
      if (error instanceof PageParseError) return { ok: false, report: failed('parse_error', error.message, state.requests + 1) };
      throw error;
    }
    const outcome = ctx.outcomeOf(tries);
    state.requests += outcome.attempts;
    if (!outcome.ok) return { ok: false, report: failedFetch(outcome, state.requests, `${what}: `) };
    const page = reads.get(outcome.page) ?? (await read(outcome.page));
    if (!page.recognized && !page.signInWall)
      return { ok: false, report: failed('unrecognized_page', describeUnrecognized(outcome.page, 'review list'), state.requests) };
    return { ok: true, page, url: outcome.page.url };
  };

  /** Pages one walk until it ends; the report instead when a page could not be had. */
  const walkList = async (walk: ReviewWalk): Promise<{ end: WalkEnd; total?: number; totals: Totals } | { report: Crawled }> => {
    let walkTotal: number | undefined;
    let seenInWalk = 0;
    const totals: Totals = {};
    for (let pageNumber = 1; pageNumber <= REVIEW_PAGE_CAP; pageNumber += 1) {
      // Past a wall seen on a later page, only first pages are still served.
      if (pageNumber > 1 && state.wallSeen) return { end: 'signin_wall', totals, ...(walkTotal !== undefined ? { total: walkTotal } : {}) };
      if (state.requests > 0 && !(await ctx.stillWanted())) return { report: CANCELLED };
      const read = await fetchPage(
        reviewsUrl(ctx.store, asin, walk, config.verifiedOnly, pageNumber),
        'review_list',
        `reviews page ${pageNumber} (${walk.filter}, ${walk.sort}) of ${asin}`,
      );
      if (!read.ok) return { report: read.report };
      const { page } = read;
      if (page.signInWall) {
        state.wallSeen = true;
        if (pageNumber === 1) state.wallOnFirstPage = true;
        return { end: 'signin_wall', totals, ...(walkTotal !== undefined ? { total: walkTotal } : {}) };
      }
      state.listSeen = true;
      state.referer = read.url;
      if (pageNumber === 1) {
        walkTotal = page.totalReviews;
        if (page.totalRatings !== undefined) totals.totalRatings = page.totalRatings;
        if (page.totalReviews !== undefined) totals.totalReviews = page.totalReviews;
      }
      collector.addPage(page.reviews, 'review_list');
      seenInWalk += page.reviews.length;
      const withTotal = { totals, ...(walkTotal !== undefined ? { total: walkTotal } : {}) };
      if (collector.full) return { end: 'max', ...withTotal };
      // Sorted by date, the first review older than wanted means every later one is too.
      if (walk.sort === 'recent' && page.reviews.some((review) => collector.olderThanWanted(review))) return { end: 'since', ...withTotal };
      if (!page.hasNextPage) {
        const capped = walkTotal !== undefined ? walkTotal > seenInWalk : pageNumber === REVIEW_PAGE_CAP;
        return { end: capped ? 'cap' : 'end', ...withTotal };
      }
    }
    return { end: 'cap', totals, ...(walkTotal !== undefined ? { total: walkTotal } : {}) };
  };

  const queue: ReviewWalk[] = config.filters.map((filter) => ({ filter, sort: config.sort }));
  const walked = new Set<string>();
  const ends: { walk: ReviewWalk; end: WalkEnd }[] = [];
  const baseTotals = new Map<string, Totals>();
  while (queue.length > 0 && !collector.full) {
    const walk = queue.shift() as ReviewWalk;
    const key = `${walk.filter}\u0000${walk.sort}`;
    if (walked.has(key)) continue;
    walked.add(key);
    const result = await walkList(walk);
    if ('report' in result) return result.report;
    ends.push({ walk, end: result.end });
    // A list walled from its first page is walled under every filter and sort.
    if (state.wallOnFirstPage && !state.listSeen) break;
    if (config.filters.includes(walk.filter) && !baseTotals.has(walk.filter) && result.totals.totalReviews !== undefined)
      baseTotals.set(walk.filter, result.totals);
    // More reviews exist than this walk could show: reach them through narrower filters and the other sort.
    const more = result.total === undefined || result.total > REVIEW_PAGE_CAP * 10 || result.end === 'signin_wall';
    if ((result.end === 'cap' || result.end === 'signin_wall') && more) queue.push(...fanOut(walk));
  }

  let fallback = false;
  if (!state.listSeen) {
    // Walled from the first page: the product page's top reviews are what can still be had.
    const read = await fetchPage(productUrl(ctx.store, asin), 'product_page', `product page of ${asin}`);
    if (!read.ok) return read.report;
    fallback = true;
    collector.addPage(read.page.reviews, 'product_page');
    if (read.page.totalRatings !== undefined) baseTotals.set('product_page', { totalRatings: read.page.totalRatings });
    if (collector.count === 0)
      return failed('blocked', `the review list of ${asin} asks to sign in, and its product page shows no review wanted`, state.requests, 'signin_wall');
  }

  const totals = sumTotals([...baseTotals.values()], fallback ? 1 : config.filters.length);
  const coverage = collector.coverage(totals, limitedBy(collector, config, ends, totals, fallback));
  return report(succeeded(collector.records, state.requests, shortfallOf(collector)), coverage, collector.billablePages);
}

function sumTotals(totals: readonly Totals[], expected: number): Totals {
  if (totals.length !== expected) return {};
  const sum: Totals = {};
  if (totals.every((t) => t.totalRatings !== undefined)) sum.totalRatings = totals.reduce((n, t) => n + (t.totalRatings ?? 0), 0);
  if (totals.every((t) => t.totalReviews !== undefined)) sum.totalReviews = totals.reduce((n, t) => n + (t.totalReviews ?? 0), 0);
  return sum;
}

/** What kept the target from every review the job asked for, if anything did. */
function limitedBy(
  collector: ReviewCollector,
  config: ReviewsConfig,
  ends: readonly { walk: ReviewWalk; end: WalkEnd }[],
  totals: Totals,
  fallback: boolean,
): TargetCoverage['limitedBy'] {
  if (collector.full && (totals.totalReviews === undefined || totals.totalReviews > collector.count)) return 'maxReviews';
  if (fallback) return 'signin_wall';
  if (config.since === undefined && totals.totalReviews !== undefined && collector.count >= totals.totalReviews) return 'none';
  if (
    config.since !== undefined &&
    config.filters.every((filter) => ends.some((e) => e.walk.filter === filter && e.walk.sort === 'recent' && (e.end === 'since' || e.end === 'end')))
  )
    return 'none';
  if (ends.some((e) => e.end === 'signin_wall')) return 'signin_wall';
  if (ends.some((e) => e.end === 'cap')) return 'page_cap';
  return 'none';
}

function shortfallOf(collector: ReviewCollector): { reason: 'partial'; detail: string } | undefined {
  const missing = new Set(collector.records.flatMap((r) => r.quality.missing));
  return missing.size === 0 ? undefined : { reason: 'partial', detail: `required fields missing: ${[...missing].join(', ')}` };
}

function report(body: ReportTargetBody, coverage: TargetCoverage, billableUnits: number): ReportTargetBody {
  return { ...body, coverage, billableUnits };
}
