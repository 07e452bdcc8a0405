import { MARKETPLACES, type MarketplaceDomain } from '@crawl/marketplace';
import { SELLERS } from './catalog.ts';
import { hashString } from './rng.ts';

const ID_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** A seller id as the storefronts print them: `A` and 13 capitals or digits, the same for a name every time. */
export function sellerIdOf(name: string): string {
  let id = 'A';
  for (let i = 0; id.length < 14; i++) id += ID_CHARS[hashString(`seller\u0000${name}\u0000${i}`) % 36];
  return id;
}

/** A well-formed seller id, as the profile route serves any (`A` and 12 to 14 capitals or digits). */
export const SELLER_ID = /^A[A-Z0-9]{12,14}$/;

/** Third-party sellers of the all-offers view besides the buy box's: the catalog's and a few more. */
export const OFFER_SELLERS: readonly string[] = [
  ...SELLERS,
  'Harbourlight Outlet',
  'Kestrel Supply Co.',
  'Lindenhof Handel',
  'Vintage Shelf',
  'Renew Works',
  'Cobalt Corner',
  'Sakura Goods',
];

const BY_ID: ReadonlyMap<string, string> = new Map(OFFER_SELLERS.map((name) => [sellerIdOf(name), name]));

/** The catalog seller an id belongs to, if it is one of theirs. */
export function knownSellerName(id: string): string | undefined {
  return BY_ID.get(id);
}

/** Amazon's own seller id on a storefront: its marketplace id, as on the real storefronts. */
export function amazonSellerId(domain: MarketplaceDomain): string {
  return MARKETPLACES[domain].id;
}
