/**
 * Scores the offers parser on a real-page case whose JSON says `"kind": "offers"` (docs/data.md,
 * "Checking against real pages"): each expected value the JSON gives against what the parser read,
 * and a block page on not being recognised.
 */
import { parseOffersPage } from '../../packages/marketplace/src/index.ts';
import type { FieldCheck } from './compare.ts';

type Money = { amount: number; currency: string } | null;

/** One offer as read off the page by hand; absent keys are not scored, null: the offer shows none. */
export interface ExpectedOffer {
  position: number;
  buyBox?: boolean;
  sellerId?: string | null;
  sellerName?: string;
  price?: Money;
  shipping?: Money;
  condition?: string | null;
  fulfilledByAmazon?: boolean | null;
  prime?: boolean;
}

export interface OffersCase {
  kind: 'offers';
  storefront: string;
  requested: { asin: string };
  expected: { blocked?: boolean; totalOffers?: number | null; offerCount?: number; offers?: ExpectedOffer[] };
}

/** One expected value against what was read: right when both say the same (absent and null alike). */
export const check = (field: string, expected: unknown, actual: unknown): FieldCheck => ({
  field,
  expected,
  actual,
  right: JSON.stringify(expected ?? null) === JSON.stringify(actual ?? null),
});

const money = (price: { amount: number; currency: string } | undefined): Money =>
  price === undefined ? null : { amount: price.amount, currency: price.currency };

/** The checks of one case, and whether the parser recognised the page as the offers asked for. */
export function scoreOffersCase(html: string, page: OffersCase): { recognized: boolean; rows: FieldCheck[] } {
  const { expected } = page;
  const read = parseOffersPage(html, { origin: `https://www.${page.storefront}`, asin: page.requested.asin, marketplace: page.storefront });
  if (expected.blocked) return { recognized: read.recognized, rows: [check('recognized', false, read.recognized)] };
  const rows: FieldCheck[] = [];
  if (expected.totalOffers !== undefined) rows.push(check('totalOffers', expected.totalOffers, read.totalOffers));
  if (expected.offerCount !== undefined) rows.push(check('offerCount', expected.offerCount, read.offers.length));
  for (const want of expected.offers ?? []) {
    const offer = read.offers[want.position - 1];
    const at = `offer ${want.position}`;
    if (want.buyBox !== undefined) rows.push(check(`${at}.buyBox`, want.buyBox, offer?.buyBox));
    if (want.sellerId !== undefined) rows.push(check(`${at}.sellerId`, want.sellerId, offer?.sellerId));
    if (want.sellerName !== undefined) rows.push(check(`${at}.sellerName`, want.sellerName, offer?.sellerName));
    if (want.price !== undefined) rows.push(check(`${at}.price`, want.price, money(offer?.price)));
    if (want.shipping !== undefined) rows.push(check(`${at}.shipping`, want.shipping, money(offer?.shipping)));
    if (want.condition !== undefined) rows.push(check(`${at}.condition`, want.condition, offer?.condition));
    if (want.fulfilledByAmazon !== undefined) rows.push(check(`${at}.fulfilledByAmazon`, want.fulfilledByAmazon, offer?.fulfilledByAmazon));
    if (want.prime !== undefined) rows.push(check(`${at}.prime`, want.prime, offer?.prime));
  }
  return { recognized: read.recognized, rows };
}
