import type { EndTag, StartTag } from 'parse5-sax-parser';
import { isChrome } from '../html/chrome.ts';
import { ElementStack } from '../html/element-stack.ts';
import { pageText } from '../html/page-text.ts';
import type { RegionAnchors } from '../html/region-starts.ts';
import { scanRegions } from '../html/sax-scanner.ts';
import { attr, hasClass, normalizeSpace } from '../html/tags.ts';
import { TextCaptures } from '../html/text-captures.ts';
import { assembleReview } from './assemble-review.ts';
import { newReviewDraft, type ReviewDraft, reviewIdOfElement, reviewIdOfLink } from './review-draft.ts';
import { reviewTotalsOf } from './review-texts.ts';
import type { ParseReviewsPageOptions, Review, ReviewsPage, ReviewsPageKind } from './types.ts';

// The review list's own frame, and its filter line with the totals: what makes a page the list.
const LIST_IDS = ['cm_cr-review_list'];
const FILTER_INFO = 'cr-filter-info-review-rating-count';
// A product page: its title, and the reviews block whose top reviews stand in for a walled list.
const PRODUCT_IDS = ['productTitle', 'cm-cr-dp-review-list', 'cm-cr-global-review-list', 'reviewsMedley'];
const STAR_HOOKS = new Set(['review-star-rating', 'cmps-review-star-rating']);

/**
 * The elements the parser reads (each with what is inside it): the list and product frames, review
 * cards, the totals, the pagination's next item and a sign-in form.
 */
const REVIEWS_ANCHORS: RegionAnchors = {
  ids: new Set([...LIST_IDS, ...PRODUCT_IDS, 'ap_login_form']),
  needles: [
    { text: 'data-hook="review"' },
    { text: FILTER_INFO, accept: (startTag) => startTag.includes(`data-hook="${FILTER_INFO}"`) },
    { text: 'total-review-count', accept: (startTag) => startTag.includes('data-hook="total-review-count"') },
    { text: 'a-last', accept: (startTag) => /^<li\s/i.test(startTag) },
    { text: 'name="signIn"', accept: (startTag) => /^<form\s/i.test(startTag) },
    { text: '/ap/signin', accept: (startTag) => /^<form\s/i.test(startTag) },
  ],
};

/**
 * Reads a product's review list (`/product-reviews/<ASIN>`), or a product page's top reviews, in one
 * streaming pass, and says what the page is: the list, a product page, the sign-in form the
 * storefront sends instead of the list, or another page. See docs/marketplace.md.
 */
