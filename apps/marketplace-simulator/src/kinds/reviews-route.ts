import { type ReviewQuery, reviewsWallOf, STAR_FILTERS, type StarFilter } from '../reviews-catalog.ts';
import { REVIEWS_LAYOUTS, type ReviewsLayout } from '../render/reviews-layouts.ts';
import { renderReviewsPage } from '../render/reviews-page.ts';
import { signinPage } from '../render/stand-in-pages.ts';
import type { KindPage, KindRequest, KindRoute } from './kind-route.ts';

// `/product-reviews/<ASIN>`, with a slug before it or a ref after it, as the storefront links them.
const REVIEWS_PATH = /^(?:\/[^/]+)?\/product-reviews\/([A-Za-z0-9]{10})(?:[/?]|$)/;
const SIGNIN_PATH = '/ap/signin';

function queryOf(url: URL): ReviewQuery {
  const filter = url.searchParams.get('filterByStar') ?? 'all_stars';
  return {
    filter: (STAR_FILTERS as readonly string[]).includes(filter) ? (filter as StarFilter) : 'all_stars',
    // Top reviews (most helpful) unless the shopper asked for the most recent, as on the storefront.
    sort: url.searchParams.get('sortBy') === 'recent' ? 'recent' : 'helpful',
    verifiedOnly: url.searchParams.get('reviewerType') === 'avp_only_reviews',
  };
}

function pageOf(url: URL): number {
  const page = Number(url.searchParams.get('pageNumber') ?? '1');
  return Number.isInteger(page) && page >= 1 && page <= 1000 ? page : 1;
}

/**
 * Whether this request meets the sign-in wall: the product's seeded wall, or `sim_signin=` for
 * tests (`all`: every page; `1`: every page past the first; `0`: none).
 */
function walled(url: URL, asin: string, page: number): boolean {
  const asked = url.searchParams.get('sim_signin');
  const wall = asked === 'all' ? 'every_page' : asked === '1' ? 'after_first_page' : asked === '0' ? 'none' : reviewsWallOf(asin);
  return wall === 'every_page' || (wall === 'after_first_page' && page > 1);
}

/** The storefront's redirect to its sign-in page, carrying where to come back to. */
function signinRedirect(url: URL): KindPage {
  const returnTo = `${url.pathname}${url.search}`;
  const location = `${SIGNIN_PATH}?openid.return_to=${encodeURIComponent(returnTo)}&openid.mode=checkid_setup&openid.assoc_handle=usflex`;
  return { html: '', layout: 'signin', status: 302, headers: { location } };
}

/** A product's review list, its sign-in wall, and the sign-in page the wall sends the shopper to. */
export const reviewsRoute: KindRoute = {
  name: 'reviews',
  matches: (pathname) => REVIEWS_PATH.test(pathname) || pathname === SIGNIN_PATH,
  faultKey(url) {
    const asin = REVIEWS_PATH.exec(url.pathname)?.[1]?.toUpperCase();
    return asin === undefined ? {} : { asin };
  },
  render(request: KindRequest): KindPage | undefined {
    const { url } = request;
    if (url.pathname === SIGNIN_PATH) return { html: signinPage(request.domain, url.searchParams.get('openid.return_to') ?? '/'), layout: 'signin' };
    const asin = REVIEWS_PATH.exec(url.pathname)?.[1]?.toUpperCase();
    if (asin === undefined || !request.market.product(asin)) return undefined;
    const page = pageOf(url);
    if (walled(url, asin, page)) return signinRedirect(url);
    const layout = REVIEWS_LAYOUTS.includes(request.layout as ReviewsLayout) ? (request.layout as ReviewsLayout) : undefined;
    const rendered = renderReviewsPage({
      asin,
      query: queryOf(url),
      page,
      domain: request.domain,
      size: request.size,
      market: request.market,
      ...(layout ? { layout } : {}),
      ...(request.language ? { language: request.language } : {}),
      ...(request.deliveryZip ? { deliveryZip: request.deliveryZip } : {}),
    });
    return rendered && { html: rendered.html, layout: rendered.layout };
  },
};
