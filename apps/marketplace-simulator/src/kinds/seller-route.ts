import { renderSellerPage, SELLER_LAYOUTS, type SellerLayout } from '../render/seller-page.ts';
import { sellerProfile } from '../seller-profiles.ts';
import { OFFER_SELLERS, sellerIdOf } from '../seller-ids.ts';
import type { KindPage, KindRequest, KindRoute } from './kind-route.ts';

// The profile and its older addresses.
const PROFILE_PATH = /^\/(?:sp|gp\/aag\/main|gp\/help\/seller\/at-a-glance\.html)(?:\/[^/]*)?\/?$/;

function sellerIdOfUrl(url: URL): string | undefined {
  const id = url.searchParams.get('seller') ?? url.searchParams.get('sellerID');
  return id === null ? undefined : id.toUpperCase();
}

/**
 * A seller's profile for any well-formed seller id. Its own blocked answer, for tests
 * (`sim_seller=other`): the profile of another seller, as a stale link or a redirect shows it.
 */
export const sellerRoute: KindRoute = {
  name: 'seller',
  matches: (pathname) => PROFILE_PATH.test(pathname),
  render(request: KindRequest): KindPage | undefined {
    const { url, domain } = request;
    const asked = sellerIdOfUrl(url);
    if (asked === undefined) return undefined;
    const shownId = url.searchParams.get('sim_seller') === 'other' ? sellerIdOf(OFFER_SELLERS.find((name) => sellerIdOf(name) !== asked) ?? 'other') : asked;
    const seller = sellerProfile(shownId, domain);
    if (seller === undefined) return undefined;
    const layout = SELLER_LAYOUTS.includes(request.layout as SellerLayout) ? (request.layout as SellerLayout) : undefined;
    const page = renderSellerPage({ seller, domain, size: request.size, layout, language: request.language, deliveryZip: request.deliveryZip });
    return { html: page.html, layout: page.layout };
  },
};
