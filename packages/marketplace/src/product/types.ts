import type { Price } from '../price.ts';

export interface BestSellersRank {
  rank: number;
  category: string;
}

export interface ProductVariation {
  asin: string;
  /** Twister dimension, e.g. `size_name`, `color_name`. */
  dimension?: string;
  label?: string;
  /** True for the variation this page shows. */
  selected: boolean;
}

export interface ProductDetails {
  /** The page's own ASIN (it may differ from the requested one after a redirect to a variation). */
  asin: string;
  /** Empty string when the page shows no title (then the page is most likely not a product page). */
  title: string;
  /** Canonical product URL: `${origin}/dp/${asin}`. */
  url: string;
  brand?: string;
  /** The buy-box price; absent when there is no offer. */
  price?: Price;
  /** Struck-through "List Price"/"Was" price. */
  listPrice?: Price;
  /** Currency of `price` or `listPrice`, else of the marketplace. */
  currency?: string;
  rating?: number;
  reviewCount?: number;
  /** Availability message as shown (`In Stock`, `Auf Lager`, `Currently unavailable.`). */
  availability?: string;
  /** Read from `availability`; absent when the message is not recognised. */
  inStock?: boolean;
  /** "About this item" bullets. */
  features: string[];
  /** Image URLs reduced to the full-size original (rendition modifiers dropped), main image first. */
  images: string[];
  /** Breadcrumb from the top category down. */
  categories: string[];
  bestSellersRank?: BestSellersRank[];
  description?: string;
  seller?: string;
  variations?: ProductVariation[];
  /** Other "Product information" rows (label → value), e.g. `Item model number`. */
  details?: Record<string, string>;
}

export interface ParseProductPageOptions {
  /** Storefront origin (`https://www.amazon.de`); the product URL is built on it. */
  origin: string;
  /** ASIN that was requested; used when the page does not state its own. */
  asin?: string;
  /** Marketplace domain (`amazon.de`) when `origin` does not identify one, e.g. the simulator. */
  marketplace?: string;
}
