import type { MarketplaceDomain } from '@crawl/marketplace';
import { formatCount, formatMoney } from '../money.ts';
import { ratingText, type StorefrontProduct } from '../storefront-view.ts';
import { esc, imageUrl } from './html.ts';
import type { ProductBadge } from '../catalog.ts';
import { bookContent } from './book-layout.ts';
import { sellerIdOf } from '../seller-ids.ts';
import { priceWidget } from './price-widget.ts';

export type ProductLayout = 'desktop' | 'apex' | 'mobile' | 'facts';
export const PRODUCT_LAYOUTS: readonly ProductLayout[] = ['desktop', 'apex', 'mobile', 'facts'];

export function breadcrumbs(view: StorefrontProduct): string {
  const [top, sub] = view.categories;
  return `<div id="wayfinding-breadcrumbs_feature_div" class="celwidget" data-feature-name="wayfinding-breadcrumbs"><div id="wayfinding-breadcrumbs_container" class="a-section a-spacing-none a-padding-medium"><ul class="a-unordered-list a-horizontal a-size-small">
<li><span class="a-list-item"><a class="a-link-normal a-color-tertiary" href="/b/ref=dp_bc_aui_C_1?ie=UTF8&amp;node=1001">  ${esc(top)}  </a></span></li>
<li class="a-breadcrumb-divider"><span class="a-list-item a-color-tertiary">›</span></li>
<li><span class="a-list-item"><a class="a-link-normal a-color-tertiary" href="/b/ref=dp_bc_aui_C_2?ie=UTF8&amp;node=1002">  ${esc(sub)}  </a></span></li></ul></div></div>`;
}

export function desktopImages(view: StorefrontProduct, withHires: boolean): string {
  const ids = view.product.imageIds;
  const thumbs = ids
    .map((id, i) => {
      const selected = i === 0 ? ' a-button-selected a-button-focus' : '';
      return `<li class="a-spacing-small item imageThumbnail a-declarative"><span class="a-list-item"><span class="a-button a-button-thumbnail a-button-toggle${selected}" id="a-autoid-${i + 1}"><span class="a-button-inner"><input class="a-button-input" type="submit"><span class="a-button-text" aria-hidden="true"><img alt="" src="${imageUrl(id, '_AC_US40_')}"></span></span></span></span></li>`;
    })
    .join('');
  const video = `<li class="a-spacing-small item videoThumbnail"><span class="a-list-item"><span class="a-button a-button-thumbnail a-button-toggle"><span class="a-button-inner"><span class="a-button-text"><img alt="" src="https://m.media-amazon.com/images/I/41vid${ids[0]?.slice(4) ?? 'x'}.SX38_SY50_CR,0,0,38,50_PKdp-play-icon-overlay__.jpg"></span></span></span></span></li>`;
  const main = ids[0] as string;
  const dynamic = esc(
    JSON.stringify({ [imageUrl(main, '_AC_SX466_')]: [466, 466], [imageUrl(main, '_AC_SX679_')]: [679, 679], [imageUrl(main, '_AC_SX425_')]: [425, 425] }),
  );
  const hires = withHires ? ` data-old-hires="${imageUrl(main, '_AC_SL1500_')}"` : ' data-old-hires=""';
  return `<div id="imageBlock_feature_div" class="celwidget"><div id="imageBlock" class="a-section imageBlockRearch"><div class="a-fixed-left-grid"><div class="a-fixed-left-grid-inner" style="padding-left:40px">
<div id="altImages" class="a-fixed-left-grid-col a-col-left" style="width:40px;margin-left:-40px;float:left;"><ul class="a-unordered-list a-nostyle a-button-list a-vertical a-spacing-top-extra-large regularAltImageViewLayout">${thumbs}${video}</ul></div>
<div class="a-fixed-left-grid-col a-col-right" style="padding-left:0%;float:left;"><div id="main-image-container" class="a-dynamic-image-container"><ul class="a-unordered-list a-nostyle a-horizontal list maintain-height"><li class="image item itemNo0 maintain-height selected"><span class="a-list-item"><span class="a-declarative"><div id="imgTagWrapperId" class="imgTagWrapper"><img alt="${esc(view.product.title)}" src="${imageUrl(main, '_AC_SX679_')}"${hires} data-a-image-name="landingImage" class="a-dynamic-image a-stretch-horizontal" id="landingImage" data-a-dynamic-image="${dynamic}" style="max-width:679px;max-height:679px;"></div></span></span></li></ul></div></div>
</div></div></div></div>`;
}

