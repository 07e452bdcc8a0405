import type { Price } from '../price.ts';

export interface BestSellersRank {
  rank: number;
  category: string;
  /** The category's best-sellers list, when the entry links to it. */
  link?: string;
}

/** One breadcrumb step: its name and the browse node it links to. */
export interface BreadcrumbCategory {
  name: string;
  /** Browse node id (`node=` of the link), when the link has one. */
  nodeId?: string;
  url?: string;
}

/** A contributor of a book, film or music (`Jane Doe (Author)`). */
export interface Contributor {
  name: string;
  /** As shown, without parentheses: `Author`, `Narrator`, `Illustrator`, `Autor`. */
  role?: string;
}

/** One format of a book or medium (Kindle, paperback, audiobook) as the format picker shows it. */
export interface ProductFormat {
  name: string;
  price?: Price;
  /** True for the format this page shows. */
  selected: boolean;
}

/** Share of ratings (percent, 0–100) per star count, as the histogram shows it. */
export interface StarHistogram {
  fiveStar?: number;
  fourStar?: number;
  threeStar?: number;
  twoStar?: number;
  oneStar?: number;
}

export interface Savings {
  /** The amount saved, when the page shows it (`You Save: $250.00`). */
  price?: Price;
  /** The percentage saved (`-25%`, `(25%)`), when the page shows it. */
  percent?: number;
}

/** The date the product was first offered, as shown and (when the wording is known) as ISO date. */
export interface FirstAvailable {
  raw: string;
  /** `YYYY-MM-DD`. */
  date?: string;
}

export type ProductBadge = 'amazons_choice' | 'best_seller' | 'climate_pledge_friendly' | 'small_business';

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
  /** Parent ASIN of the variation family. */
  parentAsin?: string;
  brand?: string;
  /** Contributors of the byline (books, media); absent when the byline names a brand. */
  authors?: Contributor[];
  manufacturer?: string;
  modelNumber?: string;
  /** The format of this page (`Kindle Edition`, `Paperback`, `Audible Audiobook`), books and media only. */
  format?: string;
  /** Every format the picker lists, with its price. */
  formats?: ProductFormat[];
  /**
   * The buy-box price of this format/variation; absent when there is no offer. For books and
   * digital editions it may come from a format price (`Kindle Price`) rather than an `a-price`.
   */
  price?: Price;
  /** Struck-through "List Price"/"Was" price. */
  listPrice?: Price;
  savings?: Savings;
  /** Coupon text as shown (`Apply 15% coupon`, `Save $5.00 with coupon`). */
  coupon?: string;
  /** Deal badge text (`Limited time deal`). */
  deal?: string;
  /** Currency of `price` or `listPrice`, else of the marketplace. */
  currency?: string;
  rating?: number;
  /** Number of ratings. */
  reviewCount?: number;
  starHistogram?: StarHistogram;
  /** Availability message as shown (`In Stock`, `Auf Lager`, `Currently unavailable.`). */
  availability?: string;
  /** Read from `availability`; absent when the message is not recognised. */
  inStock?: boolean;
  /** Whether the buy-box offer ships from the marketplace itself; absent without a "Ships from" statement. */
  fulfilledByAmazon?: boolean;
  /** The buy box's "Ships from" value. */
  shipsFrom?: string;
  /** A Prime badge on the buy-box offer; absent when there is no offer. */
  prime?: boolean;
  /** Delivery promise as shown (`FREE delivery Tuesday, May 28`). */
  delivery?: string;
  /** Offers of other sellers (`New (12) from $699.00`): the count shown. */
  otherOffersCount?: number;
  /** "About this item" bullets. */
  features: string[];
  /** Image URLs reduced to the full-size original (rendition modifiers dropped), main image first. */
  images: string[];
  /** Videos in the gallery; absent when the page has no gallery. */
  videoCount?: number;
  /** Breadcrumb from the top category down. */
  categories: string[];
  /** The breadcrumb with browse node ids. */
  breadcrumbs?: BreadcrumbCategory[];
  bestSellersRank?: BestSellersRank[];
  description?: string;
  /** The buy-box seller. */
  seller?: string;
  variations?: ProductVariation[];
  /** Other "Product information" rows (label → value), e.g. `Item model number`. */
  details?: Record<string, string>;
  /** Technical details and the product overview table (label → value). */
  specifications?: Record<string, string>;
  /** Dimensions as shown (`11.97 x 8.36 x 0.63 inches`). */
  dimensions?: string;
  /** Weight as shown (`2.8 Pounds`). */
  weight?: string;
  firstAvailable?: FirstAvailable;
  badges?: ProductBadge[];
  /** The delivery location the page was rendered for, as the header shows it (`Berlin 10115`). */
  deliverTo?: string;
  /** Fields of PRODUCT_FIELDS this page did not yield (the page lacks them, or the layout is unknown). */
  missingFields: string[];
}

export interface ParseProductPageOptions {
  /** Storefront origin (`https://www.amazon.de`); the product URL is built on it. */
  origin: string;
  /** ASIN that was requested; used when the page does not state its own. */
  asin?: string;
  /** Marketplace domain (`amazon.de`) when `origin` does not identify one, e.g. the simulator. */
  marketplace?: string;
}

/** A product page as read: the product, and whether the page is recognisably a product page at all. */
export interface ProductReading {
  product: ProductDetails;
  /** The page shows a product's identity (a title and its own ASIN); false: some other page. */
  recognized: boolean;
}
