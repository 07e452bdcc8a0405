import { MARKETPLACES, type MarketplaceDomain } from '@crawl/marketplace';
import type { CatalogProduct } from '../catalog.ts';
import { deliveryLocation } from '../delivery-location.ts';
import type { Market } from '../market.ts';
import { formatMoney, priceIn } from '../money.ts';
import { filteredOffers, offerListing, OFFERS_PER_PAGE, type SimCondition, type SimOffer, sellerIdOfOffer } from '../offers-catalog.ts';
import { hashString } from '../rng.ts';
import { storefrontProduct } from '../storefront-view.ts';
import { textsFor } from '../texts.ts';
import { filler } from './filler.ts';
import { esc } from './html.ts';
import { AOD_LAYOUTS, type AodLayout, aodOfferBlock, conditionHeading, type OfferView } from './offers-layouts.ts';
import { offersTextsFor } from './offers-texts.ts';
import { type PageSize, pageShell } from './page-shell.ts';

export interface RenderOffersOptions {
  product: CatalogProduct;
  domain: MarketplaceDomain;
  /** 1-based page of the list (ten offers a page). */
  page: number;
  size: PageSize;
  market: Market;
  /** Offers of one condition only; the pinned offer stays. */
  condition?: SimCondition | undefined;
  /** Used offers of these grades only (the AOD's `usedLikeNew`, … filters). */
  usedGrades?: ReadonlySet<string> | undefined;
  language?: string | undefined;
  currency?: string | undefined;
  deliveryZip?: string | undefined;
  /** The wrong-child trap: every offer is of another ASIN (a sibling's or a made-up one). */
  otherAsin?: boolean;
}

export interface RenderedOffers {
  html: string;
  layout: string;
}

/** The AOD layout of a product when `?layout=` names none: always the same per ASIN. */
export function aodLayoutFor(asin: string): AodLayout {
  return AOD_LAYOUTS[hashString(`aod\u0000${asin}`) % AOD_LAYOUTS.length] as AodLayout;
}

function listed(options: RenderOffersOptions): { pinned?: SimOffer; list: SimOffer[] } {
  const listing = offerListing(options.product);
  let list = filteredOffers(listing, options.condition);
  const grades = options.usedGrades;
  if (grades !== undefined && grades.size > 0)
    list = list.filter((offer) => offer.condition !== 'used' || (offer.grade !== undefined && grades.has(offer.grade)));
  let pinned = listing.pinned;
  if (options.otherAsin) {
    const other = options.product.variations.find((v) => v.asin !== options.product.asin)?.asin ?? `B0OTHER${options.product.asin.slice(-3)}`;
    list = list.map((offer) => ({ ...offer, asin: other }));
    if (pinned) pinned = { ...pinned, asin: other };
  }
  return pinned ? { pinned, list } : { list };
}

function viewsOf(options: RenderOffersOptions): { views: OfferView[]; total: number; hasMore: boolean } {
  const { domain, product } = options;
  const texts = textsFor(domain, options.language);
  const offersTexts = offersTextsFor(texts.language);
  const currency = options.currency ?? MARKETPLACES[domain].currency;
  const { pinned, list } = listed(options);
  const start = (options.page - 1) * OFFERS_PER_PAGE;
  const pageOffers = list.slice(start, start + OFFERS_PER_PAGE);
  const view = (offer: SimOffer, buyBox: boolean, index: number): OfferView => {
    // The buy box shows the product page's price (a price set through the control routes included).
    const price = buyBox
      ? (storefrontProduct(product, domain, options.language, currency).price ?? priceIn(offer.priceUsdCents, currency))
      : priceIn(offer.priceUsdCents, currency);
    const sellerId = sellerIdOfOffer(offer);
    return {
      offer,
      domain,
      texts,
      offersTexts,
      price,
      shipping: priceIn(offer.shippingUsdCents, currency),
      sellerName: offer.seller ?? texts.amazonSeller,
      sellerId,
      buyBox,
      index,
    };
  };
  const views = pageOffers.map((offer, i) => view(offer, false, start + i + 1));
  if (options.page === 1 && pinned) views.unshift(view(pinned, true, 0));
  return { views, total: list.length, hasMore: start + OFFERS_PER_PAGE < list.length };
}

