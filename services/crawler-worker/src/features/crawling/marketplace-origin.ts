import type { JobConfig } from '@crawl/contracts';
import { MARKETPLACES, marketplaceDomainOf, marketplaceForOrigin } from '@crawl/marketplace';

export interface Storefront {
  origin: string;
  /** Marketplace domain for the parsers (currency, number locale); undefined: from the origin. */
  domain: string | undefined;
  /** Query parameters every page URL carries: `domain` asks the simulator for that storefront. */
  query: Record<string, string>;
}

export type ResolvedMarketplace = ({ ok: true } & Storefront) | { ok: false; message: string };

/**
 * Where a job's pages come from. On a real storefront base, `config.domain` picks another
 * storefront (`amazon.de`). On any other base (the simulator, a test server) every request goes to
 * that base; the domain goes along as `?domain=` (the simulator serves that storefront) and tells
 * the parsers the currency and number locale.
 */
export function resolveMarketplace(baseUrl: string, config: Pick<JobConfig, 'domain'>): ResolvedMarketplace {
  const base = new URL(baseUrl);
  const baseMarketplace = marketplaceForOrigin(base.origin);
  const domain = config.domain === undefined ? undefined : marketplaceDomainOf(config.domain);
  if (config.domain !== undefined && domain === undefined)
    return { ok: false, message: `config.domain ${JSON.stringify(config.domain)} is not a supported marketplace` };
  if (baseMarketplace) {
    const chosen = domain ? MARKETPLACES[domain] : baseMarketplace;
    return { ok: true, origin: chosen.origin, domain: chosen.domain, query: {} };
  }
  return { ok: true, origin: base.origin, domain, query: domain ? { domain } : {} };
}

/** `GET {origin}/s?k=<keyword>` (and `&page=N` after the first page). */
export function searchUrl(store: Storefront, keyword: string, page: number): string {
  const query = new URLSearchParams({ k: keyword });
  if (page > 1) query.set('page', String(page));
  for (const [key, value] of Object.entries(store.query)) query.set(key, value);
  return `${store.origin}/s?${query.toString()}`;
}

/** `GET {origin}/dp/<ASIN>`: a URL target is never fetched as given, only its ASIN. */
export function productUrl(store: Storefront, asin: string): string {
  const query = new URLSearchParams(store.query).toString();
  return `${store.origin}/dp/${encodeURIComponent(asin)}${query ? `?${query}` : ''}`;
}
