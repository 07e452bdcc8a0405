import { isMarketplaceDomain, MARKETPLACES, type MarketplaceDomain, marketplaceForOrigin } from '../marketplaces.ts';

// Each storefront answers its search box's suggestions from a host of its own,
// `completion.<domain>` (completion.amazon.com, completion.amazon.co.uk, completion.amazon.de, …),
// for the marketplace id in `mid`.
const COMPLETION_HOST = /^completion\.(amazon\.[a-z.]+)$/;
export const SUGGESTIONS_PATH = '/api/2017/suggestions';

/** The suggestion endpoint's host of a storefront. */
export function completionHost(domain: MarketplaceDomain): string {
  return `completion.${domain}`;
}

/** True for a storefront's suggestion host (`completion.amazon.de`) or one of `extraHosts` (the simulator). */
export function isAllowedCompletionHost(host: string, extraHosts: readonly string[] = []): boolean {
  const normalized = host.trim().toLowerCase().replace(/\.$/, '');
  if (extraHosts.some((extra) => extra.trim().toLowerCase() === normalized)) return true;
  const domain = COMPLETION_HOST.exec(normalized)?.[1];
  return domain !== undefined && isMarketplaceDomain(domain);
}

/**
 * The URL of the suggestions for `prefix` on `domain`'s storefront. `origin` is where the pages are
 * fetched from: a storefront's own origin means the storefront's completion host; any other (the
 * simulator) serves the endpoint itself, at the same path.
 */
export function suggestionsUrl(origin: string, domain: MarketplaceDomain, prefix: string, language?: string): string {
  const base = marketplaceForOrigin(origin) === undefined ? origin.replace(/\/+$/, '') : `https://${completionHost(domain)}`;
  const marketplace = MARKETPLACES[domain];
  const params = new URLSearchParams({
    limit: '11',
    prefix,
    alias: 'aps',
    'site-variant': 'desktop',
    mid: marketplace.id,
    lop: (language ?? marketplace.defaultLang).replace('-', '_'),
  });
  return `${base}${SUGGESTIONS_PATH}?${params.toString()}`;
}