/**
 * The all-offers display fragment (`/gp/product/ajax/aodAjaxMain/?asin=…&pageno=N`): on page 1
 * the product header, the pinned buy-box offer and the first ten of the list; later pages only
 * their ten list entries, as the view appends them while scrolling.
 */
export function renderAodFragment(options: RenderOffersOptions & { layout?: AodLayout }): RenderedOffers {
  const layout = options.layout ?? aodLayoutFor(options.product.asin);
  const { views, total, hasMore } = viewsOf(options);
  const texts = offersTextsFor(textsFor(options.domain, options.language).language);
  const pinned = views.find((v) => v.buyBox);
  const entries = views
    .filter((v) => !v.buyBox)
    .map((v) => aodOfferBlock(v, layout))
    .join('\n');
  const more = hasMore ? `<span id="aod-show-more-offers" class="a-declarative"><a class="a-link-normal" href="#">${esc(texts.showMore)}</a></span>` : '';
  const list = `<div id="aod-offer-list" class="a-section a-spacing-none" role="list"><input type="hidden" name="" value="${total}" id="aod-total-offer-count"/>\n${entries}\n</div>${more}`;
  const fill = options.size === 'full' ? filler(380_000 + (hashString(options.product.asin) % 4) * 60_000, hashString(options.product.asin)) : undefined;
  if (options.page > 1) return { html: [fill?.head ?? '', list, fill?.bodyEnd ?? ''].join('\n'), layout };
  const { product } = options;
  const header = `<div id="aod-asin-block" class="a-section"><div id="aod-asin-title"><h5 id="aod-asin-title-text" class="a-size-base">${esc(product.title)}</h5></div><div id="aod-filter-offer-count-string" class="a-section">${esc(texts.options(total + (pinned ? 1 : 0)))}</div></div>`;
  const html = [
    fill?.head ?? '',
    `<div id="aod-container" class="a-section a-spacing-none aod-container-${layout}">`,
    header,
    // The sticky copy of the pinned offer the view keeps above the list while scrolling.
    pinned ? `<div id="aod-sticky-pinned-offer" class="a-section aok-hidden">${aodOfferBlock({ ...pinned, buyBox: false }, layout)}</div>` : '',
    '<div id="all-offers-display-scroller" class="a-section">',
    pinned ? aodOfferBlock(pinned, layout) : '<div id="aod-pinned-offer" class="a-section"><span class="a-size-base">No featured offers available</span></div>',
    list,
    '</div></div>',
    fill?.bodyEnd ?? '',
  ].join('\n');
  return { html, layout };
}

/**
 * The older offer-listing page (`/gp/offer-listing/<ASIN>?startIndex=N`): a whole page with one
 * `.olpOffer` row per offer, ten a page, and no pinned buy-box offer.
 */
