import type { MarketplaceDomain } from '@crawl/marketplace';
import { formatCount, formatMoney } from '../money.ts';
import { ratingText, type StorefrontProduct } from '../storefront-view.ts';
import type { CardExtras } from '../search-extras.ts';
import type { Texts } from '../texts.ts';
import { esc, imageUrl, slug } from './html.ts';
import { priceWidget } from './price-widget.ts';

export type SearchLayout = 'classic' | 'grid' | 'legacy';
export const SEARCH_LAYOUTS: readonly SearchLayout[] = ['classic', 'grid', 'legacy'];

export interface SearchCard {
  view: StorefrontProduct;
  sponsored: boolean;
  /** 1-based position on the page. */
  position: number;
  extras: CardExtras;
  /** Shown in a sponsored widget (brand, video) rather than as a result card. */
  placement?: 'video' | 'brand';
}

export interface SearchPageModel {
  domain: MarketplaceDomain;
  texts: Texts;
  keyword: string;
  page: number;
  cards: SearchCard[];
  resultsText?: string;
  hasNextPage: boolean;
  relatedSearches: string[];
}

function productHref(card: SearchCard, keyword: string): string {
  const { asin, title } = card.view.product;
  const path = `/${slug(title)}/dp/${asin}/ref=sr_1_${card.position}`;
  if (card.sponsored) return `/sspa/click?ie=UTF8&spc=MTo${card.position}&url=${encodeURIComponent(`${path}_sspa?keywords=${keyword}`)}`;
  return `${path}?keywords=${encodeURIComponent(keyword)}&qid=1716900000&sr=8-${card.position}`;
}

/** Review counts above 1,000 show abbreviated on the grid (`(12.3K)`); the aria-label keeps the full count. */
function shortCount(count: number, domain: MarketplaceDomain): string {
  return count < 1000 ? formatCount(count, domain) : `${(count / 1000).toFixed(1)}K`;
}

function badges(card: SearchCard, texts: Texts): string {
  return card.extras.badges
    .map((badge) => {
      const label =
        badge === 'amazons_choice'
          ? `<span class="a-badge-text" data-a-badge-color="sx-cloud">${esc(texts.choiceBadge[0])}</span><span class="a-badge-supplementary-text a-text-ellipsis" data-a-badge-color="sx-orange">${esc(texts.choiceBadge[1])}</span>`
          : `<span class="a-badge-text" data-a-badge-color="${badge === 'best_seller' ? 'sx-orange' : 'sx-red-mvt'}">${esc(badge === 'best_seller' ? texts.bestSellerBadge : texts.dealBadge)}</span>`;
      return `<div class="a-section a-spacing-none a-spacing-top-micro"><span class="a-badge" aria-labelledby="${card.view.product.asin}-badge-label" data-a-badge-type="status"><span class="a-badge-label" data-a-badge-color="sx-lightning-deal-red"><span class="a-badge-label-inner a-text-ellipsis">${label}</span></span></span></div>`;
    })
    .join('');
}

function coupon(card: SearchCard, texts: Texts): string {
  const percent = card.extras.couponPercent;
  if (percent === undefined) return '';
  return `<div class="a-row a-size-base"><span class="s-coupon-unclipped"><span class="a-size-base s-highlighted-text-padding aok-inline-block s-coupon-highlight-color">${esc(texts.coupon(percent))}</span></span></div>`;
}

function boughtLine(card: SearchCard, model: SearchPageModel): string {
  const n = card.extras.boughtInPastMonth;
  if (n === undefined) return '';
  return `<div class="a-row a-size-base"><span class="a-size-base a-color-secondary">${esc(model.texts.bought(n, formatCount(n, model.domain)))}</span></div>`;
}

