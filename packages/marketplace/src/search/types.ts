import type { Price } from '../price.ts';

export interface SearchItem {
  asin: string;
  title: string;
  /** Canonical product URL on the page's origin: `${origin}/dp/${asin}`. */
  url: string;
  image?: string;
  price?: Price;
  /** Struck-through "List:"/"Was:" price. */
  listPrice?: Price;
  /**
   * 1-based position among the organic (non-sponsored) results of this page; undefined for
   * sponsored items. Ranks restart at 1 on every page — combine with `page` for a global order.
   */
  rank?: number;
  /** 1-based position among all items kept on this page, sponsored included. */
  position: number;
  sponsored: boolean;
  rating?: number;
  reviewCount?: number;
  prime: boolean;
  /** Badges on the card. */
  badges?: SearchBadge[];
  /** Coupon text as shown (`Save 15% with coupon`). */
  coupon?: string;
  /** Delivery promise as shown (`FREE delivery Tue, May 28`). */
  delivery?: string;
  /** Lower bound of the "bought in past month" count (`10K+ bought in past month` → 10000). */
  boughtInPastMonth?: number;
  /** Where a sponsored item is placed: above the organic results, among them, in a video or a brand widget. */
  placement?: SponsoredPlacement;
  keyword?: string;
  page?: number;
  /** The fields of SEARCH_ITEM_FIELDS this card does not show. */
  missingFields: SearchItemField[];
}

/** The optional fields of a search item: those a card does not show are its `missingFields`. */
export const SEARCH_ITEM_FIELDS = [
  'image',
  'price',
  'listPrice',
  'rating',
  'reviewCount',
  'badges',
  'coupon',
  'delivery',
  'boughtInPastMonth',
] as const satisfies readonly (keyof SearchItem)[];
export type SearchItemField = (typeof SEARCH_ITEM_FIELDS)[number];

export type SearchBadge = 'best_seller' | 'amazons_choice' | 'limited_time_deal';
export type SponsoredPlacement = 'top' | 'inline' | 'video' | 'brand';

export interface SearchPage {
  items: SearchItem[];
  /** The result-count line as shown, e.g. `1-16 of over 10,000 results for`. */
  totalResultsText?: string;
  /** The total the result-count line states (`over 10,000` → 10000): an estimate by the storefront. */
  totalResults?: number;
  /** The "Related searches" suggestions. */
  relatedSearches?: string[];
  /** The delivery location the page was rendered for, as the header shows it (`Berlin 10115`). */
  deliverTo?: string;
  hasNextPage: boolean;
  /**
   * The page is a result page: it has result cards, the results header (which also says when
   * nothing matched) or the result count. False: some other page (a block the detector does not
   * know, an error or sign-in page), never "no results".
   */
  recognized: boolean;
}

export interface ParseSearchPageOptions {
  /** Storefront origin (`https://www.amazon.de`); item URLs are built on it. */
  origin: string;
  keyword?: string;
  page?: number;
  /**
   * Marketplace domain (`amazon.de`) when `origin` does not identify one, e.g. the simulator.
   * Decides the currency assumed for a bare `$` and the number locale.
   */
  marketplace?: string;
}