export function reviewsSummary(view: StorefrontProduct, domain: MarketplaceDomain): string {
  const rating = ratingText(view);
  if (!rating) return '';
  const count = view.texts.ratingsCount(formatCount(view.product.reviewCount, domain));
  return `<div id="averageCustomerReviews_feature_div" class="celwidget"><div id="averageCustomerReviews" class="a-spacing-none" data-asin="${view.product.asin}"><span class="a-declarative" data-action="acrStarsLink-click-metrics"><span id="acrPopover" class="reviewCountTextLinkedHistogram noUnderline" title="${esc(rating)}"><span class="a-declarative" data-action="a-popover"><a href="javascript:void(0)" role="button" class="a-popover-trigger a-declarative"><span class="a-size-base a-color-base"> ${view.product.rating?.toFixed(1).replace('.', view.texts.decimal)} </span><i class="a-icon a-icon-star a-star-4-5"><span class="a-icon-alt">${esc(rating)}</span></i></a></span></span></span><span class="a-letter-space"></span><span class="a-declarative"><a id="acrCustomerReviewLink" class="a-link-normal" href="#averageCustomerReviewsAnchor"><span id="acrCustomerReviewText" class="a-size-base">${esc(count)}</span></a></span></div></div>`;
}

/** Star shares (percent, 5★ first) that sum to 100 and lean towards the product's rating. */
export function starShares(rating: number): [number, number, number, number, number] {
  const five = Math.max(5, Math.min(90, Math.round((rating - 3) * 40 + 15)));
  const four = Math.max(1, Math.round((100 - five) * 0.5));
  const three = Math.max(1, Math.round((100 - five - four) * 0.5));
  const two = Math.max(1, Math.round((100 - five - four - three) * 0.5));
  return [five, four, three, two, 100 - five - four - three - two];
}

const STAR_FILTERS = ['', 'one', 'two', 'three', 'four', 'five'];

/**
 * The review histogram: a table on desktop and apex pages, a list on mobile, and on the newer
 * layout the list whose every row repeats all five star names (its label pairs the star with the
 * share, its link filters the reviews by star, its meter only draws the share).
 */
export function histogram(view: StorefrontProduct, form: 'table' | 'list' | 'labelled-list'): string {
  const rating = view.product.rating;
  if (rating === undefined) return '';
  const shares = starShares(rating);
  const percent = (n: number): string => (view.texts.language === 'en' || view.texts.language === 'ja' ? `${n}%` : `${n}\u00a0%`);
  if (form === 'labelled-list') {
    const names = [5, 4, 3, 2, 1].map((n) => `<span class="a-size-base">${esc(view.texts.starName(n))}</span>`).join('');
    const rows = shares
      .map((share, i) => {
        const stars = 5 - i;
        return `<li class="a-align-center"><span class="a-list-item"><a aria-label="${esc(view.texts.histogramLabel(share, stars))}" class="a-link-normal histogram-row" href="/product-reviews/${view.product.asin}/ref=cm_cr_dp_d_hist_${stars}?filterByStar=${STAR_FILTERS[stars]}_star&amp;reviewerType=all_reviews" role="link"><div class="a-section a-spacing-none a-text-left aok-nowrap histogram-names">${names}</div><div class="a-section a-spacing-none histogram-meter"><div class="a-meter" role="progressbar"><div class="a-meter-bar a-meter-filled" style="width: ${share}%;"></div></div></div><div class="a-section a-spacing-none a-text-right aok-nowrap"><span class="histogram-share">${percent(share)}</span></div></a></span></li>`;
      })
      .join('');
    return `<div id="cm_cr_dp_d_rating_histogram" class="a-section"><ul id="histogramTable" class="a-unordered-list a-nostyle a-vertical a-spacing-base">${rows}</ul></div>`;
  }
  if (form === 'table') {
    const rows = shares
      .map((share, i) => {
        const stars = 5 - i;
        return `<tr class="a-histogram-row a-align-center"><td class="aok-nowrap"><a class="a-link-normal ${stars}star" href="/product-reviews/${view.product.asin}/ref=acr_dp_hist_${stars}">${stars}</a></td><td class="a-span10"><div class="a-meter" role="progressbar" aria-valuenow="${share}%"><div class="a-meter-bar" style="width: ${share}%;"></div></div></td><td class="a-text-right"><a class="a-link-normal ${stars}star" href="#">${percent(share)}</a></td></tr>`;
      })
      .join('');
    return `<div id="cm_cr_dp_d_rating_histogram" class="a-section"><table id="histogramTable" class="a-normal a-align-center a-spacing-base" role="presentation"><tbody>${rows}</tbody></table></div>`;
  }
  const items = shares
    .map(
      (share, i) =>
        `<li><span class="a-list-item"><a class="a-link-normal ${5 - i}star" href="#"><div class="a-section aok-nowrap">${5 - i}</div><div class="a-section a-text-right aok-nowrap">${percent(share)}</div></a></span></li>`,
    )
    .join('');
  return `<div id="cm_cr_dp_m_rating_histogram"><ul id="histogramTable" class="a-unordered-list a-nostyle a-vertical histogram">${items}</ul></div>`;
}

