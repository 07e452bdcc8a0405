import { MARKETPLACE_DOMAINS, parseProductPage, parseSearchPage, type MarketplaceDomain } from '@crawl/marketplace';
import { describe, expect, it } from 'vitest';
import {
  PRODUCT_LAYOUTS,
  SEARCH_LAYOUTS,
  SPECIAL_ASINS,
  WELL_KNOWN_ASINS,
  amountOf,
  localPrice,
  getProduct,
  renderProductPage,
  renderSearchPage,
  searchCatalog,
  starShares,
  storefrontProduct,
  textsFor,
  type PageSize,
} from '../src/index.ts';
import { cardExtras } from '../src/search-extras.ts';

/** Text as the parser reports it: whitespace runs (no-break spaces included) as one space. */
const spaced = (text: string): string => text.replace(/[\s\u00a0\u202f]+/g, ' ').trim();

const ORIGIN = 'http://127.0.0.1:4010';

function expectedPrice(money: { minor: number; currency: string; decimals: number } | undefined): { amount: number; currency: string } | undefined {
  return money ? { amount: amountOf(money), currency: money.currency } : undefined;
}

describe('search pages round-trip through the parser', () => {
  const cases = SEARCH_LAYOUTS.flatMap((layout) => MARKETPLACE_DOMAINS.map((domain) => [layout, domain] as const));
  const keywords = ['wireless headphones', 'laptop', 'kettle', 'drill'];

  it.each(cases)('%s layout on %s', (layout, domain) => {
    for (const keyword of keywords) {
      const size: PageSize = domain === 'amazon.de' && keyword === 'laptop' ? 'full' : 'small';
      const rendered = renderSearchPage({ keyword, page: 2, domain, layout, size });
      const parsed = parseSearchPage(rendered.html, { origin: ORIGIN, marketplace: domain, keyword, page: 2 });
      const texts = textsFor(domain);

      let organic = 0;
      const expected = rendered.results.entries.map((entry, i) => {
        const view = storefrontProduct(getProduct(entry.asin)!, domain);
        const widget = entry.placement !== undefined;
        const extras = cardExtras(entry.asin, view.price !== undefined);
        const rank = entry.sponsored ? undefined : ++organic;
        return {
          asin: entry.asin,
          title: view.product.title,
          price: expectedPrice(view.price),
          listPrice: widget ? undefined : expectedPrice(view.listPrice),
          sponsored: entry.sponsored,
          placement: entry.placement ?? (entry.sponsored ? (organic === 0 ? 'top' : 'inline') : undefined),
          rank,
          position: i + 1,
          rating: widget ? undefined : view.product.rating,
          reviewCount: widget || view.product.reviewCount === 0 ? undefined : view.product.reviewCount,
          prime: widget ? false : view.product.prime,
          badges: widget || extras.badges.length === 0 ? undefined : extras.badges,
          coupon: widget || extras.couponPercent === undefined ? undefined : spaced(texts.coupon(extras.couponPercent)),
          delivery: widget || layout === 'legacy' || extras.deliveryDay === undefined ? undefined : spaced(texts.delivery(extras.deliveryDay)),
          boughtInPastMonth: widget ? undefined : extras.boughtInPastMonth,
        };
      });
      const actual = parsed.items.map((item) => ({
        asin: item.asin,
        title: item.title,
        price: item.price ? { amount: item.price.amount, currency: item.price.currency } : undefined,
        listPrice: item.listPrice ? { amount: item.listPrice.amount, currency: item.listPrice.currency } : undefined,
        sponsored: item.sponsored,
        placement: item.placement,
        rank: item.rank,
        position: item.position,
        rating: item.rating,
        reviewCount: item.reviewCount,
        prime: item.prime,
        badges: item.badges,
        coupon: item.coupon,
        delivery: item.delivery,
        boughtInPastMonth: item.boughtInPastMonth,
      }));
      expect(actual).toEqual(expected);
      expect(parsed.items.every((item) => item.url === `${ORIGIN}/dp/${item.asin}` && item.page === 2)).toBe(true);
      expect(parsed.hasNextPage).toBe(true);
      expect(parsed.totalResults).toBe(rendered.results.totalResults);
      expect(parsed.relatedSearches).toEqual(rendered.results.relatedSearches);
    }
  });

  it('has every search field and placement somewhere in the keywords above', () => {
    const entries = keywords.flatMap((keyword) => searchCatalog(keyword, 2, { maxPages: 7 }).entries);
    expect(new Set(entries.map((e) => e.placement))).toEqual(new Set([undefined, 'video', 'brand']));
    const extras = entries.map((e) => cardExtras(e.asin, true));
    expect(new Set(extras.flatMap((x) => x.badges))).toEqual(new Set(['best_seller', 'amazons_choice', 'limited_time_deal']));
    expect(extras.some((x) => x.couponPercent !== undefined)).toBe(true);
    expect(extras.some((x) => x.boughtInPastMonth !== undefined)).toBe(true);
  });

  it('renders an empty last page that parses to no items', () => {
    for (const layout of SEARCH_LAYOUTS) {
      const rendered = renderSearchPage({ keyword: 'laptop', page: 8, layout, size: 'small' });
      expect(parseSearchPage(rendered.html, { origin: ORIGIN })).toEqual({ items: [], hasNextPage: false, recognized: true, deliverTo: 'United States' });
    }
  });
});

