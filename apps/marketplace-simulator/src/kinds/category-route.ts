import { browseNode, NODE_ID } from '../category-nodes.ts';
import { LISTING_PAGES, renderCategoryListing } from '../render/category-listing.ts';
import { SEARCH_LAYOUTS, type SearchLayout } from '../render/search-layouts.ts';
import { textsFor } from '../texts.ts';
import type { KindPage, KindRequest, KindRoute } from './kind-route.ts';
import { listStandIn } from './list-blocks.ts';

// Browse pages: `/b?node=`, `/b/?node=`, `/<slug>/b?node=`.
const BROWSE_PATH = /^(?:\/[^/]+)?\/b\/?$/;
// In `rh`, the last `n:` is the deepest category (`n:172282,n:172541`).
const NODES_IN_REFINEMENTS = /(?:^|,)n:(\d{1,20})(?=,|$)/g;

/** The node a listing URL names (`node=` or `rh=n:`), if any. */
export function listedNode(url: URL): string | undefined {
  const node = url.searchParams.get('node');
  if (node !== null) return NODE_ID.test(node) ? node : undefined;
  return [...(url.searchParams.get('rh') ?? '').matchAll(NODES_IN_REFINEMENTS)].at(-1)?.[1];
}

/** A category listing for the node `nodeId`, or its stand-in (`sim_block=`). */
export function categoryListingPage(request: KindRequest, nodeId: string): KindPage {
  const { url } = request;
  const standIn = listStandIn(url, request.domain, request.size);
  if (standIn) return standIn;
  const page = Number(url.searchParams.get('page') ?? '1');
  const layout = SEARCH_LAYOUTS.includes(request.layout as SearchLayout) ? (request.layout as SearchLayout) : undefined;
  const sort = url.searchParams.get('s') ?? undefined;
  const rendered = renderCategoryListing({
    node: browseNode(nodeId, textsFor(request.domain, request.language).language),
    page: Number.isInteger(page) && page >= 1 && page <= LISTING_PAGES * 10 ? page : 1,
    domain: request.domain,
    size: request.size,
    market: request.market,
    ...(layout ? { layout } : {}),
    ...(sort ? { sort } : {}),
    ...(request.language ? { language: request.language } : {}),
    ...(request.deliveryZip ? { deliveryZip: request.deliveryZip } : {}),
    ...(request.currency ? { currency: request.currency } : {}),
  });
  return { html: rendered.html, layout: rendered.layout };
}

/** Browse pages (`/b?node=`): the node's listing. Results pages naming a node (`/s?rh=n:`) are served the same by the search route. */
export const categoryRoute: KindRoute = {
  name: 'category',
  matches: (pathname) => BROWSE_PATH.test(pathname),
  faultKey(url) {
    const nodeId = listedNode(url);
    return nodeId === undefined ? {} : { keyword: `node:${nodeId}` };
  },
  render(request: KindRequest): KindPage | undefined {
    const nodeId = listedNode(request.url);
    return nodeId === undefined ? undefined : categoryListingPage(request, nodeId);
  },
};
