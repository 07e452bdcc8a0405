import type { KindTargetResolver } from './kind-target.ts';
import { resolveReviewsTarget } from './reviews-target.ts';
import { resolveAutocompleteTarget } from './autocomplete-target.ts';
import { resolveBestsellersTarget } from './bestsellers-target.ts';
import { resolveCategoryTarget } from './category-target.ts';
import { resolveOffersTarget } from './offers-target.ts';
import { resolveSellerTarget } from './seller-target.ts';

/**
 * How each page kind besides search (a keyword as typed) and details (`resolveDetailsTarget`)
 * reads its targets: one resolver per job type.
 */
export const KIND_TARGETS = {
  reviews: resolveReviewsTarget,
  bestsellers: resolveBestsellersTarget,
  category: resolveCategoryTarget,
  autocomplete: resolveAutocompleteTarget,
  offers: resolveOffersTarget,
  seller: resolveSellerTarget,
} satisfies Record<string, KindTargetResolver>;

export type TargetKind = keyof typeof KIND_TARGETS;