/** First catalog ASIN (from a few searches) whose product matches `predicate`. */
function findAsin(predicate: (product: NonNullable<ReturnType<typeof getProduct>>) => boolean): string {
  for (const keyword of ['laptop', 'kettle', 'headphones', 'drill', 'lego']) {
    for (let page = 1; page <= 7; page++) {
      for (const entry of searchCatalog(keyword, page, { maxPages: 7 }).entries) {
        if (predicate(getProduct(entry.asin)!)) return entry.asin;
      }
    }
  }
  throw new Error('no such product in the catalog');
}

describe('product pages round-trip through the parser', () => {
  const lowStock = findAsin((p) => p.stock === 'low_stock');
  const unavailable = findAsin((p) => p.stock === 'unavailable' && p.variations.length > 0);
  const couponed = findAsin((p) => p.couponPercent !== undefined && p.deal);
  const badged = findAsin((p) => p.badges.length >= 2);
  const asins = [...WELL_KNOWN_ASINS.slice(0, 8), SPECIAL_ASINS.noPrice, lowStock, unavailable, couponed, badged];
  const cases = PRODUCT_LAYOUTS.flatMap((layout) => MARKETPLACE_DOMAINS.map((d) => [layout, d as MarketplaceDomain] as const));

  it.each(cases)('%s layout on %s', (layout, domain) => {
    for (const asin of asins) {
      const rendered = renderProductPage({ asin, domain, layout, size: asin === asins[0] ? 'full' : 'small' });
      expect(rendered).toBeDefined();
      const parsed = parseProductPage(rendered!.html, { origin: ORIGIN, marketplace: domain });
      const view = storefrontProduct(getProduct(asin)!, domain);
      const p = view.product;
      expect({
        asin: parsed.asin,
        title: parsed.title,
        brand: parsed.brand,
        price: parsed.price ? { amount: parsed.price.amount, currency: parsed.price.currency } : undefined,
        listPrice: parsed.listPrice ? { amount: parsed.listPrice.amount, currency: parsed.listPrice.currency } : undefined,
        currency: parsed.currency,
        rating: parsed.rating,
        reviewCount: parsed.reviewCount,
        availability: parsed.availability,
        inStock: parsed.inStock,
        features: parsed.features,
        images: parsed.images,
        categories: parsed.categories,
        bestSellersRank: parsed.bestSellersRank,
        description: parsed.description,
        seller: parsed.seller,
        variations: parsed.variations,
        starHistogram: parsed.starHistogram,
        breadcrumbs: parsed.breadcrumbs?.map((b) => [b.name, b.nodeId]),
        modelNumber: parsed.modelNumber,
        shipsFrom: parsed.shipsFrom,
        fulfilledByAmazon: parsed.fulfilledByAmazon,
        videoCount: parsed.videoCount,
        savings: parsed.savings?.price ? { amount: parsed.savings.price.amount, currency: parsed.savings.price.currency } : undefined,
        coupon: parsed.coupon,
        deal: parsed.deal,
        badges: parsed.badges,
      }).toEqual({
        asin,
        title: p.title,
        brand: p.brand,
        price: expectedPrice(view.price),
        listPrice: expectedPrice(view.listPrice),
        currency: view.price?.currency ?? getCurrency(domain),
        rating: p.rating,
        reviewCount: p.reviewCount > 0 ? p.reviewCount : undefined,
        availability: view.availability,
        inStock: p.stock !== 'unavailable',
        features: p.features,
        images: p.imageIds.map((id) => `https://m.media-amazon.com/images/I/${id}.jpg`),
        categories: layout === 'mobile' ? [] : view.categories,
        bestSellersRank: [
          { rank: p.ranks[0], category: view.categories[0], link: `${ORIGIN}/gp/bestsellers/cat/ref=pd_zg_ts` },
          { rank: p.ranks[1], category: view.categories[1], link: `${ORIGIN}/gp/bestsellers/cat/sub/ref=pd_zg_hrsr` },
        ],
        description: p.description.join('\n'),
        seller: view.seller,
        variations:
          p.variations.length === 0
            ? undefined
            : p.variations.map((v) => ({ asin: v.asin, dimension: p.category.variation, label: v.value, selected: v.asin === asin })),
        starHistogram: p.rating === undefined ? undefined : histogramOf(starShares(p.rating)),
        breadcrumbs:
          layout === 'mobile'
            ? undefined
            : [
                [view.categories[0], '1001'],
                [view.categories[1], '1002'],
              ],
        modelNumber: p.modelNumber,
        shipsFrom: layout === 'apex' ? undefined : view.texts.amazonSeller,
        fulfilledByAmazon: layout === 'apex' ? undefined : true,
        videoCount: layout === 'mobile' ? undefined : 1,
        savings:
          layout === 'apex' && view.price && view.listPrice ? expectedPrice({ ...view.price, minor: view.listPrice.minor - view.price.minor }) : undefined,
        coupon: p.couponPercent === undefined ? undefined : spaced(view.texts.applyCoupon(p.couponPercent)),
        deal: p.deal ? view.texts.dealBadge : undefined,
        badges: p.badges.length === 0 ? undefined : p.badges,
      });
    }
  });
});

