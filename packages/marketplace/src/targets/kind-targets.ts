import type { KindTargetResolver } from './kind-target.ts';
import { resolveReviewsTarget } from './reviews-target.ts';

/**
 * How each page kind besides search (a keyword as typed) and details (`resolveDetailsTarget`)
 * reads its targets: one resolver per job type.
 */
export const KIND_TARGETS = {
  reviews: resolveReviewsTarget,
} satisfies Record<string, KindTargetResolver>;

export type TargetKind = keyof typeof KIND_TARGETS;