export function renderOfferListingPage(options: RenderOffersOptions): RenderedOffers {
  const { domain, product } = options;
  const texts = textsFor(domain, options.language);
  const offersTexts = offersTextsFor(texts.language);
  const { views, hasMore } = viewsOf({ ...options });
  const rows = views
    .filter((v) => !v.buyBox)
    .map((v) => {
      const price = formatMoney(v.price, domain).text;
      const shipping =
        v.shipping.minor === 0
          ? `<p class="olpShippingInfo"><span class="a-color-secondary"><b>${esc(offersTexts.freeShipping)}</b></span></p>`
          : `<p class="olpShippingInfo"><span class="a-color-secondary">+ <span class="olpShippingPrice">${esc(formatMoney(v.shipping, domain).text)}</span> <span class="olpShippingPriceText">${esc(offersTexts.shipping)}</span></span></p>`;
      const note = v.offer.note === undefined ? '' : `<div class="comments">${esc(offersTexts.notes[v.offer.note] ?? '')}</div>`;
      const badge = v.offer.fulfilledByAmazon
        ? `<div class="olpBadgeContainer"><div class="olpBadge"><a class="olpFbaPopoverTrigger" href="#">${esc(offersTexts.fulfilledByAmazon)}</a></div></div>`
        : '';
      const seller =
        v.sellerId === undefined
          ? `<img alt="${esc(v.sellerName)}" src="https://images-na.ssl-images-amazon.com/images/I/01dXM-J1oeL.gif">`
          : `<span class="a-size-medium a-text-bold"><a href="${esc(`/gp/aag/main/ref=olp_merch_name_${v.index}?ie=UTF8&asin=${v.offer.asin}&isAmazonFulfilled=${v.offer.fulfilledByAmazon ? 1 : 0}&seller=${v.sellerId}`)}">${esc(v.sellerName)}</a></span>`;
      return `<div class="a-row a-spacing-mini olpOffer" role="row">
<div class="a-column a-span2 olpPriceColumn" role="gridcell"><span class="a-size-large a-color-price olpOfferPrice a-text-bold">${esc(price)}</span>${v.offer.prime ? '<span class="supersaver"><i class="a-icon a-icon-prime" aria-label="Amazon Prime"></i></span>' : ''}${shipping}</div>
<div class="a-column a-span3 olpConditionColumn" role="gridcell"><div id="offerCondition" class="a-section a-spacing-small"><span class="a-size-medium olpCondition a-text-bold">${esc(conditionHeading(v))}</span></div>${note}</div>
<div class="a-column a-span3 olpDeliveryColumn" role="gridcell">${badge}<ul class="a-unordered-list a-vertical"><li><span class="a-list-item">${esc(offersTexts.arrives(v.offer.deliveryDay))}</span></li>${v.offer.fulfilledByAmazon ? '' : `<li><span class="a-list-item">${esc(offersTexts.shipsFromLine)}</span></li>`}</ul></div>
<div class="a-column a-span2 olpSellerColumn" role="gridcell"><h3 class="a-spacing-none olpSellerName">${seller}</h3></div>
<div class="a-column a-span2 olpBuyColumn a-span-last" role="gridcell"><form method="post" action="/gp/item-dispatch/ref=olp_atc_${v.index}"><input type="hidden" name="asin.1" value="${v.offer.asin}"></form></div></div>`;
    })
    .join('\n');
  const startIndex = (options.page - 1) * OFFERS_PER_PAGE;
  const next = hasMore
    ? `<li class="a-last"><a href="/gp/offer-listing/${product.asin}/ref=olp_page_next?ie=UTF8&amp;startIndex=${startIndex + OFFERS_PER_PAGE}">${esc(texts.next)}</a></li>`
    : `<li class="a-disabled a-last">${esc(texts.next)}</li>`;
  const content = `<div id="olpProductDetails" class="a-section"><h1 class="a-size-large a-spacing-none">${esc(product.title)}</h1></div>
<div id="olpOfferListColumn" class="a-column a-span12"><div id="olpOfferList" class="a-section a-spacing-double-large" role="grid">
${rows}
</div><ul class="a-pagination">${next}</ul></div>`;
  const html = pageShell(
    {
      domain,
      texts,
      title: `${product.title}: ${offersTexts.options(views.length)}`,
      size: options.size,
      variant: hashString(`olp\u0000${product.asin}`),
      bodyClass: 'olp',
      head: `<link rel="canonical" href="${MARKETPLACES[domain].origin}/gp/offer-listing/${product.asin}">`,
      deliverTo: deliveryLocation(domain, options.deliveryZip),
      locationChosen: options.deliveryZip !== undefined,
    },
    content,
  );
  return { html, layout: 'offer-listing' };
}
