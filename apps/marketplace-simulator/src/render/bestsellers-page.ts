import type { MarketplaceDomain } from '@crawl/marketplace';
import { type BrowseNode, LIST_LENGTH, LIST_PAGE_SIZE, rankedAsins } from '../category-nodes.ts';
import { deliveryLocation } from '../delivery-location.ts';
import type { Market } from '../market.ts';
import { hashString } from '../rng.ts';
import { storefrontProduct } from '../storefront-view.ts';
import { textsFor } from '../texts.ts';
import { BESTSELLERS_LAYOUTS, type BestsellersLayout, bestsellersContent, type RankedCard } from './bestsellers-layouts.ts';
import { listTextsFor } from './list-texts.ts';
import { pageShell, type PageSize } from './page-shell.ts';
import type { RenderedPage } from './pages.ts';

export interface RenderBestsellersOptions {
  node: BrowseNode;
  /** `bestsellers`, `new-releases` or `movers-and-shakers`. */
  list: string;
  /** 1 or 2 (50 a page); later pages are empty. */
  page: number;
  domain: MarketplaceDomain;
  size: PageSize;
  market: Market;
  /** Default: chosen from the node id, so a node always gets the same layout. */
  layout?: BestsellersLayout;
  language?: string;
  deliveryZip?: string;
  currency?: string;
}

export function bestsellersLayoutFor(nodeId: string): BestsellersLayout {
  return BESTSELLERS_LAYOUTS[hashString(nodeId, 31) % BESTSELLERS_LAYOUTS.length] as BestsellersLayout;
}

/** A page of a node's ranked list, its products the catalog's (the same titles and prices as their product pages). */
export function renderBestsellersPage(options: RenderBestsellersOptions): RenderedPage & { cards: RankedCard[] } {
  const { node, domain, market, page } = options;
  const layout = options.layout ?? bestsellersLayoutFor(node.nodeId);
  const texts = textsFor(domain, options.language);
  const asins = rankedAsins(node, options.list);
  const from = (page - 1) * LIST_PAGE_SIZE;
  const cards: RankedCard[] = [];
  for (let i = from; i < Math.min(from + LIST_PAGE_SIZE, LIST_LENGTH); i++) {
    const product = market.product(asins[i] as string);
    if (product) cards.push({ rank: i + 1, view: storefrontProduct(product, domain, options.language, options.currency) });
  }
  const content = bestsellersContent(
    { domain, list: options.list, node, page, cards, hasNextPage: from + LIST_PAGE_SIZE < LIST_LENGTH, texts: listTextsFor(texts.language) },
    layout,
  );
  const html = pageShell(
    {
      domain,
      texts,
      title: `Amazon.${domain.slice(7)} ${listTextsFor(texts.language).heading(options.list, node.name)}`,
      size: options.size,
      variant: hashString(node.nodeId) + page,
      bodyClass: 'zg-page',
      deliverTo: deliveryLocation(domain, options.deliveryZip),
    },
    content,
  );
  return { html, layout, cards };
}
