import type { MarketplaceDomain } from '@crawl/marketplace';
import type { FaultKind } from './faults.ts';
import { apiServicesPage, captchaPage, rateLimitedPage, robotCheckPage, serviceUnavailablePage } from './render/block-pages.ts';
import { interstitialPage, wafCaptchaPage, wafChallengePage } from './render/bot-manager-pages.ts';
import type { PageSize } from './render/page-shell.ts';
import { errorPage, promotionPage, signinPage } from './render/stand-in-pages.ts';

export interface FaultRequest {
  domain: MarketplaceDomain;
  /** Path plus query without `sim_*` parameters: where the page sends the browser back to. */
  returnPath: string;
  /** Makes the page's tokens: the same request (URL and attempt) gets the same ones. */
  tokenSeed: string;
  size: PageSize;
  language?: string;
  deliveryZip?: string;
  retryAfterSeconds: number;
}

export interface FaultResponse {
  status: number;
  body: string;
  headers: Record<string, string>;
}

/** The answer that stands in for the page asked for; `reset` has none (the socket is destroyed). */
export function faultResponse(fault: Exclude<FaultKind, 'reset'>, request: FaultRequest): FaultResponse {
  const page = (status: number, body: string, headers: Record<string, string> = {}): FaultResponse => ({ status, body, headers });
  switch (fault) {
    case 'captcha':
      return page(200, captchaPage(request.domain, request.returnPath));
    case 'robot':
      return page(200, robotCheckPage(request.returnPath));
    case 'api-services':
      return page(503, apiServicesPage());
    case '429':
      return page(429, rateLimitedPage(), { 'retry-after': String(request.retryAfterSeconds) });
    case '503':
      return page(503, serviceUnavailablePage());
    case 'interstitial':
      return page(200, interstitialPage(request.returnPath, request.tokenSeed));
    case 'challenge':
      return page(202, wafChallengePage(request.domain, request.tokenSeed), { 'x-amzn-waf-action': 'challenge' });
    case 'challenge-200':
      return page(200, wafChallengePage(request.domain, request.tokenSeed));
    case 'waf-captcha':
      return page(405, wafCaptchaPage(request.domain, request.tokenSeed), { 'x-amzn-waf-action': 'captcha' });
    case 'error-page':
      return page(200, errorPage(request.domain));
    case 'error-page-500':
      return page(500, errorPage(request.domain));
    case 'signin':
      return page(200, signinPage(request.domain, request.returnPath));
    case 'unrecognized':
      return page(
        200,
        promotionPage({
          domain: request.domain,
          size: request.size,
          ...(request.language !== undefined ? { language: request.language } : {}),
          ...(request.deliveryZip !== undefined ? { deliveryZip: request.deliveryZip } : {}),
        }),
      );
  }
}
