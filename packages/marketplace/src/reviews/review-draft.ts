/** What a review card showed, as raw texts, before they are read into a Review. */
export interface ReviewDraft {
  /** The card's own id, or one read from inside it (`customer_review-R…`, the title's link). */
  reviewId?: string;
  titleText?: string;
  bodyText?: string;
  starClass?: number;
  starText?: string;
  dateText?: string;
  verified: boolean;
  helpfulText?: string;
  variantText?: string;
  images: string[];
  authorName?: string;
  profileHref?: string;
}

export function newReviewDraft(reviewId: string | undefined): ReviewDraft {
  const draft: ReviewDraft = { verified: false, images: [] };
  if (reviewId !== undefined) draft.reviewId = reviewId;
  return draft;
}

// Review ids: `R` and 8–20 capitals or digits, on the card itself or a nested `customer_review-R…`.
const REVIEW_ID = /^(?:customer_review(?:_foreign)?-)?(R[0-9A-Z]{8,20})$/;
const REVIEW_LINK = /\/customer-reviews\/(R[0-9A-Z]{8,20})(?:[/?#]|$)/;

export function reviewIdOfElement(id: string | undefined): string | undefined {
  return id === undefined ? undefined : REVIEW_ID.exec(id)?.[1];
}

export function reviewIdOfLink(href: string | undefined): string | undefined {
  return href === undefined ? undefined : REVIEW_LINK.exec(href)?.[1];
}
