/**
 * Credits per billable unit, by job type (docs/catalog.md, "Job types and prices"): a search or
 * category page 5, a product page 2, a page of reviews or of offers 1, a best-seller list (both
 * pages) 5, a seller profile 2, a prefix's suggestions 1. A target is one unit unless its type
 * bills per page (search and category `config.pages`, reviews and offers pages that yielded records).
 */
export const CREDITS_PER_TARGET = { search: 5, details: 2, reviews: 1, offers: 1, bestsellers: 5, category: 5, seller: 2, autocomplete: 1 } as const;
export type JobType = keyof typeof CREDITS_PER_TARGET;
export const JOB_TYPES = ['search', 'details', 'reviews', 'offers', 'bestsellers', 'category', 'seller', 'autocomplete'] as const satisfies readonly JobType[];
/** Most units a target may hold: reviews' 5,000 at 10 a page, with the fan-out over filters past the page cap. */
export const MAX_UNITS_PER_TARGET = 1000;
/** Display rate for top-ups: 1 currency unit buys 10,000 credits. */
export const CREDITS_PER_CURRENCY_UNIT = 10_000;
