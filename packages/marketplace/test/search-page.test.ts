import { describe, expect, it } from 'vitest';
import { parseSearchPage, type SearchItem } from '../src/index.ts';
import { fixture } from './fixtures.ts';

function byAsin(items: SearchItem[], asin: string): SearchItem {
  const item = items.find((i) => i.asin === asin);
  if (!item) throw new Error(`no item ${asin}`);
  return item;
}

describe('parseSearchPage — classic desktop layout (amazon.com)', () => {
  const page = parseSearchPage(fixture('search-classic-us.html'), { origin: 'https://www.amazon.com', keyword: 'laptop', page: 1 });

  it('keeps result cards only, in page order, skipping cards without a title', () => {
    expect(page.items.map((i) => i.asin)).toEqual(['B0CX23V2ZK', 'B08N5WRWNW', 'B0BSHF7WHW', 'B0C5JDXGNR', 'B09ZQG8Z9B', 'B0CHX1W1XY']);
    expect(page.items.map((i) => i.position)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('ranks organic results only', () => {
    expect(page.items.map((i) => [i.sponsored, i.rank])).toEqual([
      [true, undefined],
      [false, 1],
      [false, 2],
      [false, 3],
      [true, undefined],
      [false, 4],
    ]);
  });

  it('reads every field of a full card', () => {
    expect(byAsin(page.items, 'B08N5WRWNW')).toEqual({
      asin: 'B08N5WRWNW',
      title:
        'Apple 2020 MacBook Air Laptop M1 Chip, 13” Retina Display, 8GB RAM, 256GB SSD Storage, Backlit Keyboard, FaceTime HD Camera, Touch ID. Works with iPhone/iPad; Space Gray',
      url: 'https://www.amazon.com/dp/B08N5WRWNW',
      image: 'https://m.media-amazon.com/images/I/71jG+e7roXL._AC_UY218_.jpg',
      price: { amount: 1299.99, currency: 'USD', raw: '$1,299.99' },
      listPrice: { amount: 1499, currency: 'USD', raw: '$1,499.00' },
      rank: 1,
      position: 2,
      sponsored: false,
      rating: 4.7,
      reviewCount: 29836,
      prime: true,
      keyword: 'laptop',
      page: 1,
      boughtInPastMonth: 10000,
      missingFields: ['badges', 'coupon', 'delivery'],
    });
  });

  it('reads a sponsored card behind /sspa/click links', () => {
    const item = byAsin(page.items, 'B0CX23V2ZK');
    expect(item.title).toBe('HP 14" Laptop, Intel Celeron N4020, 4 GB RAM, 64 GB Storage, 14-inch Micro-edge HD Display & Windows 11');
    expect(item.url).toBe('https://www.amazon.com/dp/B0CX23V2ZK');
    expect(item.price?.amount).toBe(179.99);
    expect(item.listPrice?.amount).toBe(229.99);
    expect(item.rating).toBe(4.2);
    expect(item.reviewCount).toBe(5327);
  });

  it('leaves fields absent rather than guessing', () => {
    const noOffer = byAsin(page.items, 'B0C5JDXGNR');
    expect(noOffer.price).toBeUndefined();
    expect(noOffer.rating).toBeUndefined();
    expect(noOffer.reviewCount).toBeUndefined();
    expect(noOffer.prime).toBe(false);
    const abbreviated = byAsin(page.items, 'B0CHX1W1XY');
    expect(abbreviated.rating).toBe(4.6);
    expect(abbreviated.reviewCount).toBeUndefined();
    expect(byAsin(page.items, 'B0BSHF7WHW').price).toEqual({ amount: 5, currency: 'USD', raw: '$5' });
    expect(noOffer.missingFields).toEqual(expect.arrayContaining(['price', 'rating', 'reviewCount']));
    expect(abbreviated.missingFields).toContain('reviewCount');
    expect(abbreviated.missingFields).not.toContain('rating');
  });

  it('ignores carousel cards, scripts, styles and comments that look like results', () => {
    const asins = page.items.map((i) => i.asin);
    for (const fake of ['B0BRAND001', 'B0BRAND002', 'B0FAKEFAKE', 'B0STYLEFAK', 'B0JSFAKE01']) expect(asins).not.toContain(fake);
  });

  it('reads the result count and pagination', () => {
    expect(page.totalResultsText).toBe('1-16 of over 100,000 results for');
    expect(page.hasNextPage).toBe(true);
  });
});

describe('parseSearchPage — grid layout (amazon.de)', () => {
  const page = parseSearchPage(fixture('search-grid-de.html'), { origin: 'https://www.amazon.de', keyword: 'kopfhörer', page: 7 });

  it('reads cards with the brand line above the linked title', () => {
    expect(page.items.map((i) => i.title)).toEqual([
      'Sony WH-1000XM5 kabellose Bluetooth Noise Cancelling Kopfhörer (30h Akku, Touch Sensor, Headphones Connect App, Schnellladefunktion) Schwarz',
      'JBL Tune 510BT – Bluetooth On-Ear Kopfhörer in Schwarz',
      'Sony WH-1000XM4 kabellose Bluetooth Noise Cancelling Kopfhörer',
    ]);
  });

  it('assembles German prices from the whole/fraction/symbol parts', () => {
    const [first, second, third] = page.items;
    expect(first?.price).toEqual({ amount: 1299.99, currency: 'EUR', raw: '1.299,99 €' });
    expect(first?.listPrice).toEqual({ amount: 1499, currency: 'EUR', raw: '1.499,00 €' });
    expect(second?.price?.amount).toBe(29.99);
    expect(third?.price).toEqual({ amount: 229, currency: 'EUR', raw: '229,00 €' });
  });

  it('reads German ratings, review counts from aria labels, sponsorship and prime', () => {
    expect(page.items.map((i) => [i.rating, i.reviewCount, i.sponsored, i.prime, i.rank, i.page])).toEqual([
      [4.5, 12345, false, true, 1, 7],
      [4.6, 98765, true, false, undefined, 7],
      [4.7, 54321, false, false, 2, 7],
    ]);
    expect(page.items[0]?.url).toBe('https://www.amazon.de/dp/B0CCZ1L489');
  });

  it('sees that the next-page link is disabled', () => {
    expect(page.hasNextPage).toBe(false);
    expect(page.totalResultsText).toBe('1-48 von über 50.000 Ergebnissen oder Vorschlägen für');
  });
});

describe('parseSearchPage — legacy list layout (amazon.co.uk)', () => {
  const page = parseSearchPage(fixture('search-legacy-uk.html'), { origin: 'https://www.amazon.co.uk' });

  it('reads li.s-result-item cards', () => {
    expect(page.items).toEqual([
      {
        asin: 'B00HHMC0BY',
        title: 'Russell Hobbs 20460 Quiet Boil Cordless Electric Kettle, 1.7 L, 3000 W - Stainless Steel',
        url: 'https://www.amazon.co.uk/dp/B00HHMC0BY',
        image: 'https://m.media-amazon.com/images/I/71d4Zb4gGfL._AC_AA160_.jpg',
        price: { amount: 12, currency: 'GBP', raw: '£12.00' },
        listPrice: { amount: 15.99, currency: 'GBP', raw: '£15.99' },
        rank: 1,
        position: 1,
        sponsored: false,
        rating: 4.4,
        reviewCount: 7012,
        prime: true,
        missingFields: ['badges', 'coupon', 'delivery', 'boughtInPastMonth'],
      },
      {
        asin: 'B07FXDP7NR',
        title: 'Breville VKT124 Impressions Electric Kettle, 1.7 L, 3 kW, Cream',
        url: 'https://www.amazon.co.uk/dp/B07FXDP7NR',
        image: 'https://m.media-amazon.com/images/I/61I8xqB6YKL._AC_AA160_.jpg',
        price: { amount: 34.99, currency: 'GBP', raw: '£34.99' },
        position: 2,
        sponsored: true,
        placement: 'inline',
        prime: false,
        missingFields: ['listPrice', 'rating', 'reviewCount', 'badges', 'coupon', 'delivery', 'boughtInPastMonth'],
      },
      {
        asin: 'B01LXY6VG0',
        title: 'Morphy Richards 108268 Illuminated Jug Kettle',
        url: 'https://www.amazon.co.uk/dp/B01LXY6VG0',
        price: { amount: 24.5, currency: 'GBP', raw: '£24.50 - £29.99' },
        rank: 2,
        position: 3,
        sponsored: false,
        rating: 4.1,
        reviewCount: 312,
        prime: false,
        missingFields: ['image', 'listPrice', 'badges', 'coupon', 'delivery', 'boughtInPastMonth'],
      },
    ]);
  });

  it('reads the legacy result count and next link', () => {
    expect(page.totalResultsText).toBe('1-16 of 2,417 results for "kettle"');
    expect(page.hasNextPage).toBe(true);
  });
});

describe('parseSearchPage — edge cases', () => {
  it('returns no items for a zero-results page', () => {
    expect(parseSearchPage(fixture('search-no-results.html'), { origin: 'https://www.amazon.com', keyword: 'qzxwvplkjh' })).toEqual({
      items: [],
      hasNextPage: false,
      recognized: true,
    });
  });

  it('uses the marketplace option when the origin is not a storefront', () => {
    const html = `<div data-asin="B000000001" class="s-result-item"><h2><a href="/dp/B000000001">Thing</a></h2>
      <span class="a-price"><span class="a-offscreen">$12.50</span></span></div>`;
    const simulated = parseSearchPage(html, { origin: 'http://127.0.0.1:4010', marketplace: 'amazon.ca' });
    expect(simulated.items[0]?.price).toEqual({ amount: 12.5, currency: 'CAD', raw: '$12.50' });
    expect(simulated.items[0]?.url).toBe('http://127.0.0.1:4010/dp/B000000001');
    const plain = parseSearchPage(html, { origin: 'https://www.amazon.com.au' });
    expect(plain.items[0]?.price?.currency).toBe('AUD');
  });

  it('tolerates truncated markup', () => {
    const html = fixture('search-classic-us.html');
    const cut = html.slice(0, html.indexOf('data-asin="B0BSHF7WHW"') + 400);
    const page = parseSearchPage(cut, { origin: 'https://www.amazon.com' });
    expect(page.items.map((i) => i.asin)).toEqual(['B0CX23V2ZK', 'B08N5WRWNW']);
  });

  it('returns an empty page for empty input', () => {
    expect(parseSearchPage('', { origin: 'https://www.amazon.com' })).toEqual({ items: [], hasNextPage: false, recognized: false });
  });
});
