/** A seller's profile page (`/sp?seller=<id>`), as it shows it. */
export interface SellerProfile {
  sellerId: string;
  name?: string;
  /** Positive feedback over the last 12 months, percent. */
  ratingPercent?: number;
  /** Ratings the summary line counts. */
  ratingCount?: number;
  /** Feedback counts per period, from the feedback table's count row. */
  feedback?: SellerFeedbackCounts;
  businessName?: string;
  /** The business address lines joined by `, `. */
  businessAddress?: string;
  /** The link to the seller's products (`/s?me=<id>`), absolute. */
  storefrontUrl?: string;
  /** The fields of SELLER_FIELDS this profile does not show. */
  missingFields: SellerField[];
}

export interface SellerFeedbackCounts {
  days30?: number;
  days90?: number;
  months12?: number;
  lifetime?: number;
}

export const SELLER_FIELDS = [
  'name',
  'ratingPercent',
  'ratingCount',
  'feedback',
  'businessName',
  'businessAddress',
  'storefrontUrl',
] as const satisfies readonly (keyof SellerProfile)[];
export type SellerField = (typeof SELLER_FIELDS)[number];

export type SellerLayout = 'classic' | 'redesign';

export interface SellerPage {
  /**
   * The page is the profile of the seller asked for: it shows the seller's name or feedback
   * summary, and names no other seller id in its own links. False for any other page.
   */
  recognized: boolean;
  layout?: SellerLayout;
  /** Present when recognized. */
  seller?: SellerProfile;
}

export interface ParseSellerPageOptions {
  /** Storefront origin; the storefront link is made absolute on it. */
  origin: string;
  /** The seller id asked for. */
  sellerId: string;
  marketplace?: string;
}
