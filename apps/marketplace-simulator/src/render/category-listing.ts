import type { MarketplaceDomain } from '@crawl/marketplace';
import type { SearchEntry, SearchResults } from '../catalog.ts';
import { type BrowseNode, listingAsins } from '../category-nodes.ts';
import { deliveryLocation } from '../delivery-location.ts';
import type { Market } from '../market.ts';
import { formatCount } from '../money.ts';
import { hashString } from '../rng.ts';
import { storefrontProduct } from '../storefront-view.ts';
import { textsFor } from '../texts.ts';
import { esc } from './html.ts';
import { listTextsFor } from './list-texts.ts';
import { pageShell, type PageSize } from './page-shell.ts';
import { type RenderedPage, searchLayoutFor, sortResults } from './pages.ts';
import { type SearchCard, type SearchLayout, searchContent } from './search-layouts.ts';

/** A listing has as many pages as a search; 24 organic items a page. */
export const LISTING_PAGES = 7;
const PER_PAGE = 24;

export interface RenderCategoryListingOptions {
  node: BrowseNode;
  page: number;
  domain: MarketplaceDomain;
  size: PageSize;
  market: Market;
  /** Default: chosen from the node id as a keyword's is. */
  layout?: SearchLayout;
  /** The storefront's `s=` order (`price-asc-rank`, …); default featured. */
  sort?: string;
  language?: string;
  deliveryZip?: string;
  currency?: string;
}

/** The department list of the left column: the node's ancestors linked, the node itself in bold. */
function departments(node: BrowseNode, anyDepartment: string, title: string): string {
  const ancestors = node.path
    .slice(0, -1)
    .map(
      (level, depth) =>
        `<li${level.nodeId ? ` id="n/${level.nodeId}"` : ''} class="a-spacing-micro s-navigation-indent-${depth}"><span class="a-list-item"><a class="a-link-normal s-navigation-item" href="${esc(`/s?rh=n%3A${level.nodeId ?? hashString(level.slug)}&ref=lp_${node.nodeId}_sar`)}"><span class="a-size-base a-color-base">${esc(level.name)}</span></a></span></li>`,
    );
  const selected = `<li id="n/${node.nodeId}" class="a-spacing-micro s-navigation-indent-${node.path.length - 1}"><span class="a-list-item"><span class="a-size-base a-color-base a-text-bold">${esc(node.name)}</span></span></li>`;
  const any = `<li class="a-spacing-micro"><span class="a-list-item"><a class="a-link-normal s-navigation-item" href="/s?i=specialty-aps&amp;ref=nav_em_any"><span class="a-size-base a-color-base">‹ ${esc(anyDepartment)}</span></a></span></li>`;
  return `<div id="s-refinements" class="a-section a-spacing-none"><div id="departments" role="group" class="a-section a-spacing-none" aria-labelledby="n-title"><div id="n-title" class="a-section a-spacing-small"><span class="a-size-base a-color-base puis-bold-weight-text">${esc(title)}</span></div><ul class="a-unordered-list a-nostyle a-vertical a-spacing-medium">${any}${ancestors.join('')}${selected}</ul></div></div>`;
}

/** The listing's results in page order: two ads on top, one among the organic items. */
function listingResults(node: BrowseNode, page: number): SearchResults {
  if (page < 1 || page > LISTING_PAGES) return { entries: [], relatedSearches: [], totalResults: 0, hasNextPage: false };
  const { organic, sponsored } = listingAsins(node, page, PER_PAGE);
  const entries: SearchEntry[] = organic.map((asin) => ({ asin, sponsored: false }));
  entries.splice(0, 0, { asin: sponsored[0] as string, sponsored: true }, { asin: sponsored[1] as string, sponsored: true });
  entries.splice(8 + (hashString(node.nodeId, page) % 8), 0, { asin: sponsored[2] as string, sponsored: true });
  return { entries, relatedSearches: [], totalResults: PER_PAGE * LISTING_PAGES, hasNextPage: page < LISTING_PAGES };
}

/** A node's listing (`/s?rh=n:<node>`, `/b?node=<node>`): a results page in a search layout with the department list. */
export function renderCategoryListing(options: RenderCategoryListingOptions): RenderedPage & { results: SearchResults } {
  const { node, domain, market, page } = options;
  const layout = options.layout ?? searchLayoutFor(`node:${node.nodeId}`);
  const texts = textsFor(domain, options.language);
  const results = sortResults(listingResults(node, page), options.sort, domain, market);
  const cards: SearchCard[] = [];
  for (const entry of results.entries) {
    const product = market.product(entry.asin);
    if (!product) continue;
    const view = storefrontProduct(product, domain, options.language, options.currency);
    cards.push({ view, sponsored: entry.sponsored, position: cards.length + 1, extras: market.cardExtras(entry.asin, view.price !== undefined) });
  }
  const from = (page - 1) * PER_PAGE + 1;
  const content = searchContent(
    {
      domain,
      texts,
      keyword: node.name,
      page,
      cards,
      ...(cards.length > 0 ? { resultsText: texts.results(from, from + PER_PAGE - 1, formatCount(results.totalResults, domain)) } : {}),
      hasNextPage: results.hasNextPage,
      relatedSearches: [],
    },
    layout,
  );
  const words = listTextsFor(texts.language);
  const html = pageShell(
    {
      domain,
      texts,
      title: `Amazon.${domain.slice(7)} : ${node.name}`,
      size: options.size,
      variant: hashString(node.nodeId) + page,
      bodyClass: 's-minimal',
      deliverTo: deliveryLocation(domain, options.deliveryZip),
    },
    `${departments(node, words.anyDepartment, words.department)}${content}`,
  );
  return { html, layout, results };
}
