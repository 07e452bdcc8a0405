/** The units rule is the contract's (the dashboard shows the same figure before a job is created). */
export { BILLED_PER_PAGE_FETCHED, unitsPerTarget } from '@crawl/contracts';