/** The delivery line, with the prime icon when the product has Prime. */
function deliveryRecipe(card: SearchCard, texts: Texts): string {
  const day = card.extras.deliveryDay;
  const prime = card.view.product.prime
    ? `<span aria-label="Amazon Prime" class="a-size-small a-color-base"><i class="a-icon a-icon-prime a-icon-medium" role="img" aria-label="Amazon Prime"></i></span>`
    : '';
  if (day === undefined && !prime) return '';
  return `<div data-cy="delivery-recipe" class="a-section a-spacing-none a-spacing-top-micro"><div class="a-row a-size-base a-color-secondary s-align-children-center">${prime}${day === undefined ? '' : `<span class="a-color-base">${esc(texts.delivery(day))}</span>`}</div></div>`;
}

function classicCard(card: SearchCard, model: SearchPageModel): string {
  const { view, sponsored, position } = card;
  const p = view.product;
  const href = esc(productHref(card, model.keyword));
  const rating = ratingText(view);
  const count = formatCount(p.reviewCount, model.domain);
  return [
    `<div data-asin="${p.asin}" data-index="${position + 1}" data-uuid="${p.asin.toLowerCase()}-${position}" data-component-type="s-search-result" class="sg-col-4-of-24 sg-col-4-of-12 s-result-item s-asin sg-col-4-of-16${sponsored ? ' AdHolder' : ''} sg-col s-widget-spacing-small sg-col-4-of-20" data-component-id="${position + 2}" data-cel-widget="search_result_${position}">`,
    `<div class="sg-col-inner"><div cel_widget_id="MAIN-SEARCH_RESULTS-${position}" class="s-widget-container s-spacing-small s-widget-container-height-small celwidget" data-csa-c-pos="${position}" data-csa-c-item-id="amzn1.asin.1.${p.asin}">`,
    `<div class="puis-card-container s-card-container s-overflow-hidden aok-relative puis-include-content-margin puis s-latency-cf-section puis-card-border"><div class="a-section a-spacing-base">`,
    `<div class="s-product-image-container aok-relative s-text-center s-image-overlay-grey"><span data-component-type="s-product-image" class="rush-component"><a aria-hidden="true" class="a-link-normal s-no-outline" tabindex="-1" href="${href}"><div class="a-section aok-relative s-image-square-aspect"><img class="s-image" src="${imageUrl(p.imageIds[0] as string, '_AC_UY218_')}" alt="${sponsored ? `${esc(model.texts.sponsored)} Ad - ` : ''}${esc(p.title)}" data-image-index="${position}" data-image-load=""></div></a></span></div>`,
    `<div class="a-section a-spacing-small puis-padding-left-small puis-padding-right-small">`,
    badges(card, model.texts),
    sponsored
      ? `<div class="a-row a-spacing-micro"><span class="a-declarative" data-action="a-popover"><a href="javascript:void(0)" role="button" class="puis-label-popover puis-sponsored-label-text"><span class="puis-label-popover-default"><span class="a-color-secondary">${esc(model.texts.sponsored)}</span></span></a></span></div>`
      : '',
    `<div data-cy="title-recipe" class="a-section a-spacing-none a-spacing-top-small s-title-instructions-style"><h2 class="a-size-mini a-spacing-none a-color-base s-line-clamp-2"><a class="a-link-normal s-underline-text s-underline-link-text s-link-style a-text-normal" href="${href}"><span class="a-size-medium a-color-base a-text-normal">${esc(p.title)}</span></a></h2></div>`,
    rating
      ? `<div data-cy="reviews-block" class="a-section a-spacing-none a-spacing-top-micro"><div class="a-row a-size-small"><span aria-label="${esc(rating)}"><span class="a-declarative" data-action="a-popover"><a href="javascript:void(0)" role="button" class="a-popover-trigger a-declarative"><i class="a-icon a-icon-star-small a-star-small-4-5 aok-align-bottom"><span class="a-icon-alt">${esc(rating)}</span></i><i class="a-icon a-icon-popover"></i></a></span></span><span aria-label="${count}"><a class="a-link-normal s-underline-text s-underline-link-text s-link-style" href="${href}#customerReviews"><span class="a-size-base s-underline-text">${count}</span></a></span></div>${boughtLine(card, model)}</div>`
      : reviewsBlockWithout(card, model),
    view.price
      ? `<div data-cy="price-recipe" class="a-section a-spacing-none a-spacing-top-small s-price-instructions-style"><div class="a-row a-size-base a-color-base"><a class="a-size-base a-link-normal s-underline-text a-text-normal" href="${href}">${priceWidget(view.price, model.domain)}${view.listPrice ? ` <div class="a-section aok-inline-block"><span class="a-size-base a-color-secondary">List: </span>${priceWidget(view.listPrice, model.domain, { classes: 'a-text-price', size: 'b', strike: true, plain: true })}</div>` : ''}</a></div></div>`
      : '',
    coupon(card, model.texts),
    deliveryRecipe(card, model.texts),
    `</div></div></div></div></div></div>`,
  ].join('');
}

