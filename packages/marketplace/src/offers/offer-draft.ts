import type { PriceElement } from '../html/price-element.ts';

/** Everything seen inside one offer block; turned into an OfferItem when the block closes. */
export interface OfferDraft {
  buyBox: boolean;
  /** ASINs the offer's add-to-cart inputs and links name. */
  asins: Set<string>;
  /** `span.a-price` widgets inside the AOD price block (`#aod-offer-price`, `#aod-price-N`). */
  prices: PriceElement[];
  /** Widgets elsewhere in the block, used only when the price block has none. */
  otherPrices: PriceElement[];
  /** The screen-reader text of a 2024 price span (`span.apex-pricetopay-value`) that is no `a-price` widget. */
  apexPrice: string | undefined;
  /** The offer-listing page's plain price text (`span.olpOfferPrice`). */
  plainPrice: string | undefined;
  shippingText: string | undefined;
  /** A line saying delivery is free, where no charge is given (`FREE Shipping`). */
  freeShippingText: string | undefined;
  conditionText: string | undefined;
  conditionNote: string | undefined;
  shipsFrom: string | undefined;
  sellerName: string | undefined;
  sellerId: string | undefined;
  /** The sold-by row's text when it has no seller link (Amazon's own offers). */
  soldByText: string | undefined;
  fulfillmentBadge: boolean;
  prime: boolean;
  delivery: string | undefined;
}

export function newOfferDraft(buyBox: boolean): OfferDraft {
  return {
    buyBox,
    asins: new Set(),
    prices: [],
    otherPrices: [],
    apexPrice: undefined,
    plainPrice: undefined,
    shippingText: undefined,
    freeShippingText: undefined,
    conditionText: undefined,
    conditionNote: undefined,
    shipsFrom: undefined,
    sellerName: undefined,
    sellerId: undefined,
    soldByText: undefined,
    fulfillmentBadge: false,
    prime: false,
    delivery: undefined,
  };
}

/** The price to pay: the one marked so, else the first that is neither struck nor a secondary small price. */
export function pickOfferPrice(prices: readonly PriceElement[]): PriceElement | undefined {
  return prices.find((p) => p.toPay) ?? prices.find((p) => !p.strike && !p.textPrice);
}
