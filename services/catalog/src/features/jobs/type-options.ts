import { MAX_AGE_LIMIT_MS, maxAgeMs, type JobConfig, type JobType } from '@crawl/contracts';
import { errors } from '@crawl/errors';

const SEARCH_SORTS = ['featured', 'price_asc', 'price_desc', 'avg_review', 'newest'] as const;
const REVIEW_SORTS = ['recent', 'helpful'] as const;

/** The config keys only some job types take, and those types (docs/catalog.md, "Job types and prices"). */
const TYPE_OPTIONS: Readonly<Partial<Record<keyof JobConfig, readonly JobType[]>>> = {
  sort: ['search', 'category', 'reviews'],
  stars: ['reviews'],
  verifiedOnly: ['reviews'],
  maxReviews: ['reviews'],
  since: ['reviews'],
  condition: ['offers'],
  list: ['bestsellers'],
  // The page cache answers the types whose page is read whole into records (docs/adr/0023).
  maxAge: ['details', 'search'],
};

const typesList = (types: readonly JobType[]): string =>
  types.length === 1 ? `${types[0]} jobs` : `${types.slice(0, -1).join(', ')} and ${types.at(-1)} jobs`;

/**
 * A config key of another job type is refused rather than ignored: a job would run, and be
 * charged, without the option its author meant. `sort` takes the values of its type's pages.
 */
export function assertTypeOptions(type: JobType, config: JobConfig, option: (name: string) => string): void {
  for (const [key, types] of Object.entries(TYPE_OPTIONS) as Array<[keyof JobConfig, readonly JobType[]]>) {
    if (config[key] !== undefined && !types.includes(type)) throw errors.validation(`${option(key)} applies to ${typesList(types)} only`);
  }
  if (config.sort !== undefined) {
    const sorts: readonly string[] = type === 'reviews' ? REVIEW_SORTS : SEARCH_SORTS;
    if (!sorts.includes(config.sort)) throw errors.validation(`${option('sort')} of a ${type} job must be one of ${sorts.join(', ')}`);
  }
  if (config.maxAge !== undefined && (maxAgeMs(config.maxAge) ?? Number.POSITIVE_INFINITY) > MAX_AGE_LIMIT_MS) {
    throw errors.validation(`${option('maxAge')} ${JSON.stringify(config.maxAge)} is longer than the cache keeps pages (at most 30d)`);
  }
  if (config.since !== undefined && !isCalendarDate(config.since)) {
    throw errors.validation(`${option('since')} ${JSON.stringify(config.since)} is not a calendar date`);
  }
}

/** `2026-02-30` has the shape of a date but is none: the day must read back as written. */
function isCalendarDate(value: string): boolean {
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
}