const BADGE_BLOCKS: readonly [string, ProductBadge][] = [
  ['acBadge_feature_div', 'amazons_choice'],
  ['zeitgeistBadge_feature_div', 'best_seller'],
  ['climatePledgeFriendlyBadge_feature_div', 'climate_pledge_friendly'],
  ['smallBusinessBadge_feature_div', 'small_business'],
];

/** The badge blocks: on every page, empty unless the product has the badge. */
export function badgeBlocks(view: StorefrontProduct): string {
  const texts = view.texts;
  const label: Record<ProductBadge, string> = {
    amazons_choice: `<div class="ac-badge-wrapper"><span class="ac-badge-rectangle"><span class="ac-badge-text-primary">${esc(texts.choiceBadge.join(''))}</span></span></div>`,
    best_seller: `<a class="badge-link" href="/gp/bestsellers/"><i class="a-icon a-icon-addon p13n-best-seller-badge">${esc(`#1 ${texts.bestSellerBadge}`)}</i></a>`,
    climate_pledge_friendly: '<span class="a-size-small">Climate Pledge Friendly</span>',
    small_business: '<span class="a-size-small">Small Business</span>',
  };
  // An empty block still carries the loader's one line that fills it, as on the storefront.
  const loader = (id: string) => `<script type="text/javascript">P.when('A', 'ready').execute(function(A){ A.trigger('${id}:rendered'); });</script>`;
  return BADGE_BLOCKS.map(([id, badge]) => `<div id="${id}">${view.product.badges.includes(badge) ? label[badge] : loader(id)}</div>`).join('');
}

/** The deal badge by the price and the coupon checkbox under it. */
export function dealAndCoupon(view: StorefrontProduct): string {
  const p = view.product;
  const deal = p.deal
    ? `<div id="dealBadge_feature_div"><span class="a-size-small dealBadge"><span class="a-size-small dealBadgeTextColor">${esc(view.texts.dealBadge)}</span></span></div>`
    : '<div id="dealBadge_feature_div"></div>';
  const coupon =
    p.couponPercent === undefined
      ? ''
      : `<div id="promoPriceBlockMessage_feature_div"><div class="a-section"><span class="a-color-success"><span class="a-checkbox"><input type="checkbox" id="checkbox${p.asin}"><label id="couponText${p.asin}" for="checkbox${p.asin}"> ${esc(view.texts.applyCoupon(p.couponPercent))} </label></span></span> <a href="#">Terms</a></div></div>`;
  return deal + coupon;
}

function featureBullets(view: StorefrontProduct, id: string): string {
  const items = view.product.features.map((f) => `<li><span class="a-list-item"> ${esc(f)} </span></li>`).join('\n');
  return `<div id="featurebullets_feature_div" class="celwidget"><div id="${id}" class="a-section a-spacing-medium a-spacing-top-small"><h1 class="a-size-base-plus a-text-bold"> ${esc(view.texts.aboutThisItem)} </h1><ul class="a-unordered-list a-vertical a-spacing-mini">
<li class="aok-hidden" id="replacementPartsFitmentBullet"><span class="a-list-item"><span id="replacementPartsFitmentBulletMessage"></span></span></li>
${items}</ul></div></div>`;
}

