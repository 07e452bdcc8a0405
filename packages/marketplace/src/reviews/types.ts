/** One customer review as a review list or a product page shows it. */
export interface Review {
  /** The storefront's id of the review (`R1ABCDEF2GHIJK`). */
  reviewId: string;
  title?: string;
  /** The review's text; paragraphs joined by `\n`. */
  body?: string;
  /** Stars given, 1–5. */
  rating?: number;
  /** ISO date (`2024-03-03`) read from the date line. */
  date?: string;
  /** The date line as shown (`Reviewed in the United States on March 3, 2024`). */
  dateRaw?: string;
  /** Where it was reviewed, as the date line names it (`the United States`, `Deutschland`). */
  country?: string;
  verifiedPurchase: boolean;
  /** People who found it helpful (`One person found this helpful` → 1). */
  helpfulVotes?: number;
  /** The variation reviewed, the format strip's parts joined by ` | ` (`Colour: Black | Size: M`). */
  variant?: string;
  /** Full-size URLs of the reviewer's images. */
  images?: string[];
  authorName?: string;
  /** The reviewer's profile id (`amzn1.account.AEXAMPLE`), from the profile link. */
  authorProfileId?: string;
  /** The fields of REVIEW_FIELDS this review does not show. */
  missingFields: ReviewField[];
}

/** The optional fields of a review: those a review lacks are its `missingFields`. */
export const REVIEW_FIELDS = [
  'title',
  'body',
  'rating',
  'date',
  'dateRaw',
  'country',
  'helpfulVotes',
  'variant',
  'images',
  'authorName',
  'authorProfileId',
] as const satisfies readonly (keyof Review)[];
export type ReviewField = (typeof REVIEW_FIELDS)[number];

/**
 * What the page is: the review list (`/product-reviews/<ASIN>`), a product page (whose top reviews
 * stand in when the list is walled), the sign-in page the storefront sends instead of the list, or
 * none of these (a block, an error page, a page of another kind).
 */
export type ReviewsPageKind = 'review_list' | 'product_page' | 'signin' | 'other';

export interface ReviewsPage {
  kind: ReviewsPageKind;
  /** True only for a review list, or a product page when `accept` allows one. */
  recognized: boolean;
  /** The page is the storefront's sign-in form (a review list behind a sign-in wall). */
  signInWall: boolean;
  reviews: Review[];
  /** Ratings the list states (`1,234 global ratings`). */
  totalRatings?: number;
  /** Ratings with a written review (`321 with reviews`; under a star filter: those of that filter). */
  totalReviews?: number;
  /** The list offers a next page. */
  hasNextPage: boolean;
}

export interface ParseReviewsPageOptions {
  /** Storefront origin (`https://www.amazon.de`); relative links are made absolute on it. */
  origin: string;
  /** The product asked for; kept for callers, the page's reviews need no ASIN. */
  asin?: string;
  /** Marketplace domain (`amazon.de`) when `origin` does not identify one (the simulator). */
  marketplace?: string;
  /**
   * The kinds of page that count as recognised: the review list by default; the crawler passes
   * `['product_page']` when it reads a product page's top reviews as the fallback.
   */
  accept?: readonly ReviewsPageKind[];
}