/** A reviews block holding only the bought-in-past-month line (a product without ratings). */
function reviewsBlockWithout(card: SearchCard, model: SearchPageModel): string {
  const line = boughtLine(card, model);
  return line ? `<div data-cy="reviews-block" class="a-section a-spacing-none a-spacing-top-micro">${line}</div>` : '';
}

function gridCard(card: SearchCard, model: SearchPageModel): string {
  const { view, sponsored, position } = card;
  const p = view.product;
  const href = esc(productHref(card, model.keyword));
  const rating = ratingText(view);
  const ratings = model.texts.ratingsCount(formatCount(p.reviewCount, model.domain));
  return [
    `<div role="listitem" data-asin="${p.asin}" data-index="${position + 1}" class="sg-col-4-of-24 sg-col-4-of-12 s-result-item s-asin sg-col-4-of-16 sg-col s-widget-spacing-small sg-col-4-of-20${sponsored ? ' AdHolder' : ''}" data-cel-widget="search_result_${position}">`,
    `<div class="sg-col-inner"><div class="s-widget-container s-spacing-small celwidget"><span class="a-declarative" data-action="puis-card-container-declarative"><div class="puis-card-container s-card-container s-overflow-hidden aok-relative puis-expand-height puis-include-content-margin puis puis-card-border">`,
    `<div data-cy="asin-faceout-container" class="a-section a-spacing-base a-text-center"><div class="a-section a-spacing-base">`,
    `<div class="s-product-image-container aok-relative s-text-center"><span data-component-type="s-product-image" class="rush-component"><a aria-hidden="true" class="a-link-normal s-no-outline" tabindex="-1" href="${href}"><div class="a-section aok-relative s-image-square-aspect"><img class="s-image" src="${imageUrl(p.imageIds[0] as string, '_AC_UL320_')}" alt="${esc(p.title)}"></div></a></span></div>`,
    `<div class="a-section a-spacing-small puis-padding-left-small puis-padding-right-small">`,
    badges(card, model.texts),
    sponsored
      ? `<div class="a-row a-spacing-micro"><span class="a-declarative"><a href="javascript:void(0)" role="button" class="puis-label-popover puis-sponsored-label-text"><span class="puis-label-popover-default"><span class="a-color-secondary">${esc(model.texts.sponsored)}</span></span></a></span></div>`
      : '',
    `<div data-cy="title-recipe" class="a-section a-spacing-none a-spacing-top-small s-title-instructions-style"><div class="a-row a-color-secondary"><h2 class="a-size-mini s-line-clamp-1"><span class="a-size-base-plus a-color-base">${esc(p.brand)}</span></h2></div><a class="a-link-normal s-line-clamp-4 s-link-style a-text-normal" href="${href}"><h2 aria-label="${sponsored ? `${esc(model.texts.sponsored)} Ad - ` : ''}${esc(p.title)}" class="a-size-base-plus a-spacing-none a-color-base a-text-normal"><span>${esc(p.title)}</span></h2></a></div>`,
    rating
      ? `<div data-cy="reviews-block" class="a-section a-spacing-none a-spacing-top-micro"><div class="a-row a-size-small"><span class="a-declarative"><a aria-label="${esc(rating)}, rating details" href="javascript:void(0)" role="button" class="a-popover-trigger a-declarative"><i data-cy="reviews-ratings-slot" aria-hidden="true" class="a-icon a-icon-star-small a-star-small-4-5"><span class="a-icon-alt">${esc(rating)}</span></i></a></span><a aria-label="${esc(ratings)}" class="a-link-normal s-underline-text s-underline-link-text s-link-style" href="${href}#customerReviews"><span aria-hidden="true" class="a-size-small puis-normal-weight-text s-underline-text">(${shortCount(p.reviewCount, model.domain)})</span></a></div>${boughtLine(card, model)}</div>`
      : reviewsBlockWithout(card, model),
    view.price
      ? `<div data-cy="price-recipe" class="a-section a-spacing-none a-spacing-top-mini"><div class="a-row a-size-base a-color-base"><a class="a-link-normal s-no-hover s-underline-text a-text-normal" href="${href}">${priceWidget(view.price, model.domain, { offscreen: false })}</a>${view.listPrice ? `<div class="a-section aok-inline-block"><span class="a-size-base a-color-secondary">${esc(model.texts.listPriceLabel)} </span>${priceWidget(view.listPrice, model.domain, { classes: 'a-text-price', size: 'b', strike: true, plain: true })}</div>` : ''}</div></div>`
      : '',
    coupon(card, model.texts),
    deliveryRecipe(card, model.texts),
    `</div></div></div></div></span></div></div></div>`,
  ].join('');
}

