import { describe, expect, it } from 'vitest';
import { PRODUCT_FIELDS, parseProductPage } from '../src/index.ts';
import { fixture } from './fixtures.ts';

describe('parseProductPage — desktop layout (amazon.com)', () => {
  const product = parseProductPage(fixture('product-desktop-us.html'), { origin: 'https://www.amazon.com', asin: 'B08N5WRWNW' });

  it('reads the buy box and header', () => {
    expect(product).toMatchObject({
      asin: 'B08N5WRWNW',
      title:
        'Apple 2020 MacBook Air Laptop M1 Chip, 13” Retina Display, 8GB RAM, 256GB SSD Storage, Backlit Keyboard, FaceTime HD Camera, Touch ID. Works with iPhone/iPad; Space Gray',
      url: 'https://www.amazon.com/dp/B08N5WRWNW',
      brand: 'Apple',
      price: { amount: 749.99, currency: 'USD', raw: '$749.99' },
      listPrice: { amount: 999, currency: 'USD', raw: '$999.00' },
      currency: 'USD',
      rating: 4.7,
      reviewCount: 29836,
      availability: 'In Stock',
      inStock: true,
      seller: 'Amazon.com',
    });
  });

  it('reads bullets, skipping hidden ones', () => {
    expect(product.features).toEqual([
      'All-Day Battery Life – Go longer than ever with up to 18 hours of battery life.',
      'Powerful Performance – Take on everything from professional-quality editing to action-packed gaming with ease.',
      'Superfast Memory – 8GB of unified memory makes your entire system speedy and responsive.',
      'Stunning Display – With a 13.3” Retina display, images come alive with new levels of realism.',
    ]);
  });

  it('lists the hi-res main image first, then full-size thumbnails without videos or placeholders', () => {
    expect(product.images).toEqual([
      'https://m.media-amazon.com/images/I/71jG+e7roXL.jpg',
      'https://m.media-amazon.com/images/I/31Ye1xPeFkL.jpg',
      'https://m.media-amazon.com/images/I/41Xy2G3hjTL.jpg',
    ]);
  });

  it('reads breadcrumb, best sellers ranks, details and description', () => {
    expect(product.categories).toEqual(['Electronics', 'Computers & Accessories', 'Laptops']);
    expect(product.bestSellersRank).toEqual([
      { rank: 1234, category: 'Electronics', link: 'https://www.amazon.com/gp/bestsellers/electronics/ref=pd_zg_ts_electronics' },
      { rank: 12, category: 'Traditional Laptop Computers', link: 'https://www.amazon.com/gp/bestsellers/electronics/13896617011/ref=pd_zg_hrsr_electronics' },
      { rank: 3, category: 'Laptops', link: 'https://www.amazon.com/gp/bestsellers/pc/565108/ref=pd_zg_hrsr_pc' },
    ]);
    expect(product.details).toEqual({
      'Product Dimensions': '11.97 x 8.36 x 0.63 inches',
      'Item model number': 'MGN63LL/A',
      ASIN: 'B08N5WRWNW',
    });
    expect(product.description).toBe(
      'Apple’s thinnest, lightest notebook gets supercharged with the Apple M1 chip.\nTackle your projects with the blazing-fast 8-core CPU.',
    );
  });

  it('reads variations with their dimension and selection', () => {
    expect(product.variations).toEqual([
      { asin: 'B08N5WRWNW', dimension: 'size_name', label: '256GB', selected: true },
      { asin: 'B08N5M7S6K', dimension: 'size_name', label: '512GB', selected: false },
    ]);
  });
});

describe('parseProductPage — apex price table (amazon.de)', () => {
  const product = parseProductPage(fixture('product-apex-de.html'), { origin: 'https://www.amazon.de' });

  it('takes the price to pay, not the savings row', () => {
    expect(product.price).toEqual({ amount: 1299.99, currency: 'EUR', raw: '1.299,99€' });
    expect(product.listPrice).toEqual({ amount: 1499, currency: 'EUR', raw: '1.499,00 €' });
  });

  it('reads the German page', () => {
    expect(product).toMatchObject({
      asin: 'B0C7KV3T4L',
      url: 'https://www.amazon.de/dp/B0C7KV3T4L',
      brand: 'Lenovo',
      rating: 4.6,
      reviewCount: 2345,
      availability: 'Auf Lager',
      inStock: true,
      seller: 'Amazon',
      categories: ['Computer & Zubehör', 'Laptops'],
      images: ['https://m.media-amazon.com/images/I/71T8aoPCDbL.jpg'],
      bestSellersRank: [
        { rank: 1234, category: 'Computer & Zubehör' },
        { rank: 12, category: 'Laptops' },
      ],
      details: { Marke: 'Lenovo', Modellnummer: '82XF002SGE', ASIN: 'B0C7KV3T4L' },
    });
    expect(product.features).toHaveLength(2);
    expect(product.title.startsWith('Lenovo IdeaPad Slim 5 Laptop | 16" WUXGA Display')).toBe(true);
  });
});

