import type { SimCondition } from '../offers-catalog.ts';
import { AOD_LAYOUTS, type AodLayout } from '../render/offers-layouts.ts';
import { renderAodFragment, renderOfferListingPage, type RenderOffersOptions } from '../render/offers-page.ts';
import type { KindPage, KindRequest, KindRoute } from './kind-route.ts';

const AOD_PATH = /^\/gp\/product\/ajax\/aodAjaxMain\/?$/;
// `/gp/offer-listing/<ASIN>`, with a slug before it or a ref after it, as the storefront links it.
const LISTING_PATH = /^(?:\/[^/]+)?\/gp\/offer-listing\/([A-Za-z0-9]{10})(?:[/?]|$)/;
const ASIN = /^[A-Za-z0-9]{10}$/;
const USED_GRADE_KEYS: Readonly<Record<string, string>> = {
  usedLikeNew: 'like_new',
  usedVeryGood: 'very_good',
  usedGood: 'good',
  usedAcceptable: 'acceptable',
};

function asinOf(url: URL): string | undefined {
  const asin = AOD_PATH.test(url.pathname) ? url.searchParams.get('asin') : LISTING_PATH.exec(url.pathname)?.[1];
  return asin && ASIN.test(asin) ? asin.toUpperCase() : undefined;
}

function pageNumber(value: string | null, fallback: number): number {
  const page = Number(value ?? fallback);
  return Number.isInteger(page) && page >= 1 && page <= 100 ? page : fallback;
}

/**
 * The AOD's `filters` parameter, JSON such as `{"all":false,"new":true}` or the used grades
 * (`usedLikeNew`, `usedVeryGood`, `usedGood`, `usedAcceptable`); anything else, or `all`, is no filter.
 */
function aodFilter(value: string | null): Pick<RenderOffersOptions, 'condition' | 'usedGrades'> {
  if (value === null) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null) return {};
  const keys = Object.entries(parsed as Record<string, unknown>)
    .filter(([, on]) => on === true)
    .map(([key]) => key);
  if (keys.includes('new')) return { condition: 'new' };
  const grades = keys.map((key) => USED_GRADE_KEYS[key]).filter((grade) => grade !== undefined);
  return grades.length > 0 ? { condition: 'used', usedGrades: new Set(grades) } : {};
}

/** The offer-listing page's `f_new=true`, `f_used=true`, `f_collectible=true`, `f_refurbished=true`. */
function listingFilter(url: URL): SimCondition | undefined {
  for (const condition of ['new', 'used', 'collectible', 'refurbished'] as const) if (url.searchParams.get(`f_${condition}`) === 'true') return condition;
  return undefined;
}

/**
 * A product's offers: the all-offers display fragment and the older offer-listing page. Its own
 * blocked answers, for tests (`sim_offers=`): `other-asin`, the view of another ASIN (the wrong
 * child of a variation family), and `empty`, the empty fragment the view answers a session it
 * distrusts with.
 */
export const offersRoute: KindRoute = {
  name: 'offers',
  matches: (pathname) => AOD_PATH.test(pathname) || LISTING_PATH.test(pathname),
  faultKey(url) {
    const asin = asinOf(url);
    return asin === undefined ? {} : { asin };
  },
  render(request: KindRequest): KindPage | undefined {
    const { url } = request;
    const asin = asinOf(url);
    const product = asin === undefined ? undefined : request.market.product(asin);
    if (product === undefined) return undefined;
    const variant = url.searchParams.get('sim_offers');
    if (variant === 'empty') return { html: '', layout: 'empty' };
    const common = {
      product,
      domain: request.domain,
      size: request.size,
      market: request.market,
      language: request.language,
      currency: request.currency,
      deliveryZip: request.deliveryZip,
      otherAsin: variant === 'other-asin',
    };
    if (AOD_PATH.test(url.pathname)) {
      const layout = AOD_LAYOUTS.includes(request.layout as AodLayout) ? (request.layout as AodLayout) : undefined;
      const page = renderAodFragment({
        ...common,
        page: pageNumber(url.searchParams.get('pageno'), 1),
        ...aodFilter(url.searchParams.get('filters')),
        ...(layout ? { layout } : {}),
      });
      return { html: page.html, layout: `aod-${page.layout}` };
    }
    const startIndex = Number(url.searchParams.get('startIndex') ?? '0');
    const page = Number.isInteger(startIndex) && startIndex >= 0 ? Math.floor(startIndex / 10) + 1 : 1;
    return renderOfferListingPage({ ...common, page, condition: listingFilter(url) });
  },
};
