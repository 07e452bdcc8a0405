import type { CatalogProduct } from './catalog.ts';
import { starShares } from './render/product-layouts.ts';
import { hashString, rngFor, uniformDraw } from './rng.ts';

/** One written review of a product: what orders and filters it; its texts come from `reviewContent`. */
export interface SimReview {
  id: string;
  stars: 1 | 2 | 3 | 4 | 5;
  /** ISO date. */
  date: string;
  helpfulVotes: number;
  verified: boolean;
}

export type ReviewSort = 'helpful' | 'recent';
/** The storefront's `filterByStar` values. */
export const STAR_FILTERS = ['all_stars', 'five_star', 'four_star', 'three_star', 'two_star', 'one_star', 'positive', 'critical'] as const;
export type StarFilter = (typeof STAR_FILTERS)[number];

/** Reviews a page shows, and the pages a filter reaches: the storefront's cap. */
export const REVIEWS_PER_PAGE = 10;
export const MAX_REVIEW_PAGES = 10;

// Review dates count back from this day, so every review keeps its date whatever the clock says.
const NEWEST_REVIEW_DAY = Date.UTC(2026, 10, 15);
const DAY_MS = 86_400_000;

const STARS_OF: Record<StarFilter, readonly (1 | 2 | 3 | 4 | 5)[]> = {
  all_stars: [5, 4, 3, 2, 1],
  five_star: [5],
  four_star: [4],
  three_star: [3],
  two_star: [2],
  one_star: [1],
  positive: [5, 4],
  critical: [3, 2, 1],
};

/** Ratings per star count, 5★ first: the product's rating count split by its histogram. */
export function ratingsByStar(product: CatalogProduct): [number, number, number, number, number] {
  if (product.rating === undefined || product.reviewCount === 0) return [0, 0, 0, 0, 0];
  return starShares(product.rating).map((share) => Math.round((product.reviewCount * share) / 100)) as [number, number, number, number, number];
}

/** Written reviews per star count, 5★ first: a seeded share (12–35 %) of each star's ratings. */
export function writtenByStar(product: CatalogProduct): [number, number, number, number, number] {
  const share = 0.12 + uniformDraw(`reviews-written\u0000${product.asin}`) * 0.23;
  return ratingsByStar(product).map((ratings) => Math.round(ratings * share)) as [number, number, number, number, number];
}

const pools = new Map<string, SimReview[]>();
const POOLS_KEPT = 64;

/** Every written review of one star count, in no particular order; the same for the same product. */
function starPool(product: CatalogProduct, stars: 1 | 2 | 3 | 4 | 5): SimReview[] {
  const key = `${product.asin}\u0000${stars}`;
  const kept = pools.get(key);
  if (kept) return kept;
  const count = writtenByStar(product)[5 - stars] ?? 0;
  const rng = rngFor('reviews', product.asin, stars);
  const pool: SimReview[] = [];
  for (let i = 0; i < count; i++) {
    // More recent reviews are more common; helpful votes are few for most, many for a handful.
    const daysAgo = Math.floor(rng.next() ** 1.6 * 1800);
    const votes = rng.chance(0.45) ? Math.floor(1 / (rng.next() * 0.98 + 0.02)) - 1 + rng.int(1, 3) : 0;
    pool.push({
      id: reviewId(product.asin, stars, i),
      stars,
      date: isoDay(NEWEST_REVIEW_DAY - daysAgo * DAY_MS),
      helpfulVotes: votes,
      verified: rng.chance(0.85),
    });
  }
  if (pools.size >= POOLS_KEPT) pools.delete(pools.keys().next().value as string);
  pools.set(key, pool);
  return pool;
}