describe('parseProductPage — mobile layout (amazon.co.jp)', () => {
  const product = parseProductPage(fixture('product-mobile-jp.html'), { origin: 'https://www.amazon.co.jp' });

  it('reads the mobile page in Japanese with yen prices', () => {
    expect(product).toEqual({
      asin: 'B00E3NQ9Z4',
      title: 'ティファール 電気ケトル 1.2L ジャスティン プラス ブラック KO4908JP',
      url: 'https://www.amazon.co.jp/dp/B00E3NQ9Z4',
      brand: 'ティファール(T-fal)',
      price: { amount: 1980, currency: 'JPY', raw: '￥1,980' },
      listPrice: { amount: 2980, currency: 'JPY', raw: '￥2,980' },
      currency: 'JPY',
      rating: 4.3,
      reviewCount: 1234,
      availability: '在庫あり。',
      inStock: true,
      features: ['容量1.2Lで、カップ1杯分(140ml)なら約60秒でスピード沸騰', '空だき防止機能と自動電源OFF機能付き', '注ぎやすい注ぎ口と持ちやすいハンドル'],
      images: ['https://m.media-amazon.com/images/I/51Kq3gH7aHL.jpg', 'https://m.media-amazon.com/images/I/61bLx2A1pqL.jpg'],
      categories: [],
      bestSellersRank: [
        { rank: 1234, category: 'ホーム＆キッチン', link: 'https://www.amazon.co.jp/gp/bestsellers/kitchen/ref=pd_zg_ts_kitchen' },
        { rank: 12, category: '電気ケトル', link: 'https://www.amazon.co.jp/gp/bestsellers/kitchen/2421961051/ref=pd_zg_hrsr_kitchen' },
      ],
      details: { メーカー: 'ティファール(T-fal)', ASIN: 'B00E3NQ9Z4' },
      manufacturer: 'ティファール(T-fal)',
      prime: false,
      missingFields: PRODUCT_FIELDS.filter(
        (f) =>
          ![
            'brand',
            'manufacturer',
            'price',
            'listPrice',
            'rating',
            'reviewCount',
            'availability',
            'inStock',
            'prime',
            'features',
            'images',
            'details',
            'bestSellersRank',
          ].includes(f),
      ),
    });
  });
});

describe('parseProductPage — other storefronts and layouts', () => {
  it('reads French prices with narrow no-break spaces', () => {
    const product = parseProductPage(fixture('product-desktop-fr.html'), { origin: 'https://www.amazon.fr' });
    expect(product).toMatchObject({
      asin: 'B0CCZ26B5V',
      brand: 'Bose',
      price: { amount: 1299.99, currency: 'EUR' },
      listPrice: { amount: 1499, currency: 'EUR' },
      rating: 4.5,
      reviewCount: 1234,
      availability: 'En stock',
      inStock: true,
      seller: 'Audio Expert FR',
      bestSellersRank: [
        { rank: 1234, category: 'High-Tech' },
        { rank: 45, category: 'Casques audio' },
      ],
    });
    expect(product.price?.raw).toBe('1\u202f299,99\u00a0€');
  });

  it('reads the legacy priceblock layout (amazon.co.uk)', () => {
    const product = parseProductPage(fixture('product-legacy-uk.html'), { origin: 'https://www.amazon.co.uk' });
    expect(product).toMatchObject({
      asin: 'B00HHMC0BY',
      brand: 'Russell Hobbs',
      price: { amount: 12, currency: 'GBP', raw: '£12.00' },
      listPrice: { amount: 15.99, currency: 'GBP', raw: '£15.99' },
      rating: 4.4,
      reviewCount: 7012,
      availability: 'Only 3 left in stock.',
      inStock: true,
      seller: 'Amazon',
      categories: ['Home & Kitchen', 'Kettles'],
      bestSellersRank: [
        { rank: 1234, category: 'Kitchen & Home' },
        { rank: 5, category: 'Kettles' },
      ],
    });
  });

  it('leaves the price absent when the page has no offer', () => {
    const product = parseProductPage(fixture('product-no-price.html'), { origin: 'https://www.amazon.com', asin: 'B07NOPRICE' });
    expect(product.price).toBeUndefined();
    expect(product.listPrice).toBeUndefined();
    expect(product).toMatchObject({
      asin: 'B07NOPRICE',
      title: 'Vintage Film Camera Strap, Brown Leather',
      brand: 'Generic',
      currency: 'USD',
      availability: 'Currently unavailable.',
      inStock: false,
      features: ['Genuine leather'],
      images: [],
    });
  });

  it('falls back to the requested ASIN and an empty title on a page that is not a product', () => {
    const product = parseProductPage('<html><body><p>Hello</p></body></html>', { origin: 'https://www.amazon.com/', asin: 'b000000001' });
    expect(product).toEqual({
      asin: 'B000000001',
      title: '',
      url: 'https://www.amazon.com/dp/B000000001',
      currency: 'USD',
      features: [],
      images: [],
      categories: [],
      missingFields: [...PRODUCT_FIELDS],
    });
  });
});