function classicTwister(view: StorefrontProduct): string {
  const variations = view.product.variations;
  if (variations.length === 0) return '';
  const dimension = view.product.category.variation;
  const items = variations
    .map((v, i) => {
      const selected = v.asin === view.product.asin;
      return `<li id="${dimension}_${i}" data-defaultasin="${v.asin}" data-dp-url="${selected ? '' : `/dp/${v.asin}/ref=twister_${view.product.asin}?_encoding=UTF8&amp;psc=1`}" class="${selected ? 'swatchSelect' : 'swatchAvailable'}" title="${esc(view.texts.clickToSelect(v.value))}"><span class="a-list-item"><span class="a-button${selected ? ' a-button-selected' : ''} a-button-toggle"><span class="a-button-inner"><button class="a-button-text" type="button"><div class="twisterTextDiv text"><p class="a-text-left a-size-base">${esc(v.value)}</p></div></button></span></span></span></li>`;
    })
    .join('');
  return `<div id="twister_feature_div" class="celwidget"><div id="twister" class="a-section a-spacing-none"><div id="variation_${dimension}" class="a-section a-spacing-small"><ul class="a-unordered-list a-nostyle a-button-list a-declarative a-button-toggle-group a-horizontal a-spacing-top-micro swatches">${items}</ul></div></div></div>`;
}

function inlineTwister(view: StorefrontProduct): string {
  const variations = view.product.variations;
  if (variations.length === 0) return '';
  const dimension = view.product.category.variation;
  const items = variations
    .map((v) => {
      const selected = v.asin === view.product.asin;
      return `<li data-asin="${v.asin}" data-initiallySelected="${selected}" class="a-declarative inline-twister-swatch"><span class="a-list-item"><span class="a-button a-button-toggle${selected ? ' a-button-selected' : ''}"><span class="a-button-inner"><input class="a-button-input" type="submit"><span class="a-button-text" aria-hidden="true"><div class="a-section dimension-text-wrapper"><span class="swatch-title-text-display">${esc(v.value)}</span></div></span></span></span></span></li>`;
    })
    .join('');
  return `<div id="twister-plus-inline-twister" class="a-section"><div id="inline-twister-row-${dimension}" class="a-section inline-twister-row"><div id="inline-twister-expander-content-${dimension}" class="a-section"><ul class="a-unordered-list a-nostyle a-button-list a-horizontal dimension-values-list">${items}</ul></div></div></div>`;
}

export function availabilityBox(view: StorefrontProduct): string {
  const color = view.product.stock === 'unavailable' ? 'a-color-price' : 'a-color-success';
  return `<div id="availability_feature_div" class="celwidget"><div id="availability" class="a-section a-spacing-base a-spacing-top-micro"><span class="a-size-medium ${color}">   ${esc(view.availability)}   </span><br></div></div>`;
}

export function tabularBuybox(view: StorefrontProduct): string {
  const seller = view.product.thirdPartySeller
    ? `<a id="sellerProfileTriggerId" href="/gp/help/seller/at-a-glance.html?seller=${sellerIdOf(view.seller)}">${esc(view.seller)}</a>`
    : esc(view.seller);
  return `<div id="tabular-buybox" class="a-section a-spacing-none"><div class="tabular-buybox-container" role="table">
<div tabular-attribute-name="${esc(view.texts.shipsFrom)}" class="tabular-buybox-text a-spacing-none" role="cell"><div class="a-section a-spacing-none"><span class="a-size-small tabular-buybox-text-message">${esc(view.texts.amazonSeller)}</span></div></div>
<div tabular-attribute-name="${esc(view.texts.soldBy)}" class="tabular-buybox-text a-spacing-none" role="cell"><div class="a-section a-spacing-none"><span class="a-size-small tabular-buybox-text-message">${seller}</span></div></div></div></div>`;
}

export function rankLines(view: StorefrontProduct, domain: MarketplaceDomain): [string, string] {
  const [top, sub] = view.categories;
  const texts = view.texts;
  return [
    `${esc(texts.rankEntry(formatCount(view.product.ranks[0], domain), top))} (<a href="/gp/bestsellers/cat/ref=pd_zg_ts">${esc(texts.seeTop(top))}</a>)`,
    `${esc(texts.rankEntry(formatCount(view.product.ranks[1], domain), '')).trimEnd()} <a href="/gp/bestsellers/cat/sub/ref=pd_zg_hrsr">${esc(sub)}</a>`,
  ];
}

