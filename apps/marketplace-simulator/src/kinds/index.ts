import type { KindRoute } from './kind-route.ts';
import { reviewsRoute } from './reviews-route.ts';
import { autocompleteRoute } from './autocomplete-route.ts';
import { bestsellersRoute } from './bestsellers-route.ts';
import { categoryRoute } from './category-route.ts';
import { offersRoute } from './offers-route.ts';
import { sellerRoute } from './seller-route.ts';

export type { KindPage, KindRequest, KindRoute } from './kind-route.ts';

/** The routes of the page kinds besides home, search and product pages, first match wins. */
export const KIND_ROUTES: readonly KindRoute[] = [
  // One entry per page kind: `<kind>Route,`
  reviewsRoute,
  bestsellersRoute,
  categoryRoute,
  autocompleteRoute,
  offersRoute,
  sellerRoute,
];

export function kindRouteOf(pathname: string): KindRoute | undefined {
  return KIND_ROUTES.find((route) => route.matches(pathname));
}
