import type { JobType } from '@crawl/contracts';
import { crawlAutocomplete } from './autocomplete-crawl.ts';
import { crawlBestsellers } from './bestsellers-crawl.ts';
import { crawlCategory } from './category-crawl.ts';
import type { Crawled, CrawlContext } from './crawl-context.ts';
import { crawlProduct } from './product-crawl.ts';
import { crawlOffers } from './offers-crawl.ts';
import { crawlReviews } from './reviews-crawl.ts';
import { crawlSearch } from './search-crawl.ts';
import { crawlSeller } from './seller-crawl.ts';

/** How a target of each job type is crawled: its page kind's fetch, recognition and records. */
export const KIND_CRAWLS: Readonly<Record<JobType, (ctx: CrawlContext) => Promise<Crawled>>> = {
  search: crawlSearch,
  details: crawlProduct,
  reviews: crawlReviews,
  bestsellers: crawlBestsellers,
  category: crawlCategory,
  autocomplete: crawlAutocomplete,
  offers: crawlOffers,
  seller: crawlSeller,
};