function detailBullets(view: StorefrontProduct, domain: MarketplaceDomain): string {
  const [top, sub] = rankLines(view, domain);
  const row = (label: string, value: string): string =>
    `<li><span class="a-list-item"><span class="a-text-bold">${esc(label)} &rlm; : &lrm;</span><span>${esc(value)}</span></span></li>`;
  return `<div id="detailBulletsWrapper_feature_div" class="celwidget" data-feature-name="detailBullets"><div id="detailBullets_feature_div"><ul class="a-unordered-list a-nostyle a-vertical a-spacing-none detail-bullet-list">
${row('Item model number', view.product.modelNumber)}${row('ASIN', view.product.asin)}</ul></div>
<ul class="a-unordered-list a-nostyle a-vertical a-spacing-none detail-bullet-list"><li><span class="a-list-item"><span class="a-text-bold">${esc(view.texts.bestSellersLabel)}</span> ${top}<ul class="a-unordered-list a-nostyle a-vertical zg_hrsr"><li><span class="a-list-item">${sub}</span></li></ul></span></li></ul></div>`;
}

function detailTable(view: StorefrontProduct, domain: MarketplaceDomain): string {
  const [top, sub] = rankLines(view, domain);
  const row = (label: string, value: string): string =>
    `<tr><th class="a-color-secondary a-size-base prodDetSectionEntry"> ${esc(label)} </th><td class="a-size-base prodDetAttrValue"> &lrm;${value} </td></tr>`;
  const label = view.texts.bestSellersLabel.replace(/\s*:\s*$/, '');
  return `<div id="prodDetails" class="a-section"><table id="productDetails_detailBullets_sections1" class="a-keyvalue prodDetTable" role="presentation">
${row('Item model number', esc(view.product.modelNumber))}${row('ASIN', view.product.asin)}
<tr><th class="a-color-secondary a-size-base prodDetSectionEntry"> ${esc(label)} </th><td><span><span>${top}</span><br><span>${sub}</span></span></td></tr></table></div>`;
}

/** The description; the newer layout keeps its style and the loader's script inside it. */
export function description(view: StorefrontProduct, inlineCode = false): string {
  const code = inlineCode
    ? `<style type="text/css">#productDescription p { margin: 0 0 1em 0; } .aplus-v2 { display: block; }</style><script type="text/javascript">P.when('productDescription').execute(function(){ var x = { expanded: false }; });</script>`
    : '';
  return `<div id="productDescription_feature_div" class="celwidget"><div id="productDescription" class="a-section a-spacing-small">${code}${view.product.description.map((p) => `<p><span>${esc(p)}</span></p>`).join('\n')}</div></div>`;
}

/**
 * The newer "product facts" block in place of the feature bullets: a few label and value rows, then
 * "About this item" as a list.
 */
function productFacts(view: StorefrontProduct): string {
  const p = view.product;
  const facts: [string, string][] = [
    ['Brand', p.brand],
    ['Model', p.modelNumber],
  ];
  const rows = facts
    .map(
      ([label, value]) =>
        `<div class="a-fixed-left-grid product-facts-detail"><div class="a-fixed-left-grid-inner" style="padding-left:0%"><div class="a-fixed-left-grid-col a-col-left" style="width:50%"><span class="a-color-base">${esc(label)}</span></div><div class="a-fixed-left-grid-col a-col-right" style="width:50%"><span class="a-color-base">${esc(value)}</span></div></div></div>`,
    )
    .join('');
  const items = p.features.map((f) => `<li><span class="a-list-item a-size-base a-color-base">${esc(f)}</span></li>`).join('');
  return `<div id="productFactsDesktop_feature_div" class="celwidget"><div id="productFactsDesktopExpander" class="a-section a-spacing-none"><div class="a-section a-spacing-small a-padding-small">${rows}<hr class="a-divider-normal"><h3 class="a-size-base-plus a-text-bold product-facts-title">${esc(view.texts.aboutThisItem)}</h3><ul class="a-unordered-list a-vertical a-spacing-small">${items}</ul></div></div></div>`;
}

