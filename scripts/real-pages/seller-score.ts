/**
 * Scores the seller profile parser on a real-page case whose JSON says `"kind": "seller"`
 * (docs/data.md, "Checking against real pages"), as offers-score.ts does the offers parser.
 */
import { parseSellerPage } from '../../packages/marketplace/src/index.ts';
import type { FieldCheck } from './compare.ts';
import { check } from './offers-score.ts';

export interface SellerCase {
  kind: 'seller';
  storefront: string;
  requested: { sellerId: string };
  expected: {
    blocked?: boolean;
    name?: string;
    ratingPercent?: number | null;
    ratingCount?: number | null;
    feedback?: Record<string, number> | null;
    businessName?: string | null;
    businessAddress?: string | null;
    storefrontUrl?: string | null;
  };
}

const FIELDS = ['name', 'ratingPercent', 'ratingCount', 'feedback', 'businessName', 'businessAddress', 'storefrontUrl'] as const;

export function scoreSellerCase(html: string, page: SellerCase): { recognized: boolean; rows: FieldCheck[] } {
  const { expected } = page;
  const read = parseSellerPage(html, { origin: `https://www.${page.storefront}`, sellerId: page.requested.sellerId, marketplace: page.storefront });
  if (expected.blocked) return { recognized: read.recognized, rows: [check('recognized', false, read.recognized)] };
  const rows = FIELDS.filter((field) => expected[field] !== undefined).map((field) => check(field, expected[field], read.seller?.[field]));
  return { recognized: read.recognized, rows };
}
