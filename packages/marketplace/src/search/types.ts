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
  keyword?: string;
  page?: number;
}

export interface SearchPage {
  items: SearchItem[];
  /** The result-count line as shown, e.g. `1-16 of over 10,000 results for`. */
  totalResultsText?: string;
  hasNextPage: boolean;
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