export function parseReviewsPage(html: string | Uint8Array, options: ParseReviewsPageOptions): ReviewsPage {
  const text = pageText(html);
  const stack = new ElementStack();
  const captures = new TextCaptures();
  const drafts: ReviewDraft[] = [];
  let draft: ReviewDraft | undefined;
  // Inside a card's star icon: its text is the rating, never part of the title around it.
  let starParts: string[] | undefined;
  let listFrame = false;
  let productFrame = false;
  let filterText: string | undefined;
  let ratingsText: string | undefined;
  let hasNextPage = false;
  let signInForm = 0;
  let signInEmail = false;

  const capture = (set: (text: string) => void, raw = false): void => {
    const parts = captures.begin();
    stack.onClose(() => {
      const value = captures.end(parts);
      set(raw ? value : normalizeSpace(value));
    });
  };

  const outsideCard = (tag: StartTag, cls: string | undefined): void => {
    const id = attr(tag, 'id');
    const hook = attr(tag, 'data-hook');
    if (hook === 'review') {
      const started = newReviewDraft(reviewIdOfElement(id));
      draft = started;
      stack.onClose(() => {
        drafts.push(started);
        draft = undefined;
        starParts = undefined;
      });
      return;
    }
    if (id !== undefined) {
      if (LIST_IDS.includes(id)) listFrame = true;
      else if (PRODUCT_IDS.includes(id)) productFrame = true;
    }
    if (hook === FILTER_INFO) {
      listFrame = true;
      capture((value) => (filterText ??= value || undefined));
      return;
    }
    if (hook === 'total-review-count') {
      capture((value) => (ratingsText ??= value || undefined));
      return;
    }
    if (tag.tagName === 'li' && hasClass(cls, 'a-last') && !hasClass(cls, 'a-disabled')) {
      hasNextPage = true;
      return;
    }
    if (tag.tagName === 'form' && isSignInForm(tag)) {
      signInForm++;
      stack.onClose(() => signInForm--);
      return;
    }
    if (signInForm > 0 && tag.tagName === 'input') {
      const name = attr(tag, 'name') ?? '';
      if (name === 'email' || (attr(tag, 'id') ?? '').startsWith('ap_email')) signInEmail = true;
    }
  };

  const insideCard = (card: ReviewDraft, tag: StartTag, cls: string | undefined): void => {
    const name = tag.tagName;
    card.reviewId ??= reviewIdOfElement(attr(tag, 'id'));
    const hook = attr(tag, 'data-hook');
    if (name === 'br') {
      captures.text('\n');
      return;
    }
    if (name === 'i' && (STAR_HOOKS.has(hook ?? '') || hasClass(cls, 'review-rating'))) {
      const stars = /\ba-star-([1-5])\b/.exec(cls ?? '');
      if (stars) card.starClass ??= Number(stars[1]);
      const parts: string[] = [];
      starParts = parts;
      stack.onClose(() => {
        starParts = undefined;
        card.starText ??= normalizeSpace(parts.join('')) || undefined;
      });
      return;
    }
    if (name === 'i' && hasClass(cls, 'a-icon-text-separator')) {
      captures.text(' | ');
      return;
    }
    if (name === 'img') {
      if (hasClass(cls, 'review-image-tile') || hook === 'review-image-tile') {
        const src = attr(tag, 'data-src') ?? attr(tag, 'src');
        if (src) card.images.push(src);
      }
      return;
    }
    if (name === 'a') {
      const href = attr(tag, 'href');
      card.reviewId ??= reviewIdOfLink(href);
      if (href?.includes('/profile/')) card.profileHref ??= href;
    }
    switch (hook) {
      case 'review-title':
        capture((value) => (card.titleText ??= value || undefined));
        return;
      case 'review-date':
        capture((value) => (card.dateText ??= value || undefined));
        return;
      case 'review-body':
        capture((value) => (card.bodyText ??= value || undefined), true);
        return;
      case 'helpful-vote-statement':
        capture((value) => (card.helpfulText ??= value || undefined));
        return;
      case 'format-strip':
      case 'format-strip-linkless':
        capture((value) => (card.variantText ??= value || undefined));
        return;
      case 'avp-badge':
      case 'avp-badge-linkless':
        card.verified = true;
        return;
      default:
    }
    if (name === 'span' && hasClass(cls, 'a-profile-name')) capture((value) => (card.authorName ??= value || undefined));
  };

  const handler = {
    startTag(tag: StartTag) {
      stack.open(tag.tagName);
      if (stack.hidden) return;
      const cls = attr(tag, 'class');
      // A translation or original kept hidden beside the one shown, and a video's loader, are no text.
      if (isChrome(cls) || (draft !== undefined && (hasClass(cls, 'aok-hidden') || hasClass(cls, 'video-block')))) {
        stack.hideTop();
        return;
      }
      if (draft === undefined) outsideCard(tag, cls);
      else insideCard(draft, tag, cls);
    },
    endTag(tag: EndTag) {
      stack.close(tag.tagName);
    },
    text(value: string) {
      if (stack.hidden) return;
      if (starParts !== undefined) starParts.push(value);
      else captures.text(value);
    },
  };
  scanRegions(text, REVIEWS_ANCHORS, handler, stack);

  const reviews: Review[] = [];
  const seen = new Set<string>();
  for (const card of drafts) {
    const review = assembleReview(card, options.origin);
    if (review === undefined || seen.has(review.reviewId)) continue;
    seen.add(review.reviewId);
    reviews.push(review);
  }
  const kind = pageKind({ listFrame, productFrame, signIn: signInEmail, reviews: reviews.length });
  const accept = options.accept ?? ['review_list'];
  const page: ReviewsPage = {
    kind,
    recognized: accept.includes(kind),
    signInWall: kind === 'signin',
    reviews,
    hasNextPage: kind === 'review_list' && hasNextPage,
  };
  const totals = { ...(ratingsText === undefined ? {} : reviewTotalsOf(ratingsText)), ...(filterText === undefined ? {} : reviewTotalsOf(filterText)) };
  if (totals.totalRatings !== undefined) page.totalRatings = totals.totalRatings;
  if (totals.totalReviews !== undefined) page.totalReviews = totals.totalReviews;
  return page;
}

function isSignInForm(tag: StartTag): boolean {
  return attr(tag, 'name') === 'signIn' || attr(tag, 'id') === 'ap_login_form' || (attr(tag, 'action') ?? '').includes('/ap/signin');
}

function pageKind(seen: { listFrame: boolean; productFrame: boolean; signIn: boolean; reviews: number }): ReviewsPageKind {
  if (seen.listFrame) return 'review_list';
  if (seen.productFrame) return 'product_page';
  if (seen.signIn) return 'signin';
  return 'other';
}