function legacyCard(card: SearchCard, model: SearchPageModel): string {
  const { view, sponsored, position } = card;
  const p = view.product;
  const href = esc(productHref(card, model.keyword));
  const rating = ratingText(view);
  return [
    `<li id="result_${position - 1}" data-asin="${p.asin}" class="s-result-item s-result-card-for-container a-declarative celwidget${sponsored ? ' AdHolder' : ''}">`,
    `<div class="s-item-container">`,
    sponsored
      ? `<h5 class="a-spacing-none a-color-tertiary s-sponsored-list-header s-sponsored-header sp-pixel-data a-text-normal">${esc(model.texts.sponsored)}</h5>`
      : '',
    badges(card, model.texts),
    `<div class="a-fixed-left-grid"><div class="a-fixed-left-grid-inner" style="padding-left:218px">`,
    `<div class="a-fixed-left-grid-col a-col-left" style="width:218px;margin-left:-218px;float:left;"><div class="a-row"><div aria-hidden="true" class="a-column a-span12 a-text-center"><a class="a-link-normal a-text-normal" href="${href}"><img src="${imageUrl(p.imageIds[0] as string, '_AC_AA160_')}" width="160" height="160" alt="Product Details" class="s-access-image cfMarker"></a></div></div></div>`,
    `<div class="a-fixed-left-grid-col a-col-right" style="padding-left:2%;float:left;">`,
    `<div class="a-row a-spacing-small"><div class="a-row a-spacing-none"><a class="a-link-normal s-access-detail-page a-text-normal" title="${esc(p.title)}" href="${href}"><h2 data-attribute="${esc(p.title)}" data-max-rows="0" class="a-size-medium s-inline s-access-title a-text-normal">${esc(p.title)}</h2></a></div>`,
    `<div class="a-row a-spacing-none"><span class="a-size-small a-color-secondary">by </span><span class="a-size-small a-color-secondary">${esc(p.brand)}</span></div></div>`,
    `<div class="a-row"><div class="a-column a-span7">`,
    view.price
      ? `<div class="a-row a-spacing-none"><a class="a-link-normal a-text-normal" href="${href}"><span class="a-size-base a-color-price s-price a-text-bold">${esc(formatMoney(view.price, model.domain).text)}</span></a>${view.listPrice ? `<span class="a-letter-space"></span><span class="a-size-small a-color-secondary a-text-strike">${esc(formatMoney(view.listPrice, model.domain).text)}</span>` : ''}</div>`
      : '',
    p.prime
      ? `<div class="a-row a-spacing-none"><i class="a-icon a-icon-prime a-icon-small s-align-text-bottom" aria-label="Prime"><span class="a-icon-alt">Prime</span></i></div>`
      : '',
    coupon(card, model.texts),
    boughtLine(card, model),
    `</div><div class="a-column a-span5 a-span-last">`,
    rating
      ? `<div class="a-row a-spacing-mini"><span name="${p.asin}"><span class="a-declarative"><a href="javascript:void(0)" class="a-popover-trigger a-declarative"><i class="a-icon a-icon-star a-star-4-5"><span class="a-icon-alt">${esc(rating)}</span></i><i class="a-icon a-icon-popover"></i></a></span></span><a class="a-size-small a-link-normal a-text-normal" href="${href}#customerReviews">${formatCount(p.reviewCount, model.domain)}</a></div>`
      : '',
    `</div></div></div></div></div></div></li>`,
  ].join('');
}

