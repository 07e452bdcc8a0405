import { isMarketplaceDomain, MARKETPLACES, marketplaceForOrigin, type Marketplace } from './marketplaces.ts';
import type { PriceHint } from './price.ts';

/**
 * Marketplace a page belongs to: the explicit `marketplace` option wins (the simulator runs on
 * 127.0.0.1, whose origin says nothing), then the origin's host.
 */
export function pageMarketplace(origin: string, marketplace?: string): Marketplace | undefined {
  if (marketplace !== undefined) {
    const domain = marketplace.toLowerCase().replace(/^www\./, '');
    if (isMarketplaceDomain(domain)) return MARKETPLACES[domain];
  }
  return marketplaceForOrigin(origin);
}

export function priceHintFor(marketplace: Marketplace | undefined): PriceHint {
  return marketplace ? { currency: marketplace.currency, locale: marketplace.defaultLang } : {};
}