function titleBlock(view: StorefrontProduct): string {
  return `<div id="title_feature_div" class="celwidget"><div id="titleSection" class="a-section a-spacing-none"><h1 id="title" class="a-size-large a-spacing-none"><span id="productTitle" class="a-size-large product-title-word-break">        ${esc(view.product.title)}       </span></h1></div></div>
<div id="bylineInfo_feature_div" class="celwidget"><div class="a-section a-spacing-none"><a id="bylineInfo" class="a-link-normal" href="/stores/page/${view.product.asin}">${esc(view.texts.byline(view.product.brand))}</a></div></div>`;
}

/** The desktop page; `newer` (the `facts` layout, 2024 on) has product facts, the labelled histogram and inline code in its description. */
function desktop(view: StorefrontProduct, domain: MarketplaceDomain, newer = false): string {
  const price = view.price
    ? `<div class="a-section a-spacing-none aok-align-center aok-relative"><span class="aok-offscreen"> ${esc(formatMoney(view.price, domain).text)} </span>${priceWidget(view.price, domain, { classes: 'aok-align-center reinventPricePriceToPayMargin priceToPay' })}</div>${
        view.listPrice
          ? `<div class="a-section a-spacing-small aok-align-center"><span class="a-size-small a-color-secondary aok-align-center basisPrice">${esc(view.texts.listPriceLabel)} ${priceWidget(view.listPrice, domain, { classes: 'a-text-price', size: 's', strike: true, plain: true })}</span></div>`
          : ''
      }`
    : '';
  return `<div id="dp" class="${view.texts.htmlLang}"><div id="dp-container" class="a-container" role="main">${breadcrumbs(view)}
<div id="ppd"><div id="leftCol" class="a-column a-span12 a-spacing-none">${desktopImages(view, true)}</div>
<div id="centerCol" class="centerColAlign">${titleBlock(view)}${reviewsSummary(view, domain)}${badgeBlocks(view)}
<div id="apex_desktop" class="celwidget"><div class="offersConsistencyEnabled"><div id="corePriceDisplay_desktop_feature_div" class="celwidget">${price}</div></div></div>${dealAndCoupon(view)}
${newer ? productFacts(view) : featureBullets(view, 'feature-bullets')}${classicTwister(view)}</div>
<div id="rightCol"><div id="buybox" class="a-section">${availabilityBox(view)}${tabularBuybox(view)}<input type="hidden" id="ASIN" name="ASIN" value="${view.product.asin}"></div></div></div>
${description(view, newer)}${detailBullets(view, domain)}${histogram(view, newer ? 'labelled-list' : 'table')}</div></div>`;
}

function apex(view: StorefrontProduct, domain: MarketplaceDomain): string {
  const rows: string[] = [];
  if (view.listPrice) {
    rows.push(
      `<tr><td class="a-color-secondary a-size-base a-text-right a-nowrap">${esc(view.texts.listPriceLabel)}</td><td class="a-span12 a-color-secondary a-size-base">${priceWidget(view.listPrice, domain, { classes: 'a-text-price a-size-base', size: 'b', strike: true, plain: true })}</td></tr>`,
    );
  }
  if (view.price) {
    rows.push(
      `<tr><td class="a-color-secondary a-size-base a-text-right a-nowrap">Price:</td><td class="a-span12">${priceWidget(view.price, domain, { classes: 'a-text-price a-size-medium apexPriceToPay', size: 'b', plain: true })}</td></tr>`,
    );
    if (view.listPrice) {
      const saving = { ...view.price, minor: view.listPrice.minor - view.price.minor };
      rows.push(
        `<tr><td class="a-color-secondary a-size-base a-text-right a-nowrap">You Save:</td><td class="a-span12 a-color-price a-size-base">${priceWidget(saving, domain, { classes: 'a-text-price a-size-base', size: 'b', plain: true })}</td></tr>`,
      );
    }
  }
  const seller = `<div id="merchantInfoFeature_feature_div" class="celwidget"><div class="offer-display-feature-label"><span class="a-size-small offer-display-feature-text a-color-secondary">${esc(view.texts.soldBy)}</span></div><div class="offer-display-feature-text"><span class="a-size-small offer-display-feature-text-message">${esc(view.seller)}</span></div></div>`;
  const poBrand = `<div id="productOverview_feature_div"><table class="a-normal a-spacing-micro"><tr class="a-spacing-small po-brand"><td class="a-span3"><span class="a-size-base a-text-bold">Brand</span></td><td class="a-span9"><span class="a-size-base po-break-word">${esc(view.product.brand)}</span></td></tr></table></div>`;
  return `<div id="dp" class="${view.texts.htmlLang}"><div id="dp-container" class="a-container" role="main">${breadcrumbs(view)}
<div id="ppd"><div id="leftCol">${desktopImages(view, false)}</div>
<div id="centerCol">${titleBlock(view)}${reviewsSummary(view, domain)}${badgeBlocks(view)}${dealAndCoupon(view)}
<div id="apex_desktop" class="celwidget"><div id="corePrice_desktop" class="celwidget"><div class="a-section a-spacing-small"><table class="a-lineitem a-align-top">${rows.join('')}</table></div></div></div>
${poBrand}${featureBullets(view, 'feature-bullets')}${inlineTwister(view)}</div>
<div id="rightCol">${availabilityBox(view)}${seller}<input type="hidden" id="ASIN" name="ASIN" value="${view.product.asin}"></div></div>
${description(view)}${detailTable(view, domain)}${histogram(view, 'table')}</div></div>`;
}

