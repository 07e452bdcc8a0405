import { describe, expect, it } from 'vitest';
import { parseProductPage } from '../src/index.ts';
import { fixture } from './fixtures.ts';

describe('parseProductPage — a paperback book with several formats (amazon.com)', () => {
  const book = parseProductPage(fixture('product-book-us.html'), { origin: 'https://www.amazon.com' });

  it('reads the format price from the books buy box, authors and the format', () => {
    expect(book).toMatchObject({
      asin: '0593135202',
      title: 'Project Hail Mary: A Novel',
      price: { amount: 11.99, currency: 'USD', raw: '$11.99' },
      listPrice: { amount: 18, currency: 'USD', raw: '$18.00' },
      authors: [
        { name: 'Andy Weir', role: 'Author' },
        { name: 'Ray Porter', role: 'Narrator' },
      ],
      format: 'Paperback',
      availability: 'In Stock',
      inStock: true,
      seller: 'Amazon.com',
      fulfilledByAmazon: true,
      delivery: 'FREE delivery Friday, May 31 on orders shipped by Amazon over $35',
      otherOffersCount: 84,
      badges: ['best_seller'],
      dimensions: '5.5 x 1.3 x 8.3 inches',
      weight: '2.31 pounds',
    });
    expect(book.brand).toBeUndefined();
    expect(book.formats?.map((f) => [f.name, f.price?.amount, f.selected])).toEqual([
      ['Kindle', 14.99, false],
      ['Audiobook', 0, false],
      ['Hardcover', 17.83, false],
      ['Paperback', 11.99, true],
    ]);
  });

  it('keeps the "Back to results" link out of the categories and reads the browse nodes', () => {
    expect(book.categories).toEqual(['Books', 'Science Fiction & Fantasy']);
    expect(book.breadcrumbs).toEqual([
      { name: 'Books', nodeId: '283155', url: 'https://www.amazon.com/books-used-books-textbooks/b/ref=dp_bc_aui_C_1?ie=UTF8&node=283155' },
      { name: 'Science Fiction & Fantasy', nodeId: '25', url: 'https://www.amazon.com/science-fiction-fantasy-books/b/ref=dp_bc_aui_C_2?ie=UTF8&node=25' },
    ]);
  });

  it('reads the star histogram (table form), the description without its expander prompt, and rank links', () => {
    expect(book.starHistogram).toEqual({ fiveStar: 86, fourStar: 9, threeStar: 3, twoStar: 1, oneStar: 1 });
    expect(book.description).toBe(
      'Ryland Grace is the sole survivor on a desperate, last-chance mission.\nIf he fails, humanity and the earth itself will perish.',
    );
    expect(book.bestSellersRank).toEqual([
      { rank: 98, category: 'Books', link: 'https://www.amazon.com/gp/bestsellers/books/ref=pd_zg_ts_books' },
      { rank: 1, category: 'Hard Science Fiction (Books)', link: 'https://www.amazon.com/gp/bestsellers/books/16272/ref=pd_zg_hrsr_books' },
    ]);
  });

  it('lists what the page does not have, without guessing it', () => {
    expect(book.missingFields).toEqual(expect.arrayContaining(['brand', 'coupon', 'deal', 'variations', 'features', 'firstAvailable']));
    expect(book.missingFields).not.toContain('price');
    expect(book.coupon).toBeUndefined();
    expect(book.firstAvailable).toBeUndefined();
  });
});

describe('parseProductPage — a Kindle edition priced only as a format price (amazon.de)', () => {
  const kindle = parseProductPage(fixture('product-kindle-de.html'), { origin: 'https://www.amazon.de' });

  it('reads the Kindle price, the digital list price and the German number formats', () => {
    expect(kindle).toMatchObject({
      asin: 'B08WJQ7G3X',
      price: { amount: 9.99, currency: 'EUR' },
      listPrice: { amount: 14.99, currency: 'EUR', raw: '14,99 €' },
      format: 'Kindle',
      authors: [
        { name: 'Andy Weir', role: 'Autor' },
        { name: 'Jens Schmidt', role: 'Übersetzer' },
      ],
      rating: 4.6,
      reviewCount: 12345,
      starHistogram: { fiveStar: 74, fourStar: 17, threeStar: 5, twoStar: 2, oneStar: 2 },
      firstAvailable: { raw: '5. März 2021', date: '2021-03-05' },
      bestSellersRank: [
        { rank: 1234, category: 'Kindle-Shop' },
        { rank: 5, category: 'Science-Fiction-Romane' },
      ],
    });
    expect(kindle.formats?.map((f) => [f.name, f.price?.amount, f.selected])).toEqual([
      ['Kindle', 9.99, true],
      ['Taschenbuch', 1234.5, false],
      ['Hörbuch', undefined, false],
    ]);
    expect(kindle.brand).toBeUndefined();
    expect(kindle.inStock).toBeUndefined();
  });
});

describe('parseProductPage — variations, coupon, deal and badges (amazon.fr)', () => {
  const product = parseProductPage(fixture('product-variations-fr.html'), { origin: 'https://www.amazon.fr' });

  it('reads the offer with French number formats, savings, coupon and deal', () => {
    expect(product).toMatchObject({
      price: { amount: 1234.56, currency: 'EUR' },
      listPrice: { amount: 1543.2, currency: 'EUR' },
      savings: { percent: 20 },
      coupon: 'Appliquer le coupon de 10 %',
      deal: 'Offre à durée limitée',
      rating: 4.4,
      reviewCount: 2345,
      seller: 'Audio Expert FR',
      shipsFrom: 'Amazon',
      fulfilledByAmazon: true,
      prime: true,
      delivery: 'Livraison GRATUITE demain 28 mai',
      otherOffersCount: 5,
      badges: ['amazons_choice', 'climate_pledge_friendly'],
      videoCount: 4,
    });
  });

  it('reads every variation dimension and the parent ASIN', () => {
    expect(product.parentAsin).toBe('B0CFRPAR01');
    expect(product.variations).toEqual([
      { asin: 'B0CFRVAR02', dimension: 'color_name', label: 'Noir', selected: true },
      { asin: 'B0CFRVAR03', dimension: 'color_name', label: 'Sable', selected: false },
      { asin: 'B0CFRVAR02', dimension: 'size_name', label: 'Standard', selected: true },
      { asin: 'B0CFRVAR04', dimension: 'size_name', label: 'Pro', selected: false },
    ]);
  });

  it('reads specifications, dimensions and weight, model, manufacturer and the first available date', () => {
    expect(product.specifications).toEqual({
      Marque: 'Nordvik',
      Couleur: 'Noir',
      'Technologie de connectivité': 'Bluetooth',
      'Dimensions du produit': '20 x 17 x 8 cm; 250 grammes',
      "Numéro du modèle de l'article": 'NV-STU-700',
      Fabricant: 'Nordvik Audio GmbH',
    });
    expect(product).toMatchObject({
      dimensions: '20 x 17 x 8 cm',
      weight: '250 grammes',
      modelNumber: 'NV-STU-700',
      manufacturer: 'Nordvik Audio GmbH',
      firstAvailable: { raw: '18 novembre 2020', date: '2020-11-18' },
    });
    // An empty histogram block yields no histogram.
    expect(product.starHistogram).toBeUndefined();
    expect(product.missingFields).toContain('starHistogram');
  });
});
