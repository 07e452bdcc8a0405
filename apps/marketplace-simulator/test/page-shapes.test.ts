import { parseProductPage, parseSearchPage, type MarketplaceDomain } from '@crawl/marketplace';
import { describe, expect, it } from 'vitest';
import {
  PRODUCT_LAYOUTS,
  REAL_PAGE_SHAPES,
  SEARCH_LAYOUTS,
  WELL_KNOWN_ASINS,
  amountOf,
  getProduct,
  renderProductPage,
  renderSearchPage,
  storefrontProduct,
} from '../src/index.ts';

const ORIGIN = 'http://127.0.0.1:4010';
const DOMAINS: MarketplaceDomain[] = ['amazon.com', 'amazon.co.uk', 'amazon.es', 'amazon.in', 'amazon.co.jp'];

/** Share of the page's bytes inside script/style bodies, and bytes per start tag. */
function proportions(html: string): { rawShare: number; bytesPerTag: number } {
  let raw = 0;
  for (const match of html.matchAll(/<(script|style)\b[^>]*>([\s\S]*?)<\/\1>/g)) raw += (match[2] as string).length;
  const tags = (html.match(/<[a-zA-Z]/g) ?? []).length;
  return { rawShare: raw / html.length, bytesPerTag: html.length / tags };
}

describe('real-shaped pages', () => {
  it.each(REAL_PAGE_SHAPES)('%s pages have the proportions of captured pages', (shape) => {
    for (const html of [
      renderSearchPage({ keyword: 'wireless headphones', layout: 'classic', shape }).html,
      renderProductPage({ asin: WELL_KNOWN_ASINS[0] as string, layout: 'desktop', shape })!.html,
    ]) {
      const { rawShare, bytesPerTag } = proportions(html);
      expect(html.length).toBeGreaterThan(260_000);
      expect(html.length).toBeLessThan(3_200_000);
      expect(rawShare).toBeLessThanOrEqual(0.77);
      if (shape === 'serialized-dom') expect(html).not.toMatch(/<script|<style/);
      else expect(rawShare).toBeGreaterThan(0.1);
      expect(bytesPerTag).toBeGreaterThanOrEqual(140);
      if (shape === 'svg-heavy') expect(html.match(/<svg/g)?.length).toBeGreaterThan(100);
      if (shape === 'json-state') expect(html).toContain('<script type="application/json"');
    }
  });

  const searchCases = REAL_PAGE_SHAPES.flatMap((shape) => SEARCH_LAYOUTS.map((layout) => [shape, layout] as const));
  it.each(searchCases)('%s search page in the %s layout parses to what the simulator put on it', (shape, layout) => {
    for (const domain of DOMAINS) {
      const rendered = renderSearchPage({ keyword: 'laptop', page: 2, domain, layout, shape });
      const parsed = parseSearchPage(rendered.html, { origin: ORIGIN, marketplace: domain, keyword: 'laptop', page: 2 });
      expect(parsed.items.map((item) => [item.asin, item.title, item.price?.amount, item.sponsored])).toEqual(
        rendered.results.entries.map((entry) => {
          const view = storefrontProduct(getProduct(entry.asin)!, domain);
          return [entry.asin, view.product.title, view.price ? amountOf(view.price) : undefined, entry.sponsored];
        }),
      );
      // Every other field as on the small page of the same results, which round-trip.test.ts checks field by field.
      const small = renderSearchPage({ keyword: 'laptop', page: 2, domain, layout, size: 'small' });
      expect(parsed).toEqual(parseSearchPage(small.html, { origin: ORIGIN, marketplace: domain, keyword: 'laptop', page: 2 }));
    }
  });

  const productCases = REAL_PAGE_SHAPES.flatMap((shape) => PRODUCT_LAYOUTS.map((layout) => [shape, layout] as const));
  it.each(productCases)('%s product page in the %s layout parses to what the simulator put on it', (shape, layout) => {
    for (const [i, domain] of DOMAINS.entries()) {
      const asin = WELL_KNOWN_ASINS[i] as string;
      const parsed = parseProductPage(renderProductPage({ asin, domain, layout, shape })!.html, { origin: ORIGIN, marketplace: domain });
      const view = storefrontProduct(getProduct(asin)!, domain);
      expect([parsed.asin, parsed.title, parsed.brand, parsed.price?.amount, parsed.features, parsed.seller, parsed.availability]).toEqual([
        asin,
        view.product.title,
        view.product.brand,
        view.price ? amountOf(view.price) : undefined,
        view.product.features,
        view.seller,
        view.availability,
      ]);
      const small = renderProductPage({ asin, domain, layout, size: 'small' })!;
      expect(parsed).toEqual(parseProductPage(small.html, { origin: ORIGIN, marketplace: domain }));
    }
  });
});
