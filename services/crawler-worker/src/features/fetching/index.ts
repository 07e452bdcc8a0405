/**
 * Fetching marketplace pages: the fetcher and the URLs it may request, browser sessions (header
 * profile, cookie jar, egress identity), the upstream client (rate slot, retries, block detection)
 * with the tries of a page, and the storefront's delivery location set on a session.
 */
export { allowedUrlRule } from './allowed-urls.ts';
export { deliveryLocationKey, setDeliveryLocation } from './delivery-location.ts';
export { UndiciPageFetcher, type FetchedPage } from './page-fetcher.ts';
export { PageTries, type TryStep } from './page-tries.ts';
export { SessionPool, type CrawlSession } from './session-pool.ts';
export { classifyResponse, UpstreamClient, type GetPageInput, type PageOutcome, type SessionHolder } from './upstream-client.ts';
