import type { ReviewRecord, TargetCoverage } from '@crawl/contracts';
import type { Review } from '@crawl/marketplace';
import { recordQuality } from './record-quality.ts';
import type { ReviewsConfig } from './reviews-plan.ts';

/**
 * The distinct reviews a target has gathered from all its walks: each kept once (by review id), only
 * when it is what the job asked for (its stars, verified purchases, written on or after `since`),
 * and never more than `maxReviews`.
 */
export class ReviewCollector {
  readonly #asin: string;
  readonly #config: ReviewsConfig;
  readonly #marketplace: string | undefined;
  readonly #required: readonly string[];
  readonly #stars: ReadonlySet<number>;
  readonly #records = new Map<string, ReviewRecord>();
  /** Pages that added at least one review: what the target is charged for. */
  billablePages = 0;

  constructor(asin: string, config: ReviewsConfig, stars: readonly number[], marketplace: string | undefined, required: readonly string[]) {
    this.#asin = asin;
    this.#config = config;
    this.#stars = new Set(stars);
    this.#marketplace = marketplace;
    this.#required = required;
  }

  get count(): number {
    return this.#records.size;
  }

  get full(): boolean {
    return this.#records.size >= this.#config.maxReviews;
  }

  /** Whether a review is older than the job's `since` (undated ones are not known to be newer). */
  olderThanWanted(review: Review): boolean {
    const since = this.#config.since;
    return since !== undefined && (review.date === undefined || review.date < since);
  }

  /** Adds a page's reviews; returns how many were new. A page that adds one counts for billing. */
  addPage(reviews: readonly Review[], source: 'review_list' | 'product_page'): number {
    let added = 0;
    for (const review of reviews) {
      if (this.full) break;
      if (this.#records.has(review.reviewId) || !this.#wanted(review)) continue;
      this.#records.set(review.reviewId, this.#record(review, source));
      added += 1;
    }
    if (added > 0) this.billablePages += 1;
    return added;
  }

  get records(): ReviewRecord[] {
    return [...this.#records.values()];
  }

  coverage(totals: { totalRatings?: number; totalReviews?: number }, limitedBy: TargetCoverage['limitedBy']): TargetCoverage {
    return { fetched: this.count, ...totals, limitedBy };
  }

  #wanted(review: Review): boolean {
    if (review.rating !== undefined && !this.#stars.has(review.rating)) return false;
    if (this.#config.verifiedOnly && !review.verifiedPurchase) return false;
    return !this.olderThanWanted(review);
  }

  #record(review: Review, source: 'review_list' | 'product_page'): ReviewRecord {
    const { missingFields, ...fields } = review;
    const record = { asin: this.#asin, ...fields, ...(this.#marketplace ? { marketplace: this.#marketplace } : {}), source, missingFields: [...missingFields] };
    return { ...record, quality: recordQuality(record, this.#required) };
  }
}
