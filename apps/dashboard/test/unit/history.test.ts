import type { HistoryPoint } from '@crawl/sdk';
import { describe, expect, it } from 'vitest';
import { chartSummary, rankFields, stepSeries, uplotData, withValues } from '../../src/format/history-series.ts';
import { asinFrom, latestFacts, productHref, windowQuery } from '../../src/format/product-values.ts';

const at = (hour: number) => `2026-03-01T${String(hour).padStart(2, '0')}:00:00.000Z`;
const seconds = (hour: number) => Date.parse(at(hour)) / 1000;
const point = (from: number, to: number, values: HistoryPoint['values']): HistoryPoint => ({ from: at(from), to: at(to), checks: 1, values });

describe('change points as chart data', () => {
  const points = [
    point(1, 3, { price: 10, currency: 'EUR', 'bestSellersRank:Toys': 5, rating: 4.5 }),
    point(4, 6, { price: null, currency: 'EUR', 'bestSellersRank:Toys': 7, 'bestSellersRank:Electronics': 90, rating: 4.5 }),
    point(8, 9, { price: 12.5, currency: 'EUR', 'bestSellersRank:Electronics': 80, rating: 'n/a' }),
  ];

  it('puts each point at its start and the last one also at its last check, so its step reaches it', () => {
    const series = stepSeries(points, ['price', 'rating']);
    expect(series.x).toEqual([seconds(1), seconds(4), seconds(8), seconds(9)]);
    expect(series.lines).toEqual([
      // An observed absence (no offer: null) and a value that is not a number are gaps.
      { field: 'price', label: 'Price', values: [10, null, 12.5, 12.5] },
      { field: 'rating', label: 'Rating', values: [4.5, 4.5, null, null] },
    ]);
    expect(uplotData(series)).toEqual([series.x, [10, null, 12.5, 12.5], [4.5, 4.5, null, null]]);
  });

  it('draws one rank line per best-sellers category, a category the point lacks as a gap', () => {
    expect(rankFields(points)).toEqual(['bestSellersRank:Electronics', 'bestSellersRank:Toys']);
    const ranks = stepSeries(points, rankFields(points));
    expect(ranks.lines.map((line) => [line.label, line.values])).toEqual([
      ['Electronics', [null, 90, 80, 80]],
      ['Toys', [5, 7, null, null]],
    ]);
  });

  it('keeps the moments ascending: a point starting where the one before did replaces it', () => {
    const series = stepSeries([point(1, 1, { price: 1 }), point(1, 2, { price: 2 })], ['price']);
    expect(series.x).toEqual([seconds(1), seconds(2)]);
    expect(series.lines[0]?.values).toEqual([2, 2]);
    expect(stepSeries([], ['price'])).toEqual({ x: [], lines: [{ field: 'price', label: 'Price', values: [] }] });
  });

  it('leaves out lines with no value and says the chart in words', () => {
    const series = withValues(stepSeries(points, ['price', 'listPrice']));
    expect(series.lines.map((line) => line.field)).toEqual(['price']);
    expect(chartSummary('Price', series, (v) => v.toFixed(2))).toBe('Price: Price from 10.00 to 12.50, latest 12.50.');
    expect(chartSummary('Rating', withValues(stepSeries(points, ['listPrice'])))).toBe('Rating: no values in this window.');
  });
});

describe('latest values in words', () => {
  it('lists the tracked fields in order, prices in their currency, flags and absences in words, a line per category', () => {
    const facts = latestFacts({
      'bestSellersRank:Toys': 1234,
      inStock: false,
      price: null,
      listPrice: 24.99,
      currency: 'USD',
      hasCoupon: true,
      rating: 4.5,
      'bestSellersRank:Electronics': null,
    });
    expect(facts.map((f) => [f.label, f.value])).toEqual([
      ['Price', 'none shown (no offer)'],
      ['List price', (24.99).toLocaleString(undefined, { style: 'currency', currency: 'USD' })],
      ['In stock', 'No (unavailable)'],
      ['Rating', `${(4.5).toLocaleString()} of 5`],
      ['Best-sellers rank in Electronics', 'not ranked'],
      ['Best-sellers rank in Toys', `#${(1234).toLocaleString()}`],
      ['Coupon', 'Yes'],
    ]);
  });
});

describe('product page links and windows', () => {
  it('reads an ASIN or a product URL', () => {
    expect(asinFrom(' b08n5wrwnw ')).toBe('B08N5WRWNW');
    expect(asinFrom('https://www.amazon.de/Some-Thing/dp/B08N5WRWNW/ref=sr_1_1?x=1')).toBe('B08N5WRWNW');
    expect(asinFrom('https://www.amazon.com/gp/product/B08N5WRWNW')).toBe('B08N5WRWNW');
    expect(asinFrom('B08N5')).toBeUndefined();
    expect(asinFrom('https://example.com/dp/B08N5WRWNWX')).toBeUndefined();
  });

  it('links a product on a storefront and ZIP, leaving out what is empty', () => {
    expect(productHref('B08N5WRWNW', { domain: 'amazon.de', zip: '10115' })).toBe('/products/B08N5WRWNW?domain=amazon.de&zip=10115');
    expect(productHref('B08N5WRWNW', { domain: 'amazon.com', zip: null })).toBe('/products/B08N5WRWNW?domain=amazon.com');
    expect(productHref('B08N5WRWNW')).toBe('/products/B08N5WRWNW');
  });

  it("asks for a window's start and the resolution that keeps it readable, or the one chosen", () => {
    const now = new Date('2026-03-31T12:00:00Z');
    expect(windowQuery('7d', 'auto', now)).toEqual({ from: '2026-03-24T12:00:00.000Z', resolution: '1h' });
    expect(windowQuery('1d', 'auto', now)).toEqual({ from: '2026-03-30T12:00:00.000Z' });
    expect(windowQuery('all', 'raw', now)).toEqual({});
    expect(windowQuery('90d', '1h', now)).toEqual({ from: '2025-12-31T12:00:00.000Z', resolution: '1h' });
    expect(windowQuery('bogus', 'auto', now)).toEqual({ from: '2026-03-01T12:00:00.000Z', resolution: '1h' });
  });
});
