import { CATALOG_LIMITS, type JobConfig } from './catalog.ts';
import type { JobType } from './credits.ts';

/** Reviews a page of reviews shows. */
export const REVIEWS_PER_PAGE = 10;

/**
 * The types charged for the pages that yielded records, not for the units held: how many pages a
 * product's reviews or offers take is only known once they are read. Their reservation is a ceiling.
 */
export const BILLED_PER_PAGE_FETCHED: ReadonlySet<JobType> = new Set(['reviews', 'offers']);

/**
 * Billable units a target holds at create (docs/catalog.md, "Job types and prices"): a search or
 * category target's pages, the pages of ten reviews its `maxReviews` may take, the pages of offers
 * a target reads at most; one for the others. The catalog reserves this, the dashboard shows it.
 */
export function unitsPerTarget(type: JobType, config: JobConfig = {}): number {
  switch (type) {
    case 'search':
    case 'category':
      return Math.max(1, config.pages ?? 1);
    case 'reviews':
      return Math.ceil((config.maxReviews ?? CATALOG_LIMITS.defaultMaxReviews) / REVIEWS_PER_PAGE);
    case 'offers':
      return CATALOG_LIMITS.maxOfferPages;
    default:
      return 1;
  }
}
