import { describe, expect, it } from 'vitest';
import { parseSearchPage } from '../src/index.ts';
import { fixture } from './fixtures.ts';

describe('parseSearchPage — sponsored placements, badges, coupons and German number formats (amazon.de)', () => {
  const page = parseSearchPage(fixture('search-placements-de.html'), { origin: 'https://www.amazon.de', keyword: 'kopfhörer', page: 1 });
  const byAsin = new Map(page.items.map((item) => [item.asin, item]));

  it('tells the sponsored placements apart and ranks only organic items', () => {
    expect(page.items.map((i) => [i.asin, i.sponsored, i.placement, i.rank])).toEqual([
      ['B0DEBRND01', true, 'brand', undefined],
      ['B0DEBRND02', true, 'brand', undefined],
      ['B0DETOPSP1', true, 'top', undefined],
      ['B0DEORGAN1', false, undefined, 1],
      ['B0DEORGAN2', false, undefined, 2],
      ['B0DEINLSP1', true, 'inline', undefined],
      ['B0DEVIDEO1', true, 'video', undefined],
      ['B0DEORGAN3', false, undefined, 3],
    ]);
    expect(page.items.some((i) => i.asin === 'B0SCRIPT01')).toBe(false);
  });

  it('reads badges, coupon, delivery and bought-in-past-month counts', () => {
    expect(byAsin.get('B0DEORGAN1')).toMatchObject({
      price: { amount: 79.99, currency: 'EUR' },
      listPrice: { amount: 99, currency: 'EUR' },
      rating: 4.5,
      reviewCount: 12345,
      badges: ['best_seller'],
      coupon: 'Spare 15 % mit Gutschein',
      delivery: 'GRATIS Lieferung Mi., 29. Mai',
      boughtInPastMonth: 1000,
      prime: true,
    });
    expect(byAsin.get('B0DEORGAN2')).toMatchObject({ badges: ['amazons_choice', 'limited_time_deal'], boughtInPastMonth: 10000, price: { amount: 29.99 } });
    expect(byAsin.get('B0DETOPSP1')?.price?.amount).toBe(1234.56);
    const plain = byAsin.get('B0DEORGAN3');
    expect([plain?.badges, plain?.coupon, plain?.delivery, plain?.boughtInPastMonth]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('reads the total results estimate and the related searches', () => {
    expect(page.totalResults).toBe(10000);
    expect(page.relatedSearches).toEqual(['kopfhörer kabellos', 'kopfhörer bluetooth', 'in ear kopfhörer']);
    expect(page.hasNextPage).toBe(true);
  });
});
