import type { MarketplaceDomain } from '@crawl/marketplace';
import type { SearchEntry, SearchResults } from '../catalog.ts';
import { deliveryLocation } from '../delivery-location.ts';
import { SEEDED_MARKET, type Market } from '../market.ts';
import { formatCount, localPrice } from '../money.ts';
import { hashString } from '../rng.ts';
import { storefrontProduct } from '../storefront-view.ts';
import { textsFor } from '../texts.ts';
import { esc } from './html.ts';
import { pageShell, type PageSize } from './page-shell.ts';
import type { PageShape } from './page-shapes.ts';
import { PRODUCT_LAYOUTS, productContent, type ProductLayout } from './product-layouts.ts';
import { topReviewsBlock } from './reviews-page.ts';
import { SEARCH_LAYOUTS, searchContent, type SearchCard, type SearchLayout } from './search-layouts.ts';

export interface RenderSearchOptions {
  keyword: string;
  /** 1-based; default 1. */
  page?: number;
  domain?: MarketplaceDomain;
  /** Default: chosen from the keyword, so a keyword always gets the same layout. */
  layout?: SearchLayout;
  size?: PageSize;
  /** What the bulk of a `full` page is made of (see PageShape); default `scripted`. */
  shape?: PageShape;
  /** Pages after this one are empty; default 7. */
  maxPages?: number;
  /** The storefront's `s=` order of the organic results (`price-asc-rank`, …); default relevance. */
  sort?: string;
  /** A storefront language from its switcher (`en_GB` on amazon.de); default the storefront's own. */
  language?: string;
  /** The chosen delivery location; the header names it. */
  deliveryZip?: string;
  /** A currency the shopper chose to see prices in (`TWD` on amazon.co.jp); default the storefront's. */
  currency?: string;
  /** What the products and results are at the moment (drift, overrides); default the catalog as generated. */
  market?: Market;
}

export interface RenderedPage {
  html: string;
  layout: string;
}

/**
 * The organic results of a page in the order `sort` (the storefront's `s=` value) asks for; the
 * ads and widgets keep their places. Unknown values (and relevance) leave the order as it is.
 */
export function sortResults(results: SearchResults, sort: string | undefined, domain: MarketplaceDomain, market: Market): SearchResults {
  const price = (asin: string): number => {
    const cents = market.product(asin)?.priceUsdCents;
    return cents === undefined ? Number.NaN : localPrice(cents, domain).minor;
  };
  const key: ((asin: string) => number) | undefined =
    sort === 'price-asc-rank'
      ? (asin) => price(asin)
      : sort === 'price-desc-rank'
        ? (asin) => -price(asin)
        : sort === 'review-rank'
          ? (asin) => -(market.product(asin)?.rating ?? 0)
          : sort === 'date-desc-rank'
            ? (asin) => hashString(asin, 5)
            : undefined;
  if (key === undefined) return results;
  const slots = results.entries.flatMap((entry, i) => (entry.sponsored ? [] : [i]));
  // Products without a price go last, as on the storefront.
  const sorted = slots
    .map((i) => results.entries[i] as SearchEntry)
    .sort((a, b) => {
      const [ka, kb] = [key(a.asin), key(b.asin)];
      if (Number.isNaN(ka) || Number.isNaN(kb)) return Number.isNaN(ka) ? (Number.isNaN(kb) ? 0 : 1) : -1;
      return ka - kb;
    });
  const entries = [...results.entries];
  slots.forEach((slot, i) => {
    entries[slot] = sorted[i] as SearchEntry;
  });
  return { ...results, entries };
}

export function searchLayoutFor(keyword: string): SearchLayout {
  return SEARCH_LAYOUTS[hashString(keyword.trim().toLowerCase(), 7) % SEARCH_LAYOUTS.length] as SearchLayout;
}

export function productLayoutFor(asin: string): ProductLayout {
  return PRODUCT_LAYOUTS[hashString(asin, 11) % PRODUCT_LAYOUTS.length] as ProductLayout;
}