/** `R` and 13 capitals or digits, like the storefront's review ids. */
function reviewId(asin: string, stars: number, index: number): string {
  const a = hashString(`${asin}\u0000${stars}\u0000${index}`).toString(36).toUpperCase().padStart(7, '0');
  const b = hashString(`${index}\u0000${stars}\u0000${asin}`, 0x9747b28c).toString(36).toUpperCase().padStart(7, '0');
  return `R${a.slice(0, 7)}${b.slice(0, 6)}`;
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export interface ReviewQuery {
  filter: StarFilter;
  sort: ReviewSort;
  verifiedOnly: boolean;
}

export interface ReviewListing {
  /** Ratings the filter covers (every rating of its stars; verified or not, as the storefront counts them). */
  totalRatings: number;
  /** Written reviews the filter covers. */
  totalReviews: number;
  /** The reviews of the requested page (none past the cap). */
  reviews: SimReview[];
  hasNextPage: boolean;
}

/** One page of a product's review list under a filter and a sort, capped at MAX_REVIEW_PAGES. */
export function reviewListing(product: CatalogProduct, query: ReviewQuery, page: number): ReviewListing {
  const stars = STARS_OF[query.filter];
  const ratings = ratingsByStar(product);
  const all = stars.flatMap((s) => starPool(product, s)).filter((r) => !query.verifiedOnly || r.verified);
  const ordered = all.sort(query.sort === 'recent' ? byRecent : byHelpful);
  const reachable = Math.min(ordered.length, MAX_REVIEW_PAGES * REVIEWS_PER_PAGE);
  const from = (page - 1) * REVIEWS_PER_PAGE;
  return {
    // Unfiltered, the product page's own count; a star filter counts that star's share of it.
    totalRatings: query.filter === 'all_stars' ? product.reviewCount : stars.reduce((sum, s) => sum + (ratings[5 - s] ?? 0), 0),
    totalReviews: all.length,
    reviews: page > MAX_REVIEW_PAGES ? [] : ordered.slice(from, Math.min(from + REVIEWS_PER_PAGE, reachable)),
    hasNextPage: page < MAX_REVIEW_PAGES && from + REVIEWS_PER_PAGE < reachable,
  };
}

/** The reviews a product page shows under "Top reviews": the most helpful of all stars. */
export function topReviews(product: CatalogProduct, count = 8): SimReview[] {
  return reviewListing(product, { filter: 'all_stars', sort: 'helpful', verifiedOnly: false }, 1).reviews.slice(0, count);
}

function byRecent(a: SimReview, b: SimReview): number {
  return a.date === b.date ? (a.id < b.id ? -1 : 1) : a.date < b.date ? 1 : -1;
}

function byHelpful(a: SimReview, b: SimReview): number {
  return a.helpfulVotes === b.helpfulVotes ? byRecent(a, b) : b.helpfulVotes - a.helpfulVotes;
}

/**
 * Where a product's review list asks to sign in, as the storefront has since late 2024: for about a
 * quarter of the products every page past the first, for a few every page. Seeded per ASIN.
 */
export type ReviewsWall = 'none' | 'after_first_page' | 'every_page';

export function reviewsWallOf(asin: string): ReviewsWall {
  const draw = uniformDraw(`reviews-wall\u0000${asin}`);
  return draw < 0.05 ? 'every_page' : draw < 0.3 ? 'after_first_page' : 'none';
}

/** What a review shows beside its stars, date and votes: texts made from its id. */
export interface ReviewContent {
  title: string;
  body: string[];
  authorName: string;
  /** Absent for the reviews shown as "Amazon Customer" without a profile link. */
  profileId?: string;
  variant?: [string, string][];
  imageIds: string[];
}

const POSITIVE_TITLES = ['Does exactly what it says', 'Great value', 'Better than expected', 'Solid and well made', 'Would buy again', 'Five stars'];
const MIXED_TITLES = ['Good, with a few flaws', 'Okay for the price', 'Does the job', 'Not bad, not great'];
const NEGATIVE_TITLES = ['Stopped working after a month', 'Disappointed', 'Not as described', 'Returned it', 'Poor quality'];
const OPENINGS = ['Bought this to replace an older one.', 'Used it daily for a few weeks now.', 'Arrived quickly and well packed.', 'Got this as a gift.'];
const POSITIVE_LINES = ['Works well and feels sturdy.', 'Easy to set up & easy to clean.', 'Quiet, quick and nicely finished.', 'Exactly what I needed.'];
const NEGATIVE_LINES = [
  'The finish wore off within weeks.',
  'It rattles and feels flimsy.',
  'Customer service was slow to answer.',
  'Smaller than the pictures suggest.',
];
const NAMES = ['Sam', 'Alex K.', 'Maria', 'J. Chen', 'Priya', 'Tom B.', 'Lena', 'Chris', 'Noor', 'Kenji', 'Olga', 'Luis M.'];
const SIZES = ['S', 'M', 'L', 'XL'];
const STYLES = ['Standard', 'Pro', 'Compact'];

export function reviewContent(product: CatalogProduct, review: SimReview): ReviewContent {
  const rng = rngFor('review-content', review.id);
  const titles = review.stars >= 4 ? POSITIVE_TITLES : review.stars === 3 ? MIXED_TITLES : NEGATIVE_TITLES;
  const lines = review.stars >= 3 ? POSITIVE_LINES : NEGATIVE_LINES;
  const body = [rng.pick(OPENINGS), ...rng.shuffle(lines).slice(0, rng.int(1, 3))];
  const anonymous = rng.chance(0.1);
  const content: ReviewContent = {
    title: rng.pick(titles),
    body,
    authorName: anonymous ? 'Amazon Customer' : rng.pick(NAMES),
    imageIds: rng.chance(0.15) ? Array.from({ length: rng.int(1, 3) }, () => `7${rng.int(1, 9)}${hashString(`${review.id}${rng.next()}`).toString(36)}L`) : [],
  };
  if (!anonymous)
    content.profileId = `amzn1.account.A${hashString(content.authorName + review.id)
      .toString(36)
      .toUpperCase()
      .padStart(7, '0')}${hashString(review.id, 7).toString(36).toUpperCase()}`;
  const variation = product.variations.find((v) => v.asin === product.asin);
  if (variation !== undefined) content.variant = [['colour', variation.value]];
  else if (rng.chance(0.4)) content.variant = rng.chance(0.5) ? [['size', rng.pick(SIZES)]] : [['style', rng.pick(STYLES)]];
  if (content.variant && content.variant[0]?.[0] !== 'size' && rng.chance(0.3)) content.variant.push(['size', rng.pick(SIZES)]);
  return content;
}
