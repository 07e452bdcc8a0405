import { CrawlClient } from '@crawl/sdk';
import { currentToken } from '../auth/session.ts';

/**
 * The API client of the whole dashboard. Same origin as the page (the gateway serves both), so no
 * CORS and no cookie: the bearer token comes from the session on every request. A 429 or 503 is
 * retried once after its Retry-After; longer waits are shown to the user as they are.
 */
export const api = new CrawlClient({
  baseUrl: globalThis.location?.origin ?? 'http://localhost:3000',
  token: () => currentToken(),
  retry: { retries: 1, maxRetryAfterMs: 5_000 },
});
