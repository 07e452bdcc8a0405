import { CATALOG_LIMITS, type JobConfig } from '@crawl/contracts';
import type { Storefront } from './marketplace-origin.ts';

/** The storefront's star filters (`filterByStar=`), and the sorts of its review list (`sortBy=`). */
export type StarFilter = 'all_stars' | 'five_star' | 'four_star' | 'three_star' | 'two_star' | 'one_star';
export type ReviewSort = 'helpful' | 'recent';

/** One walk of the review list: a filter in a sort, paged from 1 until it ends. */
export interface ReviewWalk {
  filter: StarFilter;
  sort: ReviewSort;
}

const STAR_FILTER_OF: Record<number, StarFilter> = { 5: 'five_star', 4: 'four_star', 3: 'three_star', 2: 'two_star', 1: 'one_star' };
export const STARS_OF_FILTER: Record<StarFilter, readonly number[]> = {
  all_stars: [1, 2, 3, 4, 5],
  five_star: [5],
  four_star: [4],
  three_star: [3],
  two_star: [2],
  one_star: [1],
};

/** Pages the storefront shows of one filter in one sort (10 reviews each): past them, fan out. */
export const REVIEW_PAGE_CAP = 10;

export interface ReviewsConfig {
  /** The filters whose reviews together are what the job asked for (disjoint). */
  filters: readonly StarFilter[];
  sort: ReviewSort;
  verifiedOnly: boolean;
  maxReviews: number;
  /** ISO day: reviews written before it are not wanted. */
  since?: string;
}

/** What a reviews job asks of each target, defaults applied. */
export function reviewsConfigOf(config: JobConfig): ReviewsConfig {
  const stars = config.stars?.filter((s) => STAR_FILTER_OF[s] !== undefined) ?? [];
  const max = config.maxReviews;
  const reviews: ReviewsConfig = {
    filters: stars.length === 0 || stars.length === 5 ? ['all_stars'] : [...new Set(stars)].sort((a, b) => b - a).map((s) => STAR_FILTER_OF[s] as StarFilter),
    sort: config.sort === 'recent' ? 'recent' : 'helpful',
    verifiedOnly: config.verifiedOnly === true,
    maxReviews: max !== undefined && Number.isInteger(max) && max >= 1 ? Math.min(max, CATALOG_LIMITS.maxReviews) : CATALOG_LIMITS.defaultMaxReviews,
  };
  if (config.since !== undefined) reviews.since = config.since;
  return reviews;
}

/**
 * The walks that reach past a capped one: the same reviews under narrower filters (each star of
 * `all_stars`) and in the other sort. Each reaches another ten pages of the same reviews.
 */
export function fanOut(capped: ReviewWalk): ReviewWalk[] {
  const other: ReviewSort = capped.sort === 'helpful' ? 'recent' : 'helpful';
  if (capped.filter !== 'all_stars') return [{ filter: capped.filter, sort: other }];
  const stars: StarFilter[] = ['five_star', 'four_star', 'three_star', 'two_star', 'one_star'];
  return [...stars.map((filter) => ({ filter, sort: capped.sort })), { filter: 'all_stars', sort: other }];
}

/** `GET {origin}/product-reviews/<ASIN>?…` for one page of a walk, as the storefront's own links ask. */
export function reviewsUrl(store: Storefront, asin: string, walk: ReviewWalk, verifiedOnly: boolean, page: number): string {
  const query = new URLSearchParams({
    ie: 'UTF8',
    reviewerType: verifiedOnly ? 'avp_only_reviews' : 'all_reviews',
    filterByStar: walk.filter,
    sortBy: walk.sort,
    pageNumber: String(page),
  });
  for (const [key, value] of Object.entries(store.query)) query.set(key, value);
  return `${store.origin}/product-reviews/${encodeURIComponent(asin)}?${query.toString()}`;
}
