import type { EndTag, StartTag } from 'parse5-sax-parser';
import { isChrome } from '../html/chrome.ts';
import { ElementStack } from '../html/element-stack.ts';
import { pageText } from '../html/page-text.ts';
import { PriceElementReader } from '../html/price-element.ts';
import type { RegionAnchors } from '../html/region-starts.ts';
import { scanRegions } from '../html/sax-scanner.ts';
import { attr, hasClass, normalizeSpace } from '../html/tags.ts';
import { TextCaptures } from '../html/text-captures.ts';
import { headerLocation } from '../fields/validate-product.ts';
import { pageMarketplace, priceHintFor } from '../locale-context.ts';
import { assembleOffer } from './assemble-offer.ts';
import { newOfferDraft, type OfferDraft } from './offer-draft.ts';
import { asinOfHref, isAsinInputName, sellerIdOfHref } from './offer-values.ts';
import type { OfferItem, OffersLayout, OffersPage, ParseOffersPageOptions } from './types.ts';

// The all-offers display (AOD) fragment and the older offer-listing page: their frames say what
// the page is, even when it lists no offer.
const AOD_FRAMES = ['aod-container', 'all-offers-display', 'all-offers-display-scroller', 'aod-offer-list'];
const OLP_FRAMES = ['olpOfferList', 'olpOfferListColumn'];
const AOD_PRICE_BLOCK = /^aod-(?:offer-price|price-\d+)$/;
const DELIVERY_MESSAGE = 'mir-layout-DELIVERY_BLOCK-slot-PRIMARY_DELIVERY_MESSAGE_LARGE';
const ASIN_IN_PATH = /\/(?:gp\/offer-listing|dp|gp\/product)\/([A-Z0-9]{10})(?:[/?#]|$)/;

const OFFERS_ANCHORS: RegionAnchors = {
  ids: new Set([
    ...AOD_FRAMES,
    ...OLP_FRAMES,
    'aod-pinned-offer',
    'aod-offer',
    'aod-total-offer-count',
    'aod-show-more-offers',
    'glow-ingress-line1',
    'glow-ingress-line2',
  ]),
  needles: [
    { text: 'aod-other-offer-block', accept: (startTag) => /^<div\s/i.test(startTag) },
    { text: 'olpOffer', accept: (startTag) => /^<div\s/i.test(startTag) && /\sclass=["'][^"']*\bolpOffer\b/.test(startTag) },
    { text: 'a-pagination', accept: (startTag) => /^<ul\s/i.test(startTag) },
    { text: 'canonical', accept: (startTag) => /^<link\s/i.test(startTag) },
  ],
};

/**
 * Reads one page of a product's offers in one streaming pass: the AOD fragment
 * (`/gp/product/ajax/aodAjaxMain/?asin=…&pageno=N`) or the older offer-listing page
 * (`/gp/offer-listing/<ASIN>`); see docs/marketplace.md. Offers whose add-to-cart inputs or links
 * name another ASIN (another variation's) are counted in `foreignOffers`, never returned.
 */
export function parseOffersPage(html: string | Uint8Array, options: ParseOffersPageOptions): OffersPage {
  const page = pageText(html);
  const hint = priceHintFor(pageMarketplace(options.origin, options.marketplace, page));
  const asked = options.asin.toUpperCase();
  const stack = new ElementStack();
  const captures = new TextCaptures();
  const priceReader = new PriceElementReader(stack, captures);
  const drafts: OfferDraft[] = [];
  let draft: OfferDraft | undefined;
  let layout: OffersLayout | undefined;
  let totalOffers: number | undefined;
  let hasNextPage = false;
  let canonicalAsin: string | undefined;
  const deliveryLines: [string | undefined, string | undefined] = [undefined, undefined];
  // Depth counters of the blocks inside an offer whose elements mean something there.
  const inside = { priceBlock: 0, apexPrice: 0, shipsFrom: 0, soldBy: 0, deliveryColumn: 0, pagination: 0 };

  const capture = (set: (text: string) => void): void => {
    const parts = captures.begin();
    stack.onClose(() => set(normalizeSpace(captures.end(parts))));
  };
  const within = (key: keyof typeof inside): void => {
    inside[key]++;
    stack.onClose(() => inside[key]--);
  };

  const outsideOffer = (tag: StartTag, cls: string | undefined, id: string | undefined): void => {
    if (id !== undefined) {
      if (AOD_FRAMES.includes(id)) layout = 'aod';
      else if (OLP_FRAMES.includes(id)) layout ??= 'offer-listing';
      if (id === 'aod-pinned-offer' || id === 'aod-offer') {
        layout = 'aod';
        startOffer(id === 'aod-pinned-offer');
        return;
      }
      if (id === 'aod-total-offer-count') {
        const value = Number.parseInt(attr(tag, 'value') ?? '', 10);
        if (Number.isSafeInteger(value) && value >= 0) totalOffers = value;
        return;
      }
      if (id === 'aod-show-more-offers') {
        hasNextPage = true;
        return;
      }
      if (id === 'glow-ingress-line1' || id === 'glow-ingress-line2') {
        const line = id === 'glow-ingress-line1' ? 0 : 1;
        capture((text) => (deliveryLines[line] ??= text || undefined));
        return;
      }
    }
    if (tag.tagName === 'div' && hasClass(cls, 'olpOffer')) {
      layout ??= 'offer-listing';
      startOffer(false);
      return;
    }
    // A list entry of the 2024 view by its class where it carries no `aod-offer` id.
    if (tag.tagName === 'div' && hasClass(cls, 'aod-other-offer-block') && layout === 'aod') {
      startOffer(false);
      return;
    }
    if (tag.tagName === 'link' && attr(tag, 'rel') === 'canonical') {
      canonicalAsin ??= ASIN_IN_PATH.exec(attr(tag, 'href') ?? '')?.[1];
      return;
    }
    if (tag.tagName === 'ul' && hasClass(cls, 'a-pagination')) {
      within('pagination');
      return;
    }
    if (inside.pagination > 0 && tag.tagName === 'li' && hasClass(cls, 'a-last') && !hasClass(cls, 'a-disabled')) hasNextPage = true;
  };

  const startOffer = (buyBox: boolean): void => {
    const started = newOfferDraft(buyBox);
    draft = started;
    stack.onClose(() => {
      drafts.push(started);
      draft = undefined;
    });
  };

  const insideOffer = (offer: OfferDraft, tag: StartTag, cls: string | undefined, id: string | undefined): void => {
    if (priceReader.startTag(tag, cls, (price) => (inside.priceBlock > 0 ? offer.prices : offer.otherPrices).push(price))) return;
    const name = tag.tagName;
    // The 2024 view's price to pay outside an `a-price` widget: its screen-reader copy.
    if (name === 'span' && hasClass(cls, 'apex-pricetopay-value')) return within('apexPrice');
    if (inside.apexPrice > 0 && hasClass(cls, 'a-offscreen')) return capture((text) => (offer.apexPrice ??= text || undefined));
    if (name === 'input') {
      const inputName = attr(tag, 'name');
      const value = attr(tag, 'value')?.toUpperCase();
      if (inputName !== undefined && value !== undefined && isAsinInputName(inputName) && /^[A-Z0-9]{10}$/.test(value)) offer.asins.add(value);
      return;
    }
    if (hasClass(cls, 'a-icon-prime') || /^amazon prime\b/i.test(attr(tag, 'aria-label') ?? '')) offer.prime = true;
    const delivered = attr(tag, 'data-csa-c-delivery-price');
    if (delivered !== undefined && offer.delivery === undefined) {
      offer.shippingText ??= delivered;
      capture((text) => (offer.delivery ??= text || undefined));
      return;
    }
    if (id !== undefined) {
      if (AOD_PRICE_BLOCK.test(id)) return within('priceBlock');
      if (id === 'aod-offer-heading') return capture((text) => (offer.conditionText ??= text || undefined));
      if (id === 'aod-offer-shipsFrom') {
        within('shipsFrom');
        return capture((text) => (offer.shipsFrom ??= text || undefined));
      }
      if (id === 'aod-offer-soldBy') {
        within('soldBy');
        return capture((text) => (offer.soldByText ??= text || undefined));
      }
      if (id === DELIVERY_MESSAGE) return capture((text) => (offer.delivery ??= text || undefined));
    }
    if (hasClass(cls, 'a-col-right')) {
      if (inside.shipsFrom > 0) return capture((text) => (offer.shipsFrom = text || offer.shipsFrom));
      if (inside.soldBy > 0) return capture((text) => (offer.soldByText = text || offer.soldByText));
    }
    if (name === 'a') {
      const href = attr(tag, 'href') ?? '';
      const linkedAsin = asinOfHref(href);
      if (linkedAsin !== undefined && (inside.soldBy > 0 || href.includes('seller='))) offer.asins.add(linkedAsin);
      const sellerId = sellerIdOfHref(href);
      if (sellerId !== undefined && inside.soldBy > 0 && offer.sellerId === undefined) {
        offer.sellerId = sellerId;
        capture((text) => (offer.sellerName ??= text || undefined));
        return;
      }
      if (hasClass(cls, 'olpFbaPopoverTrigger')) offer.fulfillmentBadge = true;
      return;
    }
    // The offer-listing page's columns.
    if (hasClass(cls, 'olpSellerName')) return within('soldBy');
    if (name === 'img' && inside.soldBy > 0) {
      offer.soldByText ??= attr(tag, 'alt') || undefined;
      return;
    }
    if (hasClass(cls, 'olpOfferPrice')) return capture((text) => (offer.plainPrice ??= text || undefined));
    if (hasClass(cls, 'olpShippingPrice')) return capture((text) => (offer.shippingText ??= text || undefined));
    if (hasClass(cls, 'olpShippingInfo')) return capture((text) => (offer.freeShippingText ??= text || undefined));
    if (hasClass(cls, 'olpCondition')) return capture((text) => (offer.conditionText ??= text || undefined));
    if (hasClass(cls, 'comments') || hasClass(cls, 'expandable-expanded-text')) return capture((text) => (offer.conditionNote ??= text || undefined));
    if (hasClass(cls, 'olpDeliveryColumn')) return within('deliveryColumn');
    if (inside.deliveryColumn > 0 && name === 'li') {
      return capture((text) => {
        const shipsFrom = /^(?:ships from|versand aus|expédié depuis|enviado desde|spedito da|発送元[:：]?)\s*(.+?)\.?$/i.exec(text);
        if (shipsFrom?.[1]) offer.shipsFrom ??= shipsFrom[1];
        else if (/fulfil+ment by amazon|versand durch amazon|expédié par amazon|gestionado por amazon|spedito da amazon/i.test(text))
          offer.fulfillmentBadge = true;
        else if (text !== '') offer.delivery ??= text;
      });
    }
  };

  scanRegions(
    page,
    OFFERS_ANCHORS,
    {
      startTag(tag: StartTag) {
        stack.open(tag.tagName);
        if (stack.hidden) return;
        const cls = attr(tag, 'class');
        const id = attr(tag, 'id');
        // The sticky copy of the pinned offer repeats it; chrome is no value.
        if (isChrome(cls) || id === 'aod-sticky-pinned-offer') {
          stack.hideTop();
          return;
        }
        if (draft === undefined) outsideOffer(tag, cls, id);
        else insideOffer(draft, tag, cls, id);
      },
      endTag(tag: EndTag) {
        stack.close(tag.tagName);
      },
      text(text: string) {
        if (!stack.hidden) captures.text(text);
      },
    },
    stack,
  );

  const offers: OfferItem[] = [];
  let foreignOffers = 0;
  for (const found of drafts) {
    if (found.asins.size > 0 && !found.asins.has(asked)) {
      foreignOffers++;
      continue;
    }
    const offer = assembleOffer(found, asked, hint);
    if (offer === undefined) continue;
    offer.position = offers.length + 1;
    offers.push(offer);
  }
  // Pinned first, whatever the markup order.
  offers.sort((a, b) => Number(b.buyBox) - Number(a.buyBox) || a.position - b.position);
  for (const [i, offer] of offers.entries()) offer.position = i + 1;

  const anotherAsin = (canonicalAsin !== undefined && canonicalAsin !== asked) || (foreignOffers > 0 && offers.length === 0);
  const result: OffersPage = { recognized: layout !== undefined && !anotherAsin, offers, foreignOffers, hasNextPage };
  if (layout !== undefined) result.layout = layout;
  if (totalOffers !== undefined) result.totalOffers = totalOffers;
  const location = headerLocation(...deliveryLines);
  if (location !== undefined) result.deliverTo = location;
  return result;
}
