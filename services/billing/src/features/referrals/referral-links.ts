import { BillingRoutes } from '@crawl/contracts';

/** What a request says about where the client reached the API (Fastify's view, X-Forwarded-* when TRUST_PROXY). */
export interface RequestOrigin {
  protocol: string;
  host: string;
}

/**
 * Absolute URLs for a referral code. The link is what people share, so it must open on its own: it
 * points at GET /referral/click?code=…, which records the click and says how to register. The base
 * is PUBLIC_BASE_URL when set (billing running behind a separate gateway sees only internal
 * addresses), otherwise the origin the request came in on.
 */
export function referralLinks(code: string, request: RequestOrigin, publicBaseUrl?: string) {
  const base = (publicBaseUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');
  return {
    link: `${base}${BillingRoutes.referralLink.url}?${new URLSearchParams({ code }).toString()}`,
    register: `${base}/auth/register`,
  };
}
