import type { PriceElement } from '../html/price-element.ts';
import type { BreadcrumbCategory, Contributor, ProductBadge, ProductVariation } from './types.ts';

export const ASIN = /^[A-Z0-9]{10}$/;

/** Raw findings of one pass, written by the region handlers; `assembleProduct` turns them into ProductDetails. */
export interface Findings {
  pageAsin?: string;
  canonicalAsin?: string;
  /** The ASIN the title's widget names (`#title_feature_div[data-csa-c-asin]`). */
  widgetAsin?: string;
  title?: string;
  fallbackTitle?: string;
  byline?: string;
  poBrand?: string;
  parentAsin?: string;
  authors: Contributor[];
  /** Format picker entries: name, price text, selected. */
  formats: { name: string; price?: string; selected: boolean }[];
  /** `#productSubtitle` / `#productBinding`: `Kindle Edition`, `Paperback – June 5, 2018`. */
  subtitle?: string;
  /** The first secondary span beside the title in its heading (`Paperback`), on book pages. */
  headingFormat?: string;
  /** Every `a-price` of the price regions, with the label of the table row it sits in (apex). */
  prices: (PriceElement & { rowLabel?: string })[];
  savingsPercentText?: string;
  coupon?: string;
  deal?: string;
  delivery?: string;
  deliveryBlock?: string;
  otherOffersText?: string;
  shipsFrom?: string;
  prime: boolean;
  histogram: { stars?: number | undefined; percent?: number | undefined; text: string }[];
  videoThumbs: number;
  videoCountText?: string;
  gallery: boolean;
  breadcrumbs: BreadcrumbCategory[];
  badges: ProductBadge[];
  /** The header's two delivery lines (`#glow-ingress-line1`, `-line2`), as shown. */
  deliveryLines: [string | undefined, string | undefined];
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
  /** Product information rows, the block they are in (technical details, the overview table) and their links. */
  infoRows: { label: string; value: string; section: 'details' | 'spec' | 'overview'; links: { text: string; href: string }[] }[];
  description?: string;
  seller?: string;
  merchantText?: string;
  variations: ProductVariation[];
}

export function newFindings(): Findings {
  return {
    authors: [],
    formats: [],
    prices: [],
    prime: false,
    histogram: [],
    videoThumbs: 0,
    gallery: false,
    breadcrumbs: [],
    badges: [],
    deliveryLines: [undefined, undefined],
    features: [],
    images: [],
    categories: [],
    infoRows: [],
    variations: [],
  };
}
