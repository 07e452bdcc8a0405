import { CATALOG_LIMITS, type JobConfig, type JobType } from '@crawl/contracts';

export const SEARCH_SORTS = [
  { value: 'featured', label: 'Featured' },
  { value: 'price_asc', label: 'Price: low to high' },
  { value: 'price_desc', label: 'Price: high to low' },
  { value: 'avg_review', label: 'Average review' },
  { value: 'newest', label: 'Newest arrivals' },
] as const;
export const REVIEW_SORTS = [
  { value: 'helpful', label: 'Most helpful' },
  { value: 'recent', label: 'Most recent' },
] as const;
export const OFFER_CONDITIONS = [
  { value: '', label: 'Any condition' },
  { value: 'new', label: 'New' },
  { value: 'used', label: 'Used' },
  { value: 'collectible', label: 'Collectible' },
  { value: 'refurbished', label: 'Refurbished' },
] as const;
export const RANKED_LISTS = [
  { value: 'bestsellers', label: 'Best sellers' },
  { value: 'new-releases', label: 'New releases' },
  { value: 'movers-and-shakers', label: 'Movers and shakers' },
] as const;

type SearchSort = (typeof SEARCH_SORTS)[number]['value'];
type ReviewSort = (typeof REVIEW_SORTS)[number]['value'];

/** The options of every type as the form holds them; only the chosen type's reach the config. */
export interface OptionsDraft {
  pages: number;
  searchSort: SearchSort;
  /** Empty: every star rating. */
  stars: number[];
  reviewSort: ReviewSort;
  verifiedOnly: boolean;
  maxReviews: number;
  /** `YYYY-MM-DD`, or empty for no limit. */
  since: string;
  condition: (typeof OFFER_CONDITIONS)[number]['value'];
  list: (typeof RANKED_LISTS)[number]['value'];
}

/** The config keys the options fields write: kept out of the extra-config box. */
export const OPTION_KEYS: readonly string[] = ['pages', 'sort', 'stars', 'verifiedOnly', 'maxReviews', 'since', 'condition', 'list'];

const oneOf = <T extends string>(choices: ReadonlyArray<{ value: T }>, value: unknown, fallback: T): T =>
  choices.find((choice) => choice.value === value)?.value ?? fallback;

/** The form's options from a job's config (a schedule's, when it is edited), the defaults where it says nothing. */
export function optionsDraftOf(config: JobConfig = {}): OptionsDraft {
  return {
    pages: typeof config.pages === 'number' ? config.pages : 1,
    searchSort: oneOf(SEARCH_SORTS, config.sort, 'featured'),
    stars: Array.isArray(config.stars) ? [...config.stars] : [],
    reviewSort: oneOf(REVIEW_SORTS, config.sort, 'helpful'),
    verifiedOnly: config.verifiedOnly === true,
    maxReviews: typeof config.maxReviews === 'number' ? config.maxReviews : CATALOG_LIMITS.defaultMaxReviews,
    since: typeof config.since === 'string' ? config.since : '',
    condition: oneOf(OFFER_CONDITIONS, config.condition, ''),
    list: oneOf(RANKED_LISTS, config.list, 'bestsellers'),
  };
}

/**
 * The config keys of the chosen type only (the catalog refuses another type's), each left out
 * where it is the default, so a job says only what was chosen.
 */
export function optionsConfig(type: JobType, draft: OptionsDraft): JobConfig {
  switch (type) {
    case 'search':
    case 'category':
      return {
        ...(draft.pages > 1 ? { pages: Math.min(draft.pages, CATALOG_LIMITS.maxSearchPages) } : {}),
        ...(draft.searchSort !== 'featured' ? { sort: draft.searchSort } : {}),
      };
    case 'reviews':
      return {
        ...(draft.stars.length > 0 && draft.stars.length < 5 ? { stars: [...draft.stars].sort((a, b) => b - a) } : {}),
        ...(draft.reviewSort !== 'helpful' ? { sort: draft.reviewSort } : {}),
        ...(draft.verifiedOnly ? { verifiedOnly: true } : {}),
        ...(draft.maxReviews !== CATALOG_LIMITS.defaultMaxReviews ? { maxReviews: draft.maxReviews } : {}),
        ...(draft.since ? { since: draft.since } : {}),
      };
    case 'offers':
      return draft.condition ? { condition: draft.condition } : {};
    case 'bestsellers':
      return draft.list !== 'bestsellers' ? { list: draft.list } : {};
    default:
      return {};
  }
}
