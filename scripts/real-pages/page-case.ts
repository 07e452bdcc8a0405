/** One captured page of a real-page folder: what it is and what it shows (docs/data.md). */
export interface PageCase {
  source?: Record<string, unknown>;
  storefront: string;
  url?: string;
  requested: { kind: 'product'; asin?: string } | { kind: 'search'; keyword?: string };
  status?: number;
  headers?: Record<string, string>;
  year?: number;
  notes?: string;
  /** Why the page is kept but not scored (a capture damaged by whoever cut it down). */
  excluded?: string;
  expected: ExpectedProduct & ExpectedSearch & ExpectedBlock;
}

type Money = { amount: number; currency: string } | null;

/** Absent: not scored. Null: the page shows none, so the record must have none. */
export interface ExpectedProduct {
  asin?: string;
  title?: string;
  price?: Money;
  listPrice?: Money;
  brand?: string | null;
  authors?: string[] | null;
  rating?: number | null;
  reviewCount?: number | null;
  availability?: string | null;
  inStock?: boolean | null;
  featureCount?: number;
  firstFeature?: string;
  starHistogram?: Partial<Record<'fiveStar' | 'fourStar' | 'threeStar' | 'twoStar' | 'oneStar', number>> | null;
  badges?: string[];
  deliverTo?: string | null;
  coupon?: string | null;
  variationLabels?: string[];
  descriptionStart?: string | null;
  seller?: string | null;
  format?: string;
  currency?: string;
}

export interface ExpectedSearch {
  noResults?: boolean;
  organicCount?: number;
  items?: { asin: string; sponsored?: boolean; price?: Money; title?: string }[];
}

export interface ExpectedBlock {
  blocked?: boolean;
  reason?: string;
}