function histogramOf([fiveStar, fourStar, threeStar, twoStar, oneStar]: number[]): Record<string, number | undefined> {
  return { fiveStar, fourStar, threeStar, twoStar, oneStar };
}

function getCurrency(domain: MarketplaceDomain): string {
  return storefrontProduct(getProduct(WELL_KNOWN_ASINS[0]!)!, domain).price!.currency;
}

describe('book pages round-trip through the parser', () => {
  const cases = [SPECIAL_ASINS.paperback, SPECIAL_ASINS.kindle].flatMap((asin) => MARKETPLACE_DOMAINS.map((domain) => [asin, domain] as const));

  it.each(cases)('%s on %s', (asin, domain) => {
    const rendered = renderProductPage({ asin, domain, size: 'small' })!;
    expect(rendered.layout).toBe('book');
    const parsed = parseProductPage(rendered.html, { origin: ORIGIN, marketplace: domain });
    const view = storefrontProduct(getProduct(asin)!, domain);
    const book = view.product.book!;
    const texts = textsFor(domain);
    const formatName = (format: (typeof book.formats)[number]['format']): string =>
      texts.bookFormats[['kindle', 'paperback', 'hardcover', 'audiobook'].indexOf(format)]!;
    expect({
      title: parsed.title,
      brand: parsed.brand,
      authors: parsed.authors,
      format: parsed.format,
      formats: parsed.formats?.map((f) => [f.name, f.price?.amount, f.selected]),
      price: parsed.price ? { amount: parsed.price.amount, currency: parsed.price.currency } : undefined,
      listPrice: parsed.listPrice ? { amount: parsed.listPrice.amount, currency: parsed.listPrice.currency } : undefined,
      inStock: parsed.inStock,
      rating: parsed.rating,
      reviewCount: parsed.reviewCount,
    }).toEqual({
      title: view.product.title,
      brand: undefined,
      authors: book.authors.map((a) => ({ name: a.name, role: texts.bookRoles[a.role === 'author' ? 0 : 1] })),
      format: formatName(book.selected),
      formats: book.formats.map((f) => [
        formatName(f.format),
        f.priceUsdCents === undefined ? undefined : amountOf(localPrice(f.priceUsdCents, domain)),
        f.format === book.selected,
      ]),
      price: expectedPrice(view.price),
      listPrice: expectedPrice(view.listPrice),
      inStock: book.selected === 'kindle' ? undefined : true,
      rating: view.product.rating,
      reviewCount: view.product.reviewCount > 0 ? view.product.reviewCount : undefined,
    });
    expect(parsed.missingFields).not.toContain('price');
  });
});

