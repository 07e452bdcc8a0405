import { isAllowedCompletionHost, isAllowedMarketplaceHost, SUGGESTIONS_PATH } from '@crawl/marketplace';

/**
 * The URL rule of the fetcher: storefront hosts over https, plus the configured base origin and
 * `extraHosts` (e.g. the simulator on http://127.0.0.1:port). Nothing else, redirects included.
 */
export function allowedUrlRule(baseUrl: string, extraHosts: readonly string[]): (url: URL) => boolean {
  const base = new URL(baseUrl);
  const extras = [...extraHosts.map((h) => h.toLowerCase()), base.host.toLowerCase()];
  return (url) => {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
    if (url.username || url.password) return false;
    const host = url.host.toLowerCase();
    if (extras.includes(host)) return true;
    if (url.protocol !== 'https:') return false;
    // A storefront's suggestion host (`completion.amazon.de`) serves its search box's suggestions and nothing else fetched.
    return isAllowedMarketplaceHost(host) || (isAllowedCompletionHost(host) && url.pathname === SUGGESTIONS_PATH);
  };
}
