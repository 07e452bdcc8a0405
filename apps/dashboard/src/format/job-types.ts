import type { JobType } from '@crawl/sdk';

/** A job type as the form offers it: its name, what its targets are, and what it fetches for each. */
export interface JobTypeInfo {
  name: string;
  /** What a target is, for the targets box's label ("…, one per line"). */
  targets: string;
  /** What the job reads for each target, in a few words. */
  fetches: string;
}

/** Every job type in the order the form lists them (docs/catalog.md, "Job types and prices"). */
export const JOB_TYPE_INFO: Readonly<Record<JobType, JobTypeInfo>> = {
  search: { name: 'Search', targets: 'Keywords', fetches: 'the result pages of a keyword search' },
  details: { name: 'Details', targets: 'ASINs or product URLs', fetches: "a product's page: price, stock, rating, seller" },
  reviews: { name: 'Reviews', targets: 'ASINs or review URLs', fetches: "a product's customer reviews" },
  offers: { name: 'Offers', targets: 'ASINs or offer-listing URLs', fetches: "every seller's offer of a product" },
  bestsellers: { name: 'Best sellers', targets: 'Browse node ids or best-seller URLs', fetches: "a category's top 100: best sellers, new releases or movers" },
  category: { name: 'Category', targets: 'Browse node ids or category URLs', fetches: "a category's product listing, page by page" },
  seller: { name: 'Seller', targets: 'Seller ids or profile URLs', fetches: "a seller's profile: rating, feedback counts, business details" },
  autocomplete: { name: 'Autocomplete', targets: 'Prefixes', fetches: "the search box's suggestions for what is typed" },
};
