import { parseProductPage, parseSearchPage } from '@crawl/marketplace';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DRIFT,
  SPECIAL_ASINS,
  WELL_KNOWN_ASINS,
  changedFields,
  getProduct,
  marketAt,
  renderProductPage,
  renderSearchPage,
  searchCatalog,
  stepAt,
  type CatalogProduct,
  type MarketSettings,
} from '../src/index.ts';

const ORIGIN = 'http://127.0.0.1:4010';
const HOUR = 3_600_000;
const START = Date.UTC(2026, 0, 1);
const DRIFTING: MarketSettings = { seed: 1, drift: DEFAULT_DRIFT };

/** About 1,600 catalog products: every result of a few keywords over all their pages. */
const SAMPLE: string[] = (() => {
  const asins = new Set<string>();
  for (const keyword of ['laptop', 'kettle', 'headphones', 'drill', 'lego', 'shoes', 'coffee', 'phone case'])
    for (let page = 1; page <= 7; page++) for (const entry of searchCatalog(keyword, page, { maxPages: 7 }).entries) asins.add(entry.asin);
  return [...asins];
})();

const at = (hours: number): Date => new Date(START + hours * HOUR);
const productAt = (asin: string, hours: number, settings: MarketSettings = DRIFTING): CatalogProduct | undefined =>
  marketAt(settings, 'amazon.com', at(hours)).product(asin);

/** The products whose page data differ between two hours. */
function changedBetween(a: number, b: number, settings: MarketSettings = DRIFTING): string[] {
  const before = marketAt(settings, 'amazon.com', at(a));
  const after = marketAt(settings, 'amazon.com', at(b));
  return SAMPLE.filter((asin) => JSON.stringify(before.product(asin)) !== JSON.stringify(after.product(asin)));
}

