import { describe, expect, it } from 'vitest';
import { NOT_FOUND_PREFIX, SPECIAL_ASINS, WELL_KNOWN_ASINS, getProduct, isCatalogAsin, isKnownAsin, makeCatalogAsin, searchCatalog } from '../src/index.ts';

describe('catalog', () => {
  it('returns the same product for the same ASIN every time', () => {
    const asin = makeCatalogAsin(1, 'laptop|1|0');
    expect(getProduct(asin)).toEqual(getProduct(asin));
    expect(getProduct(asin)?.asin).toBe(asin);
    expect(getProduct('B0SIM00001')?.title).toBe(getProduct('B0SIM00001')?.title);
  });

  it('generates valid, self-checking ASINs', () => {
    const asin = makeCatalogAsin(3, 'seed');
    expect(asin).toMatch(/^B0[0-9A-Z]{8}$/);
    expect(isCatalogAsin(asin)).toBe(true);
    const tampered = asin.slice(0, 9) + (asin[9] === 'A' ? 'B' : 'A');
    expect(isCatalogAsin(tampered)).toBe(false);
    expect(getProduct(tampered)).toBeUndefined();
  });

  it('knows the well-known and special ASINs and nothing made up', () => {
    expect(WELL_KNOWN_ASINS).toHaveLength(50);
    for (const asin of WELL_KNOWN_ASINS) {
      const product = getProduct(asin);
      expect(product?.priceUsdCents).toBeGreaterThan(0);
      expect(product?.stock).toBe('in_stock');
    }
    for (const asin of Object.values(SPECIAL_ASINS)) expect(isKnownAsin(asin)).toBe(true);
    // A special ASIN is never also a generated one: it fails the check character, as B0BLOCKED1 does.
    for (const asin of Object.values(SPECIAL_ASINS)) expect(isCatalogAsin(asin), asin).toBe(false);
    expect(getProduct(SPECIAL_ASINS.noPrice)?.priceUsdCents).toBeUndefined();
    expect(getProduct(SPECIAL_ASINS.noPrice)?.stock).toBe('unavailable');
    for (const asin of [`${NOT_FOUND_PREFIX}OUND`, `${NOT_FOUND_PREFIX}0001`, 'B08N5WRWNW', 'B0SIM00051', '0316769487']) {
      expect(getProduct(asin)).toBeUndefined();
    }
  });

  it('searches deterministically with 16–48 result cards including sponsored ones, plus sponsored widgets', () => {
    for (const keyword of ['laptop', 'headphones', 'kettle', 'something else', 'dog toy']) {
      const first = searchCatalog(keyword, 1, { maxPages: 7 });
      expect(searchCatalog(keyword, 1, { maxPages: 7 })).toEqual(first);
      const cards = first.entries.filter((e) => e.placement === undefined);
      expect(cards.length).toBeGreaterThanOrEqual(16);
      expect(cards.length).toBeLessThanOrEqual(48);
      expect(first.entries.filter((e) => e.placement !== undefined).every((e) => e.sponsored)).toBe(true);
      expect(first.relatedSearches.length).toBeGreaterThanOrEqual(2);
      const sponsored = cards.filter((e) => e.sponsored).length;
      expect(sponsored).toBeGreaterThanOrEqual(2);
      expect(sponsored).toBeLessThanOrEqual(4);
      expect(first.hasNextPage).toBe(true);
      for (const entry of first.entries) expect(getProduct(entry.asin)).toBeDefined();
      expect(searchCatalog(keyword, 2, { maxPages: 7 }).entries.map((e) => e.asin)).not.toEqual(first.entries.map((e) => e.asin));
    }
  });

  it('has no results beyond the last page or for noresults keywords', () => {
    expect(searchCatalog('laptop', 7, { maxPages: 7 }).hasNextPage).toBe(false);
    expect(searchCatalog('laptop', 7, { maxPages: 7 }).entries.length).toBeGreaterThan(0);
    expect(searchCatalog('laptop', 8, { maxPages: 7 })).toEqual({ entries: [], relatedSearches: [], totalResults: 0, hasNextPage: false });
    expect(searchCatalog('noresults please', 1, { maxPages: 7 }).entries).toEqual([]);
  });

  it('keeps search results in the keyword category', () => {
    const results = searchCatalog('gaming laptop', 1, { maxPages: 7 });
    for (const entry of results.entries) expect(getProduct(entry.asin)?.category.path[1]).toBe('Laptops');
  });
});