/** Search results page for `keyword`, as the storefront of `domain` would render it. */
export function renderSearchPage(options: RenderSearchOptions): RenderedPage & { results: SearchResults } {
  const domain = options.domain ?? 'amazon.com';
  const page = options.page ?? 1;
  const layout = options.layout ?? searchLayoutFor(options.keyword);
  const texts = textsFor(domain, options.language);
  const market = options.market ?? SEEDED_MARKET;
  const results = sortResults(market.search(options.keyword, page, { maxPages: options.maxPages ?? 7 }), options.sort, domain, market);
  const cards: SearchCard[] = [];
  for (const entry of results.entries) {
    const product = market.product(entry.asin);
    if (!product) continue;
    const view = storefrontProduct(product, domain, options.language, options.currency);
    cards.push({
      view,
      sponsored: entry.sponsored,
      position: cards.length + 1,
      extras: market.cardExtras(entry.asin, view.price !== undefined),
      ...(entry.placement ? { placement: entry.placement } : {}),
    });
  }
  const organicPerPage = results.entries.filter((e) => !e.sponsored).length;
  const from = (page - 1) * organicPerPage + 1;
  const content = searchContent(
    {
      domain,
      texts,
      keyword: options.keyword,
      page,
      cards,
      ...(cards.length > 0 ? { resultsText: texts.results(from, from + organicPerPage - 1, formatCount(results.totalResults, domain)) } : {}),
      hasNextPage: results.hasNextPage,
      relatedSearches: results.relatedSearches,
    },
    layout,
  );
  const html = pageShell(
    {
      domain,
      texts,
      title: `Amazon.${domain.slice(7)} : ${options.keyword}`,
      size: options.size ?? 'full',
      ...(options.shape ? { shape: options.shape } : {}),
      variant: hashString(options.keyword) + page,
      bodyClass: 's-minimal',
      deliverTo: deliveryLocation(domain, options.deliveryZip),
    },
    content,
  );
  return { html, layout, results };
}

export interface RenderProductOptions {
  asin: string;
  domain?: MarketplaceDomain;
  /** Default: chosen from the ASIN, so a product always gets the same layout. */
  layout?: ProductLayout;
  size?: PageSize;
  /** What the bulk of a `full` page is made of (see PageShape); default `scripted`. */
  shape?: PageShape;
  /** A storefront language from its switcher (`en_GB` on amazon.de); default the storefront's own. */
  language?: string;
  /** The chosen delivery location; the header names it. */
  deliveryZip?: string;
  /** A currency the shopper chose to see prices in; default the storefront's. */
  currency?: string;
  /** What the product is at the moment (drift, overrides); default the catalog as generated. */
  market?: Market;
}

/** Product detail page, or undefined when the ASIN is not in the catalog. */
export function renderProductPage(options: RenderProductOptions): RenderedPage | undefined {
  const product = (options.market ?? SEEDED_MARKET).product(options.asin);
  if (!product) return undefined;
  const domain = options.domain ?? 'amazon.com';
  const layout = options.layout ?? productLayoutFor(options.asin);
  const view = storefrontProduct(product, domain, options.language, options.currency);
  const html = pageShell(
    {
      domain,
      texts: view.texts,
      title: `Amazon.${domain.slice(7)}: ${product.title} : ${view.categories[0]}`,
      size: options.size ?? 'full',
      ...(options.shape ? { shape: options.shape } : {}),
      variant: hashString(options.asin),
      bodyClass: 'dp',
      deliverTo: deliveryLocation(domain, options.deliveryZip),
      header: layout === 'facts' && !product.book ? 'newer' : 'classic',
      locationChosen: options.deliveryZip !== undefined,
      head: `<link rel="canonical" href="https://www.${domain}/dp/${esc(product.asin)}" />`,
    },
    // The top reviews follow the product's own blocks, as on the storefront (the reviews job reads them when the list is walled).
    withoutScripts(
      productContent(view, layout) + topReviewsBlock(product, domain, view.texts.language),
      options.size !== 'small' && options.shape === 'serialized-dom',
    ),
  );
  return { html, layout: product.book ? 'book' : layout };
}

export interface RenderHomeOptions {
  domain?: MarketplaceDomain;
  size?: PageSize;
  language?: string;
  /** The chosen delivery location; the header names it. */
  deliveryZip?: string;
}

/** The storefront's front page: the header (with the location widget) over a few placeholder cards. */
export function renderHomePage(options: RenderHomeOptions = {}): RenderedPage {
  const domain = options.domain ?? 'amazon.com';
  const texts = textsFor(domain, options.language);
  const cards = Array.from(
    { length: 4 },
    (_, i) => `<div class="a-cardui gw-card" id="gw-card-${i + 1}"><h2 class="a-color-base">${esc(`Amazon.${domain.slice(7)}`)}</h2></div>`,
  );
  const html = pageShell(
    {
      domain,
      texts,
      title: `Amazon.${domain.slice(7)}`,
      size: options.size ?? 'full',
      variant: hashString(domain),
      bodyClass: 'gw-page',
      deliverTo: deliveryLocation(domain, options.deliveryZip),
    },
    `<div id="gw-layout" class="gw-layout">${cards.join('')}</div>`,
  );
  return { html, layout: 'gateway' };
}

/** A DOM saved from a browser keeps no script or style: the content's own go too on such a page. */
function withoutScripts(content: string, saved: boolean): string {
  return saved ? content.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/g, '') : content;
}