describe('catalog drift', () => {
  it('is the generated catalog when off, at any time', () => {
    const asin = SAMPLE[3]!;
    for (const hours of [0, 1, 5000]) expect(productAt(asin, hours, { seed: 1 })).toEqual(getProduct(asin));
    expect(changedBetween(0, 24 * 30, { seed: 1 })).toEqual([]);
  });

  it('gives the same product for the same seed and step, within the step and across reads', () => {
    const step = stepAt(at(10), HOUR);
    expect(stepAt(new Date(at(10).getTime() + HOUR - 1), HOUR)).toBe(step);
    for (const asin of SAMPLE.slice(0, 300)) {
      expect(productAt(asin, 10)).toEqual(productAt(asin, 10));
      expect(marketAt(DRIFTING, 'amazon.com', new Date(at(10).getTime() + HOUR - 1)).product(asin)).toEqual(productAt(asin, 10));
    }
    const page = (hours: number) => renderProductPage({ asin: SAMPLE[7]!, size: 'small', market: marketAt(DRIFTING, 'amazon.com', at(hours)) })!.html;
    expect(page(10)).toBe(page(10));
    const search = (hours: number) => renderSearchPage({ keyword: 'kettle', size: 'small', market: marketAt(DRIFTING, 'amazon.com', at(hours)) }).html;
    expect(search(10)).toBe(search(10));
  });

  it('changes only a small share of the products from one step to the next, and only those with a change due', () => {
    for (const hours of [0, 1, 2, 17, 100, 1000]) {
      const changed = changedBetween(hours, hours + 1);
      const share = changed.length / SAMPLE.length;
      expect(share, `step ${hours}`).toBeGreaterThan(0.015);
      expect(share, `step ${hours}`).toBeLessThan(0.08);
      const step = stepAt(at(hours + 1), HOUR);
      for (const asin of changed) expect(changedFields({ seed: 1, asin, changeShare: 0.05 }, step), asin).not.toEqual([]);
    }
    // Over a month most products have moved at least once.
    expect(changedBetween(0, 24 * 30).length / SAMPLE.length).toBeGreaterThan(0.5);
  });

  it('drifts differently under another seed', () => {
    expect(changedBetween(0, 0, { seed: 2, drift: DEFAULT_DRIFT })).toEqual([]);
    const one = marketAt(DRIFTING, 'amazon.com', at(50));
    const two = marketAt({ seed: 2, drift: DEFAULT_DRIFT }, 'amazon.com', at(50));
    const differ = SAMPLE.filter((asin) => JSON.stringify(one.product(asin)) !== JSON.stringify(two.product(asin)));
    expect(differ.length).toBeGreaterThan(SAMPLE.length / 10);
  });

  it('moves prices, stock, sellers, coupons, deals and ranks over a few days, each away from the seeded value and back', () => {
    const seen = { sale: 0, raise: 0, stockOut: 0, restock: 0, lowStock: 0, seller: 0, coupon: 0, deal: 0, rank: 0 };
    for (let hours = 0; hours < 72; hours++) {
      const before = marketAt(DRIFTING, 'amazon.com', at(hours));
      const after = marketAt(DRIFTING, 'amazon.com', at(hours + 1));
      for (const asin of SAMPLE) {
        const [a, b] = [before.product(asin)!, after.product(asin)!];
        if (a.priceUsdCents !== undefined && b.priceUsdCents !== undefined) {
          if (b.priceUsdCents < a.priceUsdCents) seen.sale++;
          if (b.priceUsdCents > a.priceUsdCents) seen.raise++;
        }
        if (a.stock !== 'unavailable' && b.stock === 'unavailable') {
          seen.stockOut++;
          expect(b.priceUsdCents).toBeUndefined();
          expect(b.couponPercent).toBeUndefined();
          expect(b.deal).toBe(false);
        }
        if (a.stock === 'unavailable' && b.stock !== 'unavailable') {
          seen.restock++;
          expect(b.priceUsdCents).toBeGreaterThan(0);
        }
        if (a.stock !== 'low_stock' && b.stock === 'low_stock') seen.lowStock++;
        if (a.thirdPartySeller !== b.thirdPartySeller) seen.seller++;
        if (a.couponPercent !== b.couponPercent && a.stock !== 'unavailable' && b.stock !== 'unavailable') seen.coupon++;
        if (a.deal !== b.deal && a.stock !== 'unavailable' && b.stock !== 'unavailable') seen.deal++;
        if (a.ranks[0] !== b.ranks[0]) seen.rank++;
      }
    }
    for (const [kind, count] of Object.entries(seen)) expect(count, kind).toBeGreaterThan(10);
    // A moved field comes back to the seeded value at its next change.
    const asin = SAMPLE.find((a) => productAt(a, 0)!.priceUsdCents !== getProduct(a)!.priceUsdCents && getProduct(a)!.stock === 'in_stock')!;
    const back = Array.from({ length: 400 }, (_, h) => productAt(asin, h)!).find(
      (p) => p.stock === 'in_stock' && p.priceUsdCents === getProduct(asin)!.priceUsdCents,
    );
    expect(back).toBeDefined();
  });

  it('keeps the well-known ASINs in stock with a price, and the special ASINs as they are', () => {
    for (let hours = 0; hours < 24 * 14; hours += 7) {
      const market = marketAt(DRIFTING, 'amazon.com', at(hours));
      for (const asin of WELL_KNOWN_ASINS) {
        const product = market.product(asin)!;
        expect(product.stock, asin).not.toBe('unavailable');
        expect(product.priceUsdCents, asin).toBeGreaterThan(0);
      }
      for (const asin of Object.values(SPECIAL_ASINS)) expect(market.product(asin), asin).toEqual(getProduct(asin));
    }
    expect(WELL_KNOWN_ASINS.some((asin) => Array.from({ length: 24 * 14 }, (_, h) => productAt(asin, h)!.stock).includes('low_stock'))).toBe(true);
  });

  it('shows a drifted product the same on its page and on its search card, as the parsers read them', () => {
    const keyword = 'kettle';
    // Find an hour at which some card of the first page has a drifted price.
    for (let hours = 0; hours < 48; hours++) {
      const market = marketAt(DRIFTING, 'amazon.com', at(hours));
      const rendered = renderSearchPage({ keyword, layout: 'classic', size: 'small', market });
      const moved = rendered.results.entries.find(
        (e) =>
          !e.sponsored && market.product(e.asin)!.priceUsdCents !== undefined && market.product(e.asin)!.priceUsdCents !== getProduct(e.asin)!.priceUsdCents,
      );
      if (!moved) continue;
      const card = parseSearchPage(rendered.html, { origin: ORIGIN, marketplace: 'amazon.com' }).items.find((item) => item.asin === moved.asin)!;
      const page = parseProductPage(renderProductPage({ asin: moved.asin, size: 'small', market })!.html, { origin: ORIGIN, marketplace: 'amazon.com' });
      expect(card.price?.amount).toBe(market.product(moved.asin)!.priceUsdCents! / 100);
      expect(page.price?.amount).toBe(card.price?.amount);
      expect(page.price?.amount).not.toBe(getProduct(moved.asin)!.priceUsdCents! / 100);
      return;
    }
    throw new Error('no drifted price on the first page in two days');
  });

  it("shuffles a keyword's organic results a little, keeping the ads, the page sizes and the set of products", () => {
    const organic = (hours: number | undefined, page: number): string[] => {
      const market = hours === undefined ? undefined : marketAt(DRIFTING, 'amazon.com', at(hours));
      const results = market ? market.search('laptop', page, { maxPages: 7 }) : searchCatalog('laptop', page, { maxPages: 7 });
      return results.entries.filter((e) => !e.sponsored).map((e) => e.asin);
    };
    const sponsored = (hours: number) =>
      marketAt(DRIFTING, 'amazon.com', at(hours))
        .search('laptop', 1, { maxPages: 7 })
        .entries.filter((e) => e.sponsored);
    const all = (hours: number | undefined) => Array.from({ length: 7 }, (_, i) => organic(hours, i + 1));
    const seeded = all(undefined);
    const drifted = all(30);
    expect(drifted.map((p) => p.length)).toEqual(seeded.map((p) => p.length));
    expect(new Set(drifted.flat())).toEqual(new Set(seeded.flat()));
    expect(drifted.flat()).not.toEqual(seeded.flat());
    expect(sponsored(30)).toEqual(searchCatalog('laptop', 1, { maxPages: 7 }).entries.filter((e) => e.sponsored));
    // From one step to the next only a few places change.
    const [a, b] = [all(30).flat(), all(31).flat()];
    const moved = a.filter((asin, i) => b[i] !== asin).length;
    expect(moved).toBeLessThan(a.length / 4);
  });
});
