import type { CatalogProduct } from './catalog.ts';
import { hashString, rngFor } from './rng.ts';
import { OFFER_SELLERS, sellerIdOf } from './seller-ids.ts';

export type SimCondition = 'new' | 'used' | 'collectible' | 'refurbished';
export const USED_GRADES = ['like_new', 'very_good', 'good', 'acceptable'] as const;
export type UsedGrade = (typeof USED_GRADES)[number];

/** One offer of a product, storefront-independent: prices in USD cents like the catalog's. */
export interface SimOffer {
  /** The ASIN the offer is of: the product's, or a sibling variation's on the wrong-child trap. */
  asin: string;
  /** Absent for Amazon's own offer. */
  seller?: string;
  priceUsdCents: number;
  /** 0: free delivery. */
  shippingUsdCents: number;
  condition: SimCondition;
  /** Used, collectible and renewed offers carry a grade; used and collectible ones a note. */
  grade?: UsedGrade;
  note?: number;
  fulfilledByAmazon: boolean;
  prime: boolean;
  /** Day of May 2024 it is delivered, as the product page's delivery lines count days. */
  deliveryDay: number;
}

export interface OfferListing {
  /** The buy box offer, consistent with the product page (its price and seller); none without a price. */
  pinned?: SimOffer;
  /** The other offers, cheapest landed price first; ten a page. */
  list: SimOffer[];
}

export const OFFERS_PER_PAGE = 10;

/**
 * A product's offers, the same on every call: the buy box is the product page's offer (its price,
 * its seller or Amazon, its Prime badge), and 0 to 24 other offers around its shelf price. A
 * product with variations lists one of a sibling's offers among its own, as the storefront's
 * all-offers view does for a parent: the trap of the wrong child ASIN.
 */
export function offerListing(product: CatalogProduct): OfferListing {
  const rng = rngFor('offers', product.asin);
  const base = product.priceUsdCents ?? rng.int(10, 200) * 100 + 99;
  const listing: OfferListing = { list: [] };
  if (product.priceUsdCents !== undefined) {
    const amazon = product.thirdPartySeller === undefined;
    listing.pinned = {
      asin: product.asin,
      ...(amazon ? {} : { seller: product.thirdPartySeller }),
      priceUsdCents: product.priceUsdCents,
      shippingUsdCents: 0,
      condition: 'new',
      fulfilledByAmazon: amazon || product.prime,
      prime: product.prime,
      deliveryDay: 29 + rng.int(0, 2),
    };
  }
  const count = rng.chance(0.15) ? 0 : rng.int(1, 24);
  for (let i = 0; i < count; i++) {
    const roll = rng.next();
    const condition: SimCondition = roll < 0.55 ? 'new' : roll < 0.88 ? 'used' : roll < 0.94 ? 'collectible' : 'refurbished';
    const factor = condition === 'new' ? rng.int(95, 125) : condition === 'collectible' ? rng.int(130, 250) : rng.int(55, 90);
    const fulfilledByAmazon = rng.chance(0.4);
    const offer: SimOffer = {
      asin: product.asin,
      seller: rng.pick(OFFER_SELLERS),
      priceUsdCents: Math.max(99, Math.round((base * factor) / 100 / 100) * 100 + rng.pick([99, 49, 0])),
      shippingUsdCents: fulfilledByAmazon || rng.chance(0.4) ? 0 : rng.pick([399, 499, 599, 899]),
      condition,
      fulfilledByAmazon,
      prime: fulfilledByAmazon && rng.chance(0.8),
      deliveryDay: 29 + rng.int(0, 2) + (fulfilledByAmazon ? 0 : rng.int(2, 6)),
    };
    if (condition !== 'new') offer.grade = rng.pick(USED_GRADES);
    if (condition === 'used' || condition === 'collectible') offer.note = rng.int(0, 3);
    listing.list.push(offer);
  }
  const sibling = product.variations.find((v) => v.asin !== product.asin);
  if (sibling !== undefined && listing.list.length > 0) {
    const trap = { ...(listing.list[0] as SimOffer), asin: sibling.asin, seller: OFFER_SELLERS[hashString(sibling.asin) % OFFER_SELLERS.length] };
    listing.list.splice(rng.int(0, listing.list.length), 0, trap);
  }
  listing.list.sort((a, b) => a.priceUsdCents + a.shippingUsdCents - (b.priceUsdCents + b.shippingUsdCents));
  return listing;
}

/** The offers a condition filter keeps (`undefined`: all). The pinned offer stays whatever the filter. */
export function filteredOffers(listing: OfferListing, condition: SimCondition | undefined): SimOffer[] {
  return condition === undefined ? listing.list : listing.list.filter((offer) => offer.condition === condition);
}

export function sellerIdOfOffer(offer: SimOffer): string | undefined {
  return offer.seller === undefined ? undefined : sellerIdOf(offer.seller);
}
