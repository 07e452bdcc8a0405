import type { PriceElement } from '../html/price-element.ts';
import type { ProductVariation } from './types.ts';

export const ASIN = /^[A-Z0-9]{10}$/;

/** Raw findings of one pass, written by the region handlers; `assembleProduct` turns them into ProductDetails. */
export interface Findings {
  pageAsin?: string;
  canonicalAsin?: string;
  title?: string;
  fallbackTitle?: string;
  byline?: string;
  poBrand?: string;
  prices: PriceElement[];
  legacyPrice?: string;
  legacyListPrice?: string;
  ratingTitle?: string;
  ratingText?: string;
  reviewText?: string;
  availability?: string;
  features: string[];
  mainImage?: string;
  images: string[];
  categories: string[];
  infoRows: { label: string; value: string }[];
  description?: string;
  seller?: string;
  merchantText?: string;
  variations: ProductVariation[];
}

export function newFindings(): Findings {
  return { prices: [], features: [], images: [], categories: [], infoRows: [], variations: [] };
}
