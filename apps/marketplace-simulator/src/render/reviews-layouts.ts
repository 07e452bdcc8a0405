import type { MarketplaceDomain } from '@crawl/marketplace';
import type { CatalogProduct } from '../catalog.ts';
import { formatCount } from '../money.ts';
import { reviewContent, type SimReview } from '../reviews-catalog.ts';
import { esc, imageUrl } from './html.ts';
import type { ReviewTexts } from './reviews-texts.ts';

/**
 * The review list's card markup: `classic` (the list of 2019–2023: `div` cards, the stars inside the
 * title's link, a linked format strip, thumbnails with `src`) and `cards` (2024 on: `li` cards in a
 * list, a profile avatar, the stars beside a plain title, a format strip without a link, lazy
 * thumbnails with `data-src`).
 */
export type ReviewsLayout = 'classic' | 'cards';
export const REVIEWS_LAYOUTS: readonly ReviewsLayout[] = ['classic', 'cards'];

export interface ReviewCardContext {
  product: CatalogProduct;
  domain: MarketplaceDomain;
  texts: ReviewTexts;
  /** The date line's country words. */
  country: string;
  /** Where the card sits: the review list, or the product page's top reviews. */
  on: 'list' | 'product';
}

function profile(review: ReturnType<typeof reviewContent>, avatar: boolean): string {
  const name = `<div class="a-profile-content"><span class="a-profile-name">${esc(review.authorName)}</span></div>`;
  const picture = avatar
    ? '<div aria-hidden="true" class="a-profile-avatar-wrapper"><div class="a-profile-avatar"><img src="https://m.media-amazon.com/images/S/amazon-avatars-global/default.png" class="" alt=""></div></div>'
    : '';
  if (review.profileId === undefined) return `<div class="a-profile" data-a-size="small">${picture}${name}</div>`;
  return `<a href="/gp/profile/${review.profileId}/ref=cm_cr_arp_d_gw_btm?ie=UTF8" class="a-profile" data-a-size="small">${picture}${name}</a>`;
}

function stars(review: SimReview, texts: ReviewTexts, hook: string): string {
  return `<i data-hook="${hook}" class="a-icon a-icon-star a-star-${review.stars} review-rating"><span class="a-icon-alt">${esc(texts.outOf5(review.stars))}</span></i>`;
}

function formatStrip(content: ReturnType<typeof reviewContent>, texts: ReviewTexts, linked: boolean): string {
  if (!content.variant) return '';
  const text = content.variant
    .map(([dimension, value]) => `${esc(texts.dimension[dimension as 'colour'])}: ${esc(value)}`)
    .join('<i class="a-icon a-icon-text-separator" role="img" aria-label="Text separator"></i>');
  return linked
    ? `<a data-hook="format-strip" class="a-size-mini a-link-normal a-color-secondary" href="/product-reviews/B0/ref=cm_cr_arp_d_fmt?formatType=current_format">${text}</a>`
    : `<span data-hook="format-strip-linkless" class="a-size-mini a-color-secondary">${text}</span>`;
}

function images(content: ReturnType<typeof reviewContent>, lazy: boolean): string {
  if (content.imageIds.length === 0) return '';
  const tiles = content.imageIds
    .map((id) =>
      lazy
        ? `<img alt="Customer image" src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7" data-src="${imageUrl(id, '_SY88')}" data-hook="review-image-tile" class="review-image-tile">`
        : `<img alt="Customer image" src="${imageUrl(id, '_SY88')}" data-hook="review-image-tile" class="review-image-tile">`,
    )
    .join('');
  return `<div class="review-image-tile-section">${tiles}</div>`;
}

function helpful(review: SimReview, context: ReviewCardContext): string {
  if (review.helpfulVotes === 0) return '';
  return `<span data-hook="helpful-vote-statement" class="a-size-base a-color-tertiary cr-vote-text">${esc(context.texts.helpful(review.helpfulVotes, formatCount(review.helpfulVotes, context.domain)))}</span>`;
}

function body(content: ReturnType<typeof reviewContent>): string {
  return content.body.map(esc).join('<br>');
}

/** One review in the list's markup of `layout` (the product page uses the classic card). */
export function reviewCard(review: SimReview, context: ReviewCardContext, layout: ReviewsLayout): string {
  const content = reviewContent(context.product, review);
  const { texts } = context;
  const date = `<span data-hook="review-date" class="a-size-base a-color-secondary review-date">${esc(texts.reviewedIn(context.country, texts.date(review.date)))}</span>`;
  const verified = review.verified
    ? `<span data-hook="${context.on === 'product' ? 'avp-badge-linkless' : 'avp-badge'}" class="a-size-mini a-color-state a-text-bold">${esc(texts.verified)}</span>`
    : '';
  if (layout === 'cards') {
    return `<li id="${review.id}" data-hook="review" class="review aok-relative"><div class="a-section celwidget" id="customer_review-${review.id}">
<div data-hook="genome-widget" class="a-row a-spacing-mini">${profile(content, true)}</div>
<div class="a-row">${stars(review, texts, 'review-star-rating')}<span class="a-letter-space"></span><a data-hook="review-title" class="a-size-base a-link-normal review-title a-color-base review-title-content a-text-bold" href="/gp/customer-reviews/${review.id}/ref=cm_cr_arp_d_rvw_ttl?ie=UTF8"><span>${esc(content.title)}</span></a></div>
${date}
<div class="a-row a-spacing-mini review-data review-format-strip">${formatStrip(content, texts, false)}${verified}</div>
<div class="a-row a-spacing-small review-data"><span data-hook="review-body" class="a-size-base review-text review-text-content"><span>${body(content)}</span></span></div>
${images(content, true)}
<div class="a-row review-comments cr-vote-action-bar">${helpful(review, context)}<span class="a-button a-button-base"><a class="a-button-text" role="button">Helpful</a></span></div>
</div></li>`;
  }
  return `<div id="${review.id}" data-hook="review" class="a-section review aok-relative"><div id="customer_review-${review.id}" class="a-section celwidget">
<div data-hook="genome-widget" class="a-row a-spacing-mini">${profile(content, false)}</div>
<div class="a-row"><a data-hook="review-title" class="a-size-base a-link-normal review-title a-color-base review-title-content a-text-bold" href="/gp/customer-reviews/${review.id}/ref=cm_cr_arp_d_rvw_ttl?ie=UTF8">${stars(review, texts, 'review-star-rating')}<span class="a-letter-space"></span><span>${esc(content.title)}</span></a></div>
${date}
<div class="a-row a-spacing-mini review-data review-format-strip">${formatStrip(content, texts, true)}<i class="a-icon a-icon-text-separator" role="img" aria-label="Text separator"></i>${verified}</div>
<div class="a-row a-spacing-small review-data"><span data-hook="review-body" class="a-size-base review-text review-text-content"><span>${body(content)}</span><div class="a-expander-prompt">Read more</div></span></div>
${images(content, false)}
<div class="a-row a-spacing-small">${helpful(review, context)}</div>
<script>P.when("cr-A").execute(function(A){A.declarative("cr-vote","click",{});});</script>
</div></div>`;
}
