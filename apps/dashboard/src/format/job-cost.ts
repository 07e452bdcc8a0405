import { CATALOG_LIMITS, CREDITS_PER_TARGET, type JobConfig, type JobType } from '@crawl/contracts';

/** Reviews a page of reviews shows: a reviews target holds a unit per page its maxReviews may take. */
const REVIEWS_PER_PAGE = 10;

/** The types charged for the pages that yielded records, not for what they held: their cost is a ceiling. */
export const BILLED_PER_PAGE_FETCHED: ReadonlySet<JobType> = new Set(['reviews', 'offers']);

/**
 * Billable units a target holds, as the catalog counts them (docs/catalog.md, "Job types and
 * prices"): a search or category target's pages, the pages of ten reviews `maxReviews` may take,
 * the ten pages of offers a product may have; one for the others.
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

/**
 * What a job will reserve, as the catalog computes it: credits per unit of the type times the
 * units each distinct target holds (duplicates are removed before billing). For reviews and
 * offers it is the most the job is charged.
 */
export function jobCost(type: JobType, targets: readonly string[], config: JobConfig = {}): number {
  return distinctTargets(targets).length * CREDITS_PER_TARGET[type] * unitsPerTarget(type, config);
}

/** One target per non-blank line, trimmed, first occurrence kept. */
export function distinctTargets(lines: readonly string[]): string[] {
  return [...new Set(lines.map((line) => line.trim()).filter((line) => line.length > 0))];
}

export function targetsFromText(text: string): string[] {
  return distinctTargets(text.split(/\r?\n/));
}
