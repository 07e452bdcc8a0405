import type { Price } from '../price.ts';

export type BestsellerList = 'bestsellers' | 'new-releases' | 'movers-and-shakers';
export const BESTSELLER_LISTS: readonly BestsellerList[] = ['bestsellers', 'new-releases', 'movers-and-shakers'];

/** One level of a best-seller list's browse tree. */
export interface BestsellerCategory {
  name: string;
  /** Browse node id, when the tree's link names one (top categories are linked by slug only). */
  nodeId?: string;
}

export interface BestsellerItem {
  /** Place in the list: the card's badge (`#7`), else its place on the page after the pages before. */
  rank: number;
  asin: string;
  title: string;
  /** Canonical product URL on the page's origin: `${origin}/dp/${asin}`. */
  url: string;
  price?: Price;
  rating?: number;
  reviewCount?: number;
  image?: string;
  /** The fields of BESTSELLER_ITEM_FIELDS this card does not show. */
  missingFields: BestsellerItemField[];
}

/** The optional fields of a ranked item: those a card does not show are its `missingFields`. */
export const BESTSELLER_ITEM_FIELDS = ['price', 'rating', 'reviewCount', 'image'] as const satisfies readonly (keyof BestsellerItem)[];
export type BestsellerItemField = (typeof BESTSELLER_ITEM_FIELDS)[number];

export interface BestsellersPage {
  items: BestsellerItem[];
  /** The list's category as the page names it (the tree's selected entry, else the heading). */
  categoryName?: string;
  /** The browse tree from the top category down to the one shown (the "Any Department" root left out). */
  categoryPath?: BestsellerCategory[];
  /** ASINs the list names in its data beyond the rendered cards (the rest of the page loads later). */
  unrenderedCount: number;
  /**
   * The page is a best-seller list: ranked cards inside the list's frame, or the frame with its
   * browse tree or banner. False for anything else (a block, a sign-in page, a product page whose
   * carousels use the same card markup, a home page).
   */
  recognized: boolean;
}

export interface ParseBestsellersPageOptions {
  /** Storefront origin (`https://www.amazon.de`); item URLs are built on it. */
  origin: string;
  /** 1-based page of the list (50 items a page); ranks of cards without a badge follow from it. */
  page?: number;
  /** Marketplace domain (`amazon.de`) when `origin` does not identify one, e.g. the simulator. */
  marketplace?: string;
}
