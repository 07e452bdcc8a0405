import { decodeLeftoverReferences, isCode } from '../fields/clean-text.ts';
import { EXPANDER_PROMPT } from '../fields/interface-phrases.ts';
import { cleanValue } from '../fields/validate-product.ts';
import { absoluteUrl, normalizeSpace } from '../html/tags.ts';
import { parseRating } from '../numbers.ts';
import { reviewCountryOf, reviewDateOf } from './review-date.ts';
import type { ReviewDraft } from './review-draft.ts';
import { helpfulVotesOf } from './review-texts.ts';
import { REVIEW_FIELDS, type Review } from './types.ts';

const PROFILE_ID = /\/profile\/(amzn1\.account\.[A-Z0-9]+)/i;
// A thumbnail's size modifier (`._SY88.jpg`, `._SL1600_.jpg`): the original has none.
const IMAGE_MODIFIER = /\._[^/]*?_?(\.(?:jpe?g|png|gif|webp))$/i;

/** The review a card shows, its texts checked like every other value; undefined without an id. */
export function assembleReview(draft: ReviewDraft, origin: string): Review | undefined {
  if (draft.reviewId === undefined) return undefined;
  const review: Review = { reviewId: draft.reviewId, verifiedPurchase: draft.verified, missingFields: [] };
  const title = cleanValue(draft.titleText);
  if (title !== undefined) review.title = title;
  const body = bodyOf(draft.bodyText);
  if (body !== undefined) review.body = body;
  const rating = ratingOf(draft);
  if (rating !== undefined) review.rating = rating;
  const dateRaw = cleanValue(draft.dateText);
  if (dateRaw !== undefined) {
    review.dateRaw = dateRaw;
    const date = reviewDateOf(dateRaw);
    if (date !== undefined) review.date = date;
    const country = reviewCountryOf(dateRaw);
    if (country !== undefined) review.country = country;
  }
  const helpful = draft.helpfulText === undefined ? undefined : helpfulVotesOf(draft.helpfulText);
  if (helpful !== undefined) review.helpfulVotes = helpful;
  const variant = cleanValue(draft.variantText?.replace(/^\|\s*|\s*\|$/g, ''));
  if (variant !== undefined) review.variant = variant;
  const images = [...new Set(draft.images.map((src) => fullSizeImage(src, origin)).filter((url) => url !== undefined))];
  if (images.length > 0) review.images = images;
  const authorName = cleanValue(draft.authorName);
  if (authorName !== undefined) review.authorName = authorName;
  const profileId = draft.profileHref === undefined ? undefined : PROFILE_ID.exec(draft.profileHref)?.[1];
  if (profileId !== undefined) review.authorProfileId = profileId;
  for (const field of REVIEW_FIELDS) if (review[field] === undefined) review.missingFields.push(field);
  return review;
}

function ratingOf(draft: ReviewDraft): number | undefined {
  const stars = draft.starClass ?? (draft.starText === undefined ? undefined : parseRating(draft.starText));
  return stars !== undefined && Number.isInteger(stars) && stars >= 1 && stars <= 5 ? stars : undefined;
}

/** The body's lines, each spacing collapsed, without code or an expander's prompt. */
function bodyOf(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const lines = decodeLeftoverReferences(text)
    .split('\n')
    .map(normalizeSpace)
    .filter((line) => line !== '' && !isCode(line) && !EXPANDER_PROMPT.test(line));
  return lines.length === 0 ? undefined : lines.join('\n');
}

function fullSizeImage(src: string, origin: string): string | undefined {
  if (src.startsWith('data:')) return undefined;
  const url = absoluteUrl(src, origin);
  return url?.replace(IMAGE_MODIFIER, '$1');
}
