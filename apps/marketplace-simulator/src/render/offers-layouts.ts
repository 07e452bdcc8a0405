import type { MarketplaceDomain } from '@crawl/marketplace';
import { formatMoney, type Money } from '../money.ts';
import type { SimOffer } from '../offers-catalog.ts';
import type { Texts } from '../texts.ts';
import { esc } from './html.ts';
import type { OffersTexts } from './offers-texts.ts';
import { priceWidget } from './price-widget.ts';

/**
 * The all-offers display's offer blocks: `rows`, label and value in the fixed-left grid's two
 * columns with a screen-reader price (2021 on), and `inline`, label and value on one row with only
 * the price's visible parts (2024 on).
 */
export const AOD_LAYOUTS = ['rows', 'inline'] as const;
export type AodLayout = (typeof AOD_LAYOUTS)[number];

/** An offer as one storefront shows it. */
export interface OfferView {
  offer: SimOffer;
  domain: MarketplaceDomain;
  texts: Texts;
  offersTexts: OffersTexts;
  price: Money;
  shipping: Money;
  sellerName: string;
  sellerId: string | undefined;
  buyBox: boolean;
  /** Index of the price block (`aod-price-N`): 0 for the pinned offer. */
  index: number;
}

export function conditionHeading(view: OfferView): string {
  const { offer, offersTexts: t } = view;
  const condition = t.condition[offer.condition];
  return offer.grade === undefined ? condition : t.heading(condition, t.grade[offer.grade]);
}

function deliveryLine(view: OfferView): string {
  const { offersTexts: t, shipping, offer } = view;
  const charge = shipping.minor === 0 ? t.free : formatMoney(shipping, view.domain).text;
  const lead = shipping.minor === 0 ? t.freeDelivery : t.paidDelivery(charge);
  return `<span data-csa-c-type="element" data-csa-c-delivery-price="${esc(charge)}" data-csa-c-delivery-time="${esc(t.date(offer.deliveryDay))}">${esc(lead)} <span class="a-text-bold">${esc(t.date(offer.deliveryDay))}</span></span>`;
}

function sellerLink(view: OfferView): string {
  if (view.sellerId === undefined) return `<span class="a-size-small a-color-base">${esc(view.sellerName)}</span>`;
  const href = `/gp/aag/main?ie=UTF8&seller=${view.sellerId}&isAmazonFulfilled=${view.offer.fulfilledByAmazon ? 1 : 0}&asin=${view.offer.asin}&ref_=aod_${view.index}`;
  return `<a class="a-size-small a-link-normal" href="${esc(href)}" role="link">${esc(view.sellerName)}</a>`;
}

function shipsFromName(view: OfferView): string {
  return view.offer.fulfilledByAmazon ? 'Amazon' : view.sellerName;
}

function note(view: OfferView): string {
  const index = view.offer.note;
  if (index === undefined) return '';
  const text = view.offersTexts.notes[index] ?? '';
  return `<div id="aod-condition-container" class="a-section a-spacing-none"><span class="a-size-small a-color-base expandable-truncated-text">${esc(text.slice(0, 24))}…</span><span class="a-size-small a-color-base expandable-expanded-text">${esc(text)}</span><a class="a-declarative a-expander-prompt" href="#">${esc(view.offersTexts.readMore)}</a></div>`;
}

function cart(view: OfferView): string {
  return `<form method="post" action="/cart/add-to-cart/ref=aod_dpdsk_new_${view.index}" class="aod-atc-form"><input type="hidden" name="items[0.base][asin]" value="${view.offer.asin}"><input type="hidden" name="items[0.base][offerListingId]" value="${esc(`sim${view.offer.asin}${view.index}`)}"><input type="hidden" name="items[0.base][quantity]" value="1"><span class="a-button a-button-primary"><input name="submit.addToCart" class="a-button-input" type="submit" aria-label="${esc(`${view.offersTexts.condition.new} ${view.sellerName}`)}"></span></form>`;
}

function prime(view: OfferView): string {
  return view.offer.prime ? '<i class="a-icon a-icon-prime a-icon-medium" role="img" aria-label="Amazon Prime"></i>' : '';
}

function gridRow(id: string, label: string, value: string): string {
  return `<div id="${id}" class="a-row a-spacing-none"><div class="a-fixed-left-grid"><div class="a-fixed-left-grid-inner" style="padding-left:100px"><div class="a-fixed-left-grid-col a-col-left" style="width:100px;margin-left:-100px;float:left;"><span class="a-size-small a-color-tertiary">${esc(label)}</span></div><div class="a-fixed-left-grid-col a-col-right" style="padding-left:0%;float:left;">${value}</div></div></div></div>`;
}

function inlineRow(id: string, label: string, value: string): string {
  return `<div id="${id}" class="a-row a-spacing-none"><span class="a-size-small a-color-secondary">${esc(label)}</span> ${value}</div>`;
}

/** One offer block: the pinned offer's (`#aod-pinned-offer`) or a list entry's (`#aod-offer`). */
export function aodOfferBlock(view: OfferView, layout: AodLayout): string {
  const id = view.buyBox ? 'aod-pinned-offer' : 'aod-offer';
  const strikeless =
    layout === 'rows'
      ? priceWidget(view.price, view.domain, { classes: 'aok-align-center centralizedApexPricePriceToPayMargin' })
      : priceWidget(view.price, view.domain, { offscreen: false });
  const price = `<div id="aod-price-${view.index}" class="a-section a-spacing-none aok-align-center"><div id="aod-offer-price" class="a-fixed-right-grid">${strikeless}${prime(view)}</div></div>`;
  const heading = `<div id="aod-offer-heading" class="a-row"><h5><span class="a-text-bold">${esc(conditionHeading(view))}</span></h5></div>`;
  const delivery = `<div id="mir-layout-DELIVERY_BLOCK-slot-PRIMARY_DELIVERY_MESSAGE_LARGE" class="a-spacing-base">${deliveryLine(view)}</div>`;
  const row = layout === 'rows' ? gridRow : inlineRow;
  const shipsFrom = row('aod-offer-shipsFrom', view.texts.shipsFrom, `<span class="a-size-small a-color-base">${esc(shipsFromName(view))}</span>`);
  const soldBy = row('aod-offer-soldBy', view.texts.soldBy, sellerLink(view));
  const body = layout === 'rows' ? [heading, price, delivery, shipsFrom, soldBy, note(view)] : [price, heading, note(view), shipsFrom, soldBy, delivery];
  return `<div id="${id}" class="a-section a-spacing-none a-padding-base aod-information-block aod-clear-float" role="listitem">${body.join('')}${cart(view)}</div>`;
}