function resultInfoBar(model: SearchPageModel, layout: SearchLayout): string {
  if (!model.resultsText) return '';
  const keyword = `<span class="a-color-state a-text-bold">"${esc(model.keyword)}"</span>`;
  if (layout === 'legacy') {
    return `<div id="s-result-info-bar" class="a-row a-spacing-base a-spacing-top-small"><div class="a-column a-span8 a-spacing-none"><h2 id="s-result-count" class="a-size-base a-spacing-small a-spacing-top-small a-text-normal">${esc(model.resultsText)} <span>${keyword}</span></h2></div></div>`;
  }
  return `<span data-component-type="s-result-info-bar" class="rush-component"><div class="a-section a-spacing-none s-result-info-bar-content"><h1 class="a-size-base s-desktop-toolbar a-text-normal"><div class="sg-col-inner"><div class="a-section a-spacing-small a-spacing-top-small"><span>${esc(model.resultsText)}</span><span> </span>${keyword}</div></div></h1></div></span>`;
}

function pagination(model: SearchPageModel, layout: SearchLayout): string {
  const nextHref = esc(`/s?k=${encodeURIComponent(model.keyword)}&page=${model.page + 1}&qid=1716900000&ref=sr_pg_${model.page}`);
  if (layout === 'legacy') {
    const next = model.hasNextPage
      ? `<a title="Next Page" id="pagnNextLink" class="pagnNext" href="${nextHref}"><span id="pagnNextString">${esc(model.texts.next)}</span></a>`
      : `<span class="pagnRA1"><span id="pagnNextString">${esc(model.texts.next)}</span></span>`;
    return `<div id="centerBelowMinus"><div id="pagn" class="pagnHy"><span class="pagnCur">${model.page}</span><span class="pagnRA">${next}</span></div></div>`;
  }
  const next = model.hasNextPage
    ? `<a href="${nextHref}" aria-label="Go to next page, page ${model.page + 1}" class="s-pagination-item s-pagination-next s-pagination-button s-pagination-separator">${esc(model.texts.next)}</a>`
    : `<span class="s-pagination-item s-pagination-next s-pagination-disabled" aria-disabled="true">${esc(model.texts.next)}</span>`;
  return `<div data-asin="" data-index="99" data-component-type="s-pagination" class="s-result-item s-widget s-widget-spacing-large s-flex-full-width"><div class="sg-col-inner"><span class="s-pagination-strip"><span class="s-pagination-item s-pagination-selected">${model.page}</span>${next}</span></div></div>`;
}

function noResults(model: SearchPageModel): string {
  return `<div data-asin="" data-index="0" data-component-type="s-messaging-widget-results-header" class="s-result-item s-widget s-widget-spacing-large s-flex-full-width"><div class="sg-col-inner"><div class="a-section a-spacing-none s-messaging-widget"><div class="a-row"><span>${esc(model.texts.noResults)} </span><span class="a-color-state a-text-bold">${esc(model.keyword)}</span><span>.</span></div></div></div></div>`;
}