function mobile(view: StorefrontProduct, domain: MarketplaceDomain): string {
  const p = view.product;
  const rating = ratingText(view);
  const images = p.imageIds
    .map(
      (id, i) =>
        `<li class="a-carousel-card"><img${i === 0 ? ' id="main-image"' : ''} class="a-dynamic-image" alt="" src="${i === 0 ? imageUrl(id, '_AC_SY300_') : 'data:image/gif;base64,R0lGODlhAQABAIAAAP'}" data-a-hires="${imageUrl(id, '_AC_SL1000_')}"></li>`,
    )
    .join('');
  const price = view.price
    ? `${priceWidget(view.price, domain, { classes: 'aok-align-center' })}${view.listPrice ? `<span class="a-size-small a-color-secondary">${esc(view.texts.listPriceLabel)} ${priceWidget(view.listPrice, domain, { classes: 'a-text-price', size: 's', strike: true, plain: true })}</span>` : ''}`
    : '';
  return `<div id="dp" class="${view.texts.htmlLang} a-mobile">
<div id="title_feature_div" class="celwidget"><div class="a-section a-spacing-none"><span id="title" class="a-size-small a-spacing-none a-color-base">${esc(p.title)}</span></div></div>
<div id="bylineInfo_feature_div" class="celwidget"><a id="bylineInfo" class="a-link-normal" href="/stores/page/${p.asin}">${esc(view.texts.byline(p.brand))}</a></div>
${rating ? `<div id="averageCustomerReviews_feature_div"><a id="acrCustomerReviewLink" class="a-link-normal" href="#customerReviews"><i class="a-icon a-icon-star-mini a-star-mini-4-5"><span class="a-icon-alt">${esc(rating)}</span></i><span id="acrCustomerReviewText" class="a-size-small">(${formatCount(p.reviewCount, domain)})</span></a></div>` : ''}
${badgeBlocks(view)}<div id="image-block" class="a-section"><ol class="a-carousel" role="list">${images}</ol></div>
<div id="apex_offerDisplay_mobile" class="celwidget"><div id="corePrice_mobile_feature_div" class="celwidget"><div class="a-section a-spacing-none aok-align-center">${price}</div></div></div>${dealAndCoupon(view)}
${availabilityBox(view)}${inlineTwister(view)}${tabularBuybox(view)}
<div id="featurebullets_feature_div" class="celwidget"><div class="a-section"><h2>${esc(view.texts.aboutThisItem)}</h2><ul class="a-unordered-list a-vertical">${p.features.map((f) => `<li><span class="a-list-item">${esc(f)}</span></li>`).join('')}</ul></div></div>
${description(view)}${detailBullets(view, domain)}${histogram(view, 'list')}</div>`;
}

/** The product area of a detail page in one of the layouts the parser supports. */
export function productContent(view: StorefrontProduct, layout: ProductLayout): string {
  if (view.product.book) return bookContent(view, view.book ?? view.product.book);
  if (layout === 'facts') return desktop(view, view.domain, true);
  return layout === 'desktop' ? desktop(view, view.domain) : layout === 'apex' ? apex(view, view.domain) : mobile(view, view.domain);
}
