import type { Price } from '../price.ts';

export type OfferCondition = 'new' | 'used' | 'collectible' | 'refurbished';

/** One offer of a product's all-offers view, as the page shows it. */
export interface OfferItem {
  /** The product the offer is of: always the ASIN asked for (offers of another ASIN are dropped). */
  asin: string;
  /** 1-based place on this page, the buy-box offer first. */
  position: number;
  /** The offer pinned above the list: the one holding the buy box. */
  buyBox: boolean;
  sellerId?: string;
  sellerName?: string;
  price?: Price;
  /** Delivery charge; amount 0 when the offer says delivery is free. */
  shipping?: Price;
  /** price + shipping, in the price's currency. */
  landedPrice?: Price;
  condition?: OfferCondition;
  /** The condition heading as shown (`Used - Like New`). */
  conditionRaw?: string;
  conditionNote?: string;
  fulfilledByAmazon?: boolean;
  /** The "Ships from" value as shown. */
  shipsFrom?: string;
  prime: boolean;
  /** The delivery estimate as shown. */
  delivery?: string;
  /** The fields of OFFER_ITEM_FIELDS this offer does not show. */
  missingFields: OfferItemField[];
}

/** The optional fields of an offer: those it does not show are its `missingFields`. */
export const OFFER_ITEM_FIELDS = [
  'sellerId',
  'sellerName',
  'price',
  'shipping',
  'landedPrice',
  'condition',
  'conditionNote',
  'fulfilledByAmazon',
  'delivery',
] as const satisfies readonly (keyof OfferItem)[];
export type OfferItemField = (typeof OFFER_ITEM_FIELDS)[number];

export type OffersLayout = 'aod' | 'offer-listing';

export interface OffersPage {
  /**
   * The page is the all-offers view of the ASIN asked for: its frame (the AOD container or offer
   * list, the offer-listing page's list) is there, and it is not another ASIN's (offers or the
   * canonical link naming only other ASINs). False for any other page, never for "no offers".
   */
  recognized: boolean;
  layout?: OffersLayout;
  offers: OfferItem[];
  /** Offers of other ASINs (another variation's) the page listed; never taken as the asked one's. */
  foreignOffers: number;
  /** Offers of the list the view states (`aod-total-offer-count`; the pinned offer not counted). */
  totalOffers?: number;
  /** A further page of offers is linked (AOD's "show more", the offer-listing pagination). */
  hasNextPage: boolean;
  /** The delivery location the page header names (full pages only; the AOD fragment has no header). */
  deliverTo?: string;
}

export interface ParseOffersPageOptions {
  /** Storefront origin (`https://www.amazon.de`); links are made absolute on it. */
  origin: string;
  /** The ASIN asked for. */
  asin: string;
  /** Marketplace domain when `origin` does not identify one (the simulator). */
  marketplace?: string;
}
