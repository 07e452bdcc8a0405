import { type MarketplaceDomain, marketplaceForOrigin, suggestionsUrl as completionUrl } from '@crawl/marketplace';
import type { Storefront } from './marketplace-origin.ts';

function withQuery(base: string, query: Record<string, string>): string {
  const params = new URLSearchParams(query).toString();
  return params ? `${base}${base.includes('?') ? '&' : '?'}${params}` : base;
}

/** `GET {origin}/gp/<list>/<node>` (and `?pg=2` for ranks 51–100): the node's ranked list. */
export function bestsellersUrl(store: Storefront, list: string, nodeId: string, page: number): string {
  return withQuery(`${store.origin}/gp/${list}/${encodeURIComponent(nodeId)}`, { ...(page > 1 ? { pg: String(page) } : {}), ...store.query });
}

/** `GET {origin}/s?rh=n:<node>` (`&page=N` after the first, `&s=` for a sort in the store's query): the node's listing. */
export function categoryUrl(store: Storefront, nodeId: string, page: number): string {
  return withQuery(`${store.origin}/s`, { rh: `n:${nodeId}`, ...(page > 1 ? { page: String(page) } : {}), ...store.query });
}

/**
 * The suggestions for `prefix`: on a storefront origin its completion host, on any other (the
 * simulator) the same path at that origin, with the store's query (`domain=`) along.
 */
export function suggestionsUrl(store: Storefront, prefix: string): string {
  const domain = (store.domain ?? marketplaceForOrigin(store.origin)?.domain ?? 'amazon.com') as MarketplaceDomain;
  const { language, ...rest } = store.query;
  return withQuery(completionUrl(store.origin, domain, prefix, language), rest);
}
