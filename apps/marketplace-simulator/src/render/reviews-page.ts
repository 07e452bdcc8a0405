import type { MarketplaceDomain } from '@crawl/marketplace';
import type { CatalogProduct } from '../catalog.ts';
import { deliveryLocation } from '../delivery-location.ts';
import { SEEDED_MARKET, type Market } from '../market.ts';
import { formatCount } from '../money.ts';
import { type ReviewListing, type ReviewQuery, reviewListing, topReviews } from '../reviews-catalog.ts';
import { hashString } from '../rng.ts';
import { textsFor } from '../texts.ts';
import { esc, slug } from './html.ts';
import { pageShell, type PageSize } from './page-shell.ts';
import { type ReviewCardContext, type ReviewsLayout, REVIEWS_LAYOUTS, reviewCard } from './reviews-layouts.ts';
import { reviewCountry, reviewTextsFor } from './reviews-texts.ts';

export interface RenderReviewsOptions {
  asin: string;
  query: ReviewQuery;
  page: number;
  domain?: MarketplaceDomain;
  layout?: ReviewsLayout;
  size?: PageSize;
  language?: string;
  deliveryZip?: string;
  market?: Market;
}

export interface RenderedReviewsPage {
  html: string;
  layout: ReviewsLayout;
  listing: ReviewListing;
}

/** The layout of a product's review list when `?layout=` names none: always the same per ASIN. */
export function reviewsLayoutFor(asin: string): ReviewsLayout {
  return REVIEWS_LAYOUTS[hashString(`reviews\u0000${asin}`) % REVIEWS_LAYOUTS.length] as ReviewsLayout;
}

function cardContext(product: CatalogProduct, domain: MarketplaceDomain, language: string, on: 'list' | 'product'): ReviewCardContext {
  return { product, domain, texts: reviewTextsFor(domain, language), country: reviewCountry(domain, language).lineText, on };
}

/** A product's review list page (`/product-reviews/<ASIN>`), or undefined for an unknown ASIN. */
export function renderReviewsPage(options: RenderReviewsOptions): RenderedReviewsPage | undefined {
  const product = (options.market ?? SEEDED_MARKET).product(options.asin);
  if (!product) return undefined;
  const domain = options.domain ?? 'amazon.com';
  const layout = options.layout ?? reviewsLayoutFor(product.asin);
  const texts = textsFor(domain, options.language);
  const context = cardContext(product, domain, texts.language, 'list');
  const listing = reviewListing(product, options.query, options.page);
  const count = (n: number): string => formatCount(n, domain);
  const cards = listing.reviews.map((review) => reviewCard(review, context, layout)).join('\n');
  const list = layout === 'cards' ? `<ul class="a-unordered-list a-nostyle a-vertical">${cards}</ul>` : cards;
  const base = `/product-reviews/${product.asin}/ref=cm_cr_arp_d_paging_btm_next_${options.page + 1}?ie=UTF8&amp;reviewerType=${options.query.verifiedOnly ? 'avp_only_reviews' : 'all_reviews'}&amp;filterByStar=${options.query.filter}&amp;sortBy=${options.query.sort}`;
  const next = listing.hasNextPage
    ? `<li class="a-last"><a href="${base}&amp;pageNumber=${options.page + 1}">${esc(context.texts.nextPage)}<span class="a-letter-space"></span>→</a></li>`
    : `<li class="a-disabled a-last">${esc(context.texts.nextPage)}<span class="a-letter-space"></span>→</li>`;
  const previous =
    options.page > 1
      ? `<li><a href="${base}&amp;pageNumber=${options.page - 1}">← ${esc(context.texts.previousPage)}</a></li>`
      : `<li class="a-disabled">← ${esc(context.texts.previousPage)}</li>`;
  const rating =
    product.rating === undefined
      ? ''
      : `<i data-hook="average-star-rating" class="a-icon a-icon-star a-star-4-5"><span class="a-icon-alt">${esc(texts.rating(product.rating.toFixed(1).replace('.', texts.decimal)))}</span></i>`;
  const content = `<div id="cm_cr-product_info" class="a-section a-spacing-none"><a data-hook="product-link" class="a-link-normal" href="/${slug(product.title)}/dp/${product.asin}/ref=cm_cr_arp_d_product_top?ie=UTF8">${esc(product.title)}</a>
${rating}<div data-hook="total-review-count" class="a-row a-spacing-medium averageStarRatingNumerical"><span class="a-size-base a-color-secondary">${esc(context.texts.globalRatings(count(product.reviewCount)))}</span></div></div>
<div id="filter-info-section" class="a-row a-spacing-base"><div data-hook="cr-filter-info-review-rating-count" class="a-row a-spacing-base a-size-base">${esc(context.texts.totals(count(listing.totalRatings), count(listing.totalReviews)))}</div></div>
<div id="cm_cr-review_list" class="a-section a-spacing-none review-views celwidget">
${cards === '' ? '<div class="a-section a-spacing-top-large a-text-center no-reviews-section"><span class="a-size-medium">No customer reviews</span></div>' : list}
<div class="a-form-actions a-spacing-top-extra-large" id="cm_cr-pagination_bar"><span class="a-declarative"><ul class="a-pagination">${previous}${next}</ul></span></div>
</div>`;
  const html = pageShell(
    {
      domain,
      texts,
      title: `Amazon.${domain.slice(7)}: Customer reviews: ${product.title}`,
      size: options.size ?? 'full',
      variant: hashString(`${product.asin}\u0000${options.page}`),
      bodyClass: 'cr',
      deliverTo: deliveryLocation(domain, options.deliveryZip),
      locationChosen: options.deliveryZip !== undefined,
    },
    content,
  );
  return { html, layout, listing };
}

/**
 * The product page's "Top reviews" block (`#cm-cr-dp-review-list`): the most helpful reviews of the
 * product, the same reviews the list shows, in the classic card. Empty for a product without any.
 */
export function topReviewsBlock(product: CatalogProduct, domain: MarketplaceDomain, language: string): string {
  const reviews = topReviews(product);
  if (reviews.length === 0) return '';
  const context = cardContext(product, domain, language, 'product');
  const cards = reviews.map((review) => reviewCard(review, context, 'classic')).join('\n');
  const count = `<span data-hook="total-review-count" class="a-size-base a-color-secondary">${esc(context.texts.globalRatings(formatCount(product.reviewCount, domain)))}</span>`;
  return `<div id="reviewsMedley" class="a-row">${count}<h3 data-hook="dp-local-reviews-header">${esc(context.texts.topReviews)}</h3><div id="cm-cr-dp-review-list" class="a-section review-views celwidget">${cards}</div></div>`;
}