describe('shopper options: sort, storefront language, delivery location', () => {
  it('sorts the organic results by price as `s=price-asc-rank` asks, and the parser reads them in that order', () => {
    for (const layout of SEARCH_LAYOUTS) {
      const rendered = renderSearchPage({ keyword: 'kettle', domain: 'amazon.de', layout, size: 'small', sort: 'price-asc-rank' });
      const parsed = parseSearchPage(rendered.html, { origin: ORIGIN, marketplace: 'amazon.de' });
      const organic = parsed.items.filter((i) => !i.sponsored);
      expect(organic.map((i) => i.asin)).toEqual(rendered.results.entries.filter((e) => !e.sponsored).map((e) => e.asin));
      const prices = organic.flatMap((i) => (i.price ? [i.price.amount] : []));
      expect(prices.length).toBeGreaterThan(3);
      expect(prices).toEqual([...prices].sort((a, b) => a - b));
    }
    const newest = renderSearchPage({ keyword: 'kettle', size: 'small', sort: 'date-desc-rank' }).results.entries;
    expect(newest.map((e) => e.asin)).not.toEqual(renderSearchPage({ keyword: 'kettle', size: 'small' }).results.entries.map((e) => e.asin));
  });

  it('renders the language picked in the storefront switcher with the storefront money, and the parser reads it', () => {
    const rendered = renderSearchPage({ keyword: 'laptop', domain: 'amazon.de', layout: 'grid', size: 'small', language: 'en_GB' });
    expect(rendered.html).toContain('lang="en-gb"');
    expect(rendered.html).toContain('results for');
    const parsed = parseSearchPage(rendered.html, { origin: ORIGIN, marketplace: 'amazon.de' });
    expect(parsed.items.find((i) => i.price)?.price?.currency).toBe('EUR');
    expect(parsed.totalResults).toBe(rendered.results.totalResults);
    const product = renderProductPage({ asin: WELL_KNOWN_ASINS[0]!, domain: 'amazon.de', layout: 'desktop', size: 'small', language: 'en_GB' })!;
    const details = parseProductPage(product.html, { origin: ORIGIN, marketplace: 'amazon.de' });
    expect(details.availability).toBe('In Stock');
    expect(details.inStock).toBe(true);
    expect(details.price?.currency).toBe('EUR');
  });

  it('shows the prices in the currency the shopper chose, and the parser reads them in it', () => {
    for (const layout of SEARCH_LAYOUTS) {
      const rendered = renderSearchPage({ keyword: 'kettle', domain: 'amazon.co.jp', layout, size: 'small', language: 'en_US', currency: 'TWD' });
      const parsed = parseSearchPage(rendered.html, { origin: ORIGIN, marketplace: 'amazon.co.jp' });
      const priced = parsed.items.filter((item) => item.price);
      expect(priced.length).toBeGreaterThan(5);
      for (const item of priced) {
        const view = storefrontProduct(getProduct(item.asin)!, 'amazon.co.jp', 'en_US', 'TWD');
        expect(item.price, `${layout} ${item.asin}`).toEqual({ ...expectedPrice(view.price), raw: expect.stringMatching(/^TWD/) });
      }
    }
    const product = renderProductPage({ asin: WELL_KNOWN_ASINS[2]!, domain: 'amazon.de', layout: 'facts', size: 'small', currency: 'USD' })!;
    expect(parseProductPage(product.html, { origin: ORIGIN, marketplace: 'amazon.de' }).price?.currency).toBe('USD');
  });

  it('names the delivery location in the header, in the newer header too; the parsers echo it', () => {
    for (const domain of ['amazon.com', 'amazon.de', 'amazon.fr', 'amazon.co.jp', 'amazon.es', 'amazon.it'] as const) {
      const newer = renderProductPage({ asin: WELL_KNOWN_ASINS[1]!, domain, layout: 'facts', size: 'small', deliveryZip: '10115' })!;
      // The place is on line 1 ("Delivering to 10115"), line 2 only prompts.
      expect(newer.html).toMatch(/id="glow-ingress-line1">[^<]*10115<\/span><span[^>]*id="glow-ingress-line2">[^<]+<\/span>/);
      expect(parseProductPage(newer.html, { origin: ORIGIN, marketplace: domain }).deliverTo, domain).toBe('10115');
    }
    const search = renderSearchPage({ keyword: 'laptop', domain: 'amazon.de', size: 'small', deliveryZip: '10115' });
    expect(parseSearchPage(search.html, { origin: ORIGIN, marketplace: 'amazon.de' }).deliverTo).toBe('10115');
    const product = renderProductPage({ asin: WELL_KNOWN_ASINS[1]!, domain: 'amazon.co.uk', size: 'small', deliveryZip: 'SW1A 1AA' })!;
    expect(parseProductPage(product.html, { origin: ORIGIN, marketplace: 'amazon.co.uk' }).deliverTo).toBe('SW1A 1AA');
    const plain = renderProductPage({ asin: WELL_KNOWN_ASINS[1]!, domain: 'amazon.de', size: 'small' })!;
    expect(parseProductPage(plain.html, { origin: ORIGIN, marketplace: 'amazon.de' }).deliverTo).toBe('Deutschland');
  });
});
