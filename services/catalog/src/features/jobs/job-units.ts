import { CATALOG_LIMITS, type JobConfig, type JobType } from '@crawl/contracts';

/** Reviews a page of reviews shows. */
const REVIEWS_PER_PAGE = 10;

/**
 * The types charged for the pages fetched that yielded records, not for the units held: how many
 * pages a product's reviews or offers take is only known once they are read.
 */
export const BILLED_PER_PAGE_FETCHED: ReadonlySet<JobType> = new Set(['reviews', 'offers']);

/**
 * Billable units held per target at create (docs/catalog.md, "Job types and prices"): a search or
 * category target's pages, the pages a reviews target may read for `maxReviews`, the pages of
 * offers a target reads at most; one for the others. Per-page types settle on what they fetched,
 * never above this.
 */
export function unitsPerTarget(type: JobType, config: JobConfig): number {
  switch (type) {
    case 'search':
    case 'category':
      return config.pages ?? 1;
    case 'reviews':
      return Math.ceil((config.maxReviews ?? CATALOG_LIMITS.defaultMaxReviews) / REVIEWS_PER_PAGE);
    case 'offers':
      return CATALOG_LIMITS.maxOfferPages;
    default:
      return 1;
  }
}