function widgetProduct(card: SearchCard, model: SearchPageModel, className: string): string {
  const { view } = card;
  const p = view.product;
  const href = esc(productHref(card, model.keyword));
  const image = card.placement === 'brand' ? `<img class="s-image" src="${imageUrl(p.imageIds[0] as string, '_AC_SR160_')}" alt="">` : '';
  const price = view.price ? priceWidget(view.price, model.domain) : '';
  return `<div data-asin="${p.asin}" class="a-section ${className}"><a class="a-link-normal" href="${href}">${image}<h2 class="a-size-base"><span>${esc(p.title)}</span></h2></a>${price}</div>`;
}

/** The sponsored brand banner above the results: a headline and a few of the brand's products. */
function brandWidget(cards: SearchCard[], model: SearchPageModel): string {
  if (cards.length === 0) return '';
  const brand = cards[0]?.view.product.brand ?? '';
  return `<div data-asin="" data-component-type="s-sponsored-brand" class="s-widget s-flex-full-width"><div class="sg-col-inner"><div class="a-section s-sb-header"><span class="a-size-medium">${esc(brand)}</span><span class="a-color-secondary">${esc(model.texts.sponsored)}</span></div><div class="a-row">${cards.map((card) => widgetProduct(card, model, 'sb-product-card')).join('')}</div></div></div>`;
}

/** A sponsored video among the results, with the product it advertises. */
function videoWidget(card: SearchCard, model: SearchPageModel, layout: SearchLayout): string {
  const tag = layout === 'legacy' ? 'li' : 'div';
  return `<${tag} data-asin="" data-component-type="sbv-video-single-product" class="s-result-item s-widget s-flex-full-width"><div class="sg-col-inner"><div class="a-section sbv-video"><video class="sbv-video-element" preload="none" src="https://m.media-amazon.com/images/S/vse-vms-transcoding-artifact-us-east-1-prod/${card.view.product.asin.toLowerCase()}.mp4"></video>${widgetProduct(card, model, 'sbv-product')}</div></div></${tag}>`;
}

function relatedSearches(model: SearchPageModel): string {
  if (model.relatedSearches.length === 0) return '';
  const links = model.relatedSearches
    .map(
      (text) =>
        `<a class="a-link-normal s-underline-text" href="${esc(`/s?k=${encodeURIComponent(text)}&ref=sugsr_${model.page}`)}"><span class="a-size-base">${esc(text)}</span></a>`,
    )
    .join('');
  return `<div data-asin="" data-component-type="s-related-searches" class="s-widget"><div class="a-section"><span class="a-size-medium-plus a-text-bold">${esc(model.texts.relatedSearches)}</span><div class="a-row">${links}</div></div></div>`;
}

/** The results area of a search page in one of the three layouts the parser supports. */
export function searchContent(model: SearchPageModel, layout: SearchLayout): string {
  const cards = model.cards
    .filter((card) => card.placement !== 'brand')
    .map((card) =>
      card.placement === 'video'
        ? videoWidget(card, model, layout)
        : layout === 'classic'
          ? classicCard(card, model)
          : layout === 'grid'
            ? gridCard(card, model)
            : legacyCard(card, model),
    );
  const brand = brandWidget(
    model.cards.filter((card) => card.placement === 'brand'),
    model,
  );
  const list =
    layout === 'legacy'
      ? `<div id="searchTemplate" class="searchTemplate listLayout"><div id="resultsCol"><div id="atfResults" class="a-row s-result-list-parent-container"><ul id="s-results-list-atf" class="s-result-list s-col-1 s-list-view">${cards.join('\n')}</ul></div>${relatedSearches(model)}${pagination(model, layout)}</div></div>`
      : `<div class="s-main-slot s-result-list s-search-results sg-row">${model.cards.length === 0 ? noResults(model) : ''}${cards.join('\n')}${relatedSearches(model)}${pagination(model, layout)}</div>`;
  return `<div class="s-desktop-width-max s-desktop-content s-wide-grid-style sg-row">${resultInfoBar(model, layout)}${brand}${list}</div>`;
}
