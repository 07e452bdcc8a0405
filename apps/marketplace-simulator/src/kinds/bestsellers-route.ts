import { browseNode } from '../category-nodes.ts';
import { BESTSELLERS_LAYOUTS, type BestsellersLayout } from '../render/bestsellers-layouts.ts';
import { renderBestsellersPage } from '../render/bestsellers-page.ts';
import { textsFor } from '../texts.ts';
import type { KindPage, KindRequest, KindRoute } from './kind-route.ts';
import { listStandIn } from './list-blocks.ts';

// `/zgbs/<slug>/<node>`, `/<Best-Sellers-X>/zgbs/<slug>/<node>`, `/gp/bestsellers/<slug>/<node>`, the
// new-release and movers lists alike, or without the slug (`/gp/bestsellers/<node>`), with a ref after;
// the node id is 1 to 20 digits.
const LIST_PATH = /^(?:\/[^/]+)?\/(zgbs|gp\/bestsellers|gp\/new-releases|gp\/movers-and-shakers)\/(?:[^/]+\/)?(\d{1,20})(?:\/|$)/;

function listOf(segment: string): string {
  return segment === 'gp/new-releases' ? 'new-releases' : segment === 'gp/movers-and-shakers' ? 'movers-and-shakers' : 'bestsellers';
}

/** A node's best-seller, new-release or movers list: the top 100, 50 a page (`?pg=2`). */
export const bestsellersRoute: KindRoute = {
  name: 'bestsellers',
  matches: (pathname) => LIST_PATH.test(pathname),
  faultKey(url) {
    const nodeId = LIST_PATH.exec(url.pathname)?.[2];
    return nodeId === undefined ? {} : { keyword: `node:${nodeId}` };
  },
  render(request: KindRequest): KindPage | undefined {
    const { url } = request;
    const match = LIST_PATH.exec(url.pathname);
    if (!match?.[1] || !match[2]) return undefined;
    const standIn = listStandIn(url, request.domain, request.size);
    if (standIn) return standIn;
    const page = Number(url.searchParams.get('pg') ?? '1');
    const layout = BESTSELLERS_LAYOUTS.includes(request.layout as BestsellersLayout) ? (request.layout as BestsellersLayout) : undefined;
    const rendered = renderBestsellersPage({
      node: browseNode(match[2], textsFor(request.domain, request.language).language),
      list: listOf(match[1]),
      page: Number.isInteger(page) && page >= 1 ? page : 1,
      domain: request.domain,
      size: request.size,
      market: request.market,
      ...(layout ? { layout } : {}),
      ...(request.language ? { language: request.language } : {}),
      ...(request.deliveryZip ? { deliveryZip: request.deliveryZip } : {}),
      ...(request.currency ? { currency: request.currency } : {}),
    });
    return { html: rendered.html, layout: rendered.layout };
  },
};
