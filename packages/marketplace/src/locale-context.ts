import type { PageText } from './html/page-text.ts';
import { MARKETPLACES, marketplaceById, marketplaceDomainOf, marketplaceForOrigin, type Marketplace } from './marketplaces.ts';
import type { PriceHint } from './price.ts';

// Where a page names its own storefront: the page-metrics bootstrap (`ue_mid = '…'`) or the data of
// its widgets (`"marketplaceId":"…"`), both near the top. Bounded, so the look stays O(1) in page size.
const OWN_MARKETPLACE = /\bue_mid\s*=\s*["']([A-Z0-9]{9,14})["']|"(?:obfuscatedMarketplaceId|marketplaceId)"\s*:\s*"([A-Z0-9]{9,14})"/;
const OWN_MARKETPLACE_CHARS = 256 * 1024;

/** The storefront the page says it is from, by the marketplace id in its own data. */
export function ownMarketplace(page: PageText): Marketplace | undefined {
  const head = page.text.length > OWN_MARKETPLACE_CHARS ? page.text.slice(0, OWN_MARKETPLACE_CHARS) : page.text;
  const match = OWN_MARKETPLACE.exec(head);
  const id = match?.[1] ?? match?.[2];
  return id === undefined ? undefined : marketplaceById(id);
}

/**
 * Marketplace a page belongs to, and so its currency and number format: what the page says of
 * itself first (a page of amazon.com.mx prints pesos as `$`, whatever origin fetched it), then the
 * explicit `marketplace` option (the simulator runs on 127.0.0.1, whose origin says nothing), then
 * the origin's host.
 */
export function pageMarketplace(origin: string, marketplace?: string, page?: PageText): Marketplace | undefined {
  const own = page === undefined ? undefined : ownMarketplace(page);
  if (own !== undefined) return own;
  const named = marketplaceDomainOf(marketplace);
  if (named !== undefined) return MARKETPLACES[named];
  return marketplaceForOrigin(origin);
}

export function priceHintFor(marketplace: Marketplace | undefined): PriceHint {
  return marketplace ? { currency: marketplace.currency, locale: marketplace.defaultLang } : {};
}
