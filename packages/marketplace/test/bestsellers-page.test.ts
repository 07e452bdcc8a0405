import { describe, expect, it } from 'vitest';
import { parseBestsellersPage } from '../src/bestsellers/parse-bestsellers-page.ts';
import { fixture } from './fixtures.ts';

describe('parseBestsellersPage: the grid layout', () => {
  const page = parseBestsellersPage(fixture('bestsellers-grid-us.html'), { origin: 'https://www.amazon.com' });

  it('reads every ranked card and nothing from the carousel below the list', () => {
    expect(page.recognized).toBe(true);
    expect(page.items.map((i) => [i.rank, i.asin])).toEqual([
      [1, 'B0TESTGR01'],
      [2, 'B0TESTGR02'],
      [3, 'B0TESTGR03'],
    ]);
  });

  it('reads title, price, rating, review count and image of a card', () => {
    expect(page.items[0]).toEqual({
      rank: 1,
      asin: 'B0TESTGR01',
      title: 'Larkspur Wireless Earbuds with Charging Case, 30h Playtime',
      url: 'https://www.amazon.com/dp/B0TESTGR01',
      price: { amount: 24.99, currency: 'USD', raw: '$24.99' },
      rating: 4.6,
      reviewCount: 48211,
      image: 'https://images-na.ssl-images-amazon.com/images/I/11AAAAAAA1L._AC_UL300_SR300,200_.jpg',
      missingFields: [],
    });
    expect(page.items[1]?.title).toBe('Tessel Over-Ear Studio Headphones & Cable');
    expect(page.items[1]?.price?.amount).toBe(1149);
  });

  it('names what a card lacks', () => {
    expect(page.items[2]?.missingFields).toEqual(['price', 'rating', 'reviewCount']);
  });

  it('reads the category and its path from the tree, without the root', () => {
    expect(page.categoryName).toBe('Headphones');
    expect(page.categoryPath).toEqual([{ name: 'Electronics' }, { name: 'Headphones' }]);
  });

  it('counts the ASINs the list names beyond its rendered cards', () => {
    expect(page.unrenderedCount).toBe(1);
  });
});

describe('parseBestsellersPage: the older ordered list', () => {
  const page = parseBestsellersPage(fixture('bestsellers-list-uk.html'), { origin: 'https://www.amazon.co.uk', page: 2 });

  it('takes ranks from the badges and the whole title from a truncated one', () => {
    expect(page.recognized).toBe(true);
    expect(page.items.map((i) => [i.rank, i.asin, i.title])).toEqual([
      [51, 'B0TESTLS01', 'Brevik 1.7L Electric Kettle, Rapid Boil, Stainless Steel'],
      [52, 'B0TESTLS02', 'Copperleaf Gooseneck Kettle 0.8L'],
    ]);
    expect(page.items[0]).toMatchObject({ price: { amount: 29.99, currency: 'GBP' }, rating: 4.5, reviewCount: 12504 });
    expect(page.items[1]).toMatchObject({ price: { amount: 1234.5, currency: 'GBP' }, missingFields: ['rating', 'reviewCount'] });
  });

  it('reads the path with node ids where the tree links them', () => {
    expect(page.categoryName).toBe('Kettles');
    expect(page.categoryPath).toEqual([{ name: 'Home & Kitchen' }, { name: 'Small Kitchen Appliances', nodeId: '10706461' }, { name: 'Kettles' }]);
  });

  it('numbers cards without a badge after the pages before', () => {
    const unbadged = fixture('bestsellers-list-uk.html').replace(/<span class="zg-badge-text">#\d+<\/span>/g, '');
    const read = parseBestsellersPage(unbadged, { origin: 'https://www.amazon.co.uk', page: 2 });
    expect(read.items.map((i) => i.rank)).toEqual([51, 52]);
  });

  it.each([
    ['Best Sellers in Kettles', 'Kettles'],
    ['Bestseller in Wasserkocher', 'Wasserkocher'],
    ['Meilleures ventes en Bouilloires', 'Bouilloires'],
    ['売れ筋ランキング: ケトル', 'ケトル'],
    ['人気度ランキング: ケトル', 'ケトル'],
    ['Amazon Best Sellers', undefined],
  ])('the heading %s names the category %s', (heading, name) => {
    const treeless = fixture('bestsellers-list-uk.html')
      .replace(/<div id="zg-left-col">[\s\S]*?<\/div>\n<div id="zg-center-div">/, '<div id="zg-center-div">')
      .replace('Best Sellers in Kettles', heading);
    expect(parseBestsellersPage(treeless, { origin: 'https://www.amazon.co.uk' }).categoryName).toBe(name);
  });

  it('takes the category from the heading when there is no tree', () => {
    const treeless = fixture('bestsellers-list-uk.html').replace(/<div id="zg-left-col">[\s\S]*?<\/div>\n<div id="zg-center-div">/, '<div id="zg-center-div">');
    const read = parseBestsellersPage(treeless, { origin: 'https://www.amazon.co.uk' });
    expect(read.categoryName).toBe('Kettles');
    expect(read.categoryPath).toBeUndefined();
  });
});

describe('parseBestsellersPage: other pages are not best-seller lists', () => {
  it.each(['block-captcha-200.html', 'block-robot-check.html', 'block-503-sorry.html', 'product-desktop-us.html', 'search-classic-us.html'])('%s', (name) => {
    const page = parseBestsellersPage(fixture(name), { origin: 'https://www.amazon.com' });
    expect(page.recognized).toBe(false);
    expect(page.items).toEqual([]);
  });

  it('a page of only carousel faceouts (a home or product page)', () => {
    const carousel = fixture('bestsellers-grid-us.html').replace(/<div class="a-row">[\s\S]*<div id="rhf"/, '<div id="rhf"');
    const page = parseBestsellersPage(carousel, { origin: 'https://www.amazon.com' });
    expect(page.recognized).toBe(false);
  });
});
