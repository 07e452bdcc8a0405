import { MARKETPLACE_DOMAINS, MARKETPLACES, type MarketplaceDomain, parseOffersPage, parseProductPage, parseSellerPage } from '@crawl/marketplace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getProduct, WELL_KNOWN_ASINS } from '../src/index.ts';
import { SEEDED_MARKET } from '../src/market.ts';
import { amountOf, priceIn } from '../src/money.ts';
import { offerListing, OFFERS_PER_PAGE } from '../src/offers-catalog.ts';
import { AOD_LAYOUTS } from '../src/render/offers-layouts.ts';
import { renderAodFragment, renderOfferListingPage } from '../src/render/offers-page.ts';
import { renderProductPage } from '../src/render/pages.ts';
import { renderSellerPage, SELLER_LAYOUTS } from '../src/render/seller-page.ts';
import { amazonSellerId, OFFER_SELLERS, sellerIdOf } from '../src/seller-ids.ts';
import { sellerProfile } from '../src/seller-profiles.ts';
import { createSimulator, type Simulator } from '../src/server.ts';

const ORIGIN = 'http://127.0.0.1:4010';
const DOMAINS: MarketplaceDomain[] = ['amazon.com', 'amazon.de', 'amazon.fr', 'amazon.co.jp', 'amazon.es', 'amazon.it', 'amazon.in', 'amazon.com.br'];

function productOf(asin: string) {
  const product = getProduct(asin);
  if (!product) throw new Error(`no product ${asin}`);
  return product;
}

/** Well-known products with more than one page of offers, and with a sibling variation. */
const MANY = WELL_KNOWN_ASINS.filter((asin) => offerListing(productOf(asin)).list.length > OFFERS_PER_PAGE).slice(0, 3);
const WITH_SIBLING = WELL_KNOWN_ASINS.find((asin) => productOf(asin).variations.length > 1 && offerListing(productOf(asin)).list.length > 0) as string;

describe('the all-offers display', () => {
  it('has products with several pages of offers and one with a sibling variation', () => {
    expect(MANY.length).toBe(3);
    expect(WITH_SIBLING).toBeDefined();
  });

  it.each(AOD_LAYOUTS.flatMap((layout) => DOMAINS.map((domain) => [layout, domain] as const)))(
    '%s on %s: the parser reads every page as the catalog holds it',
    (layout, domain) => {
      for (const asin of MANY) {
        const product = productOf(asin);
        const listing = offerListing(product);
        const own = listing.list.filter((offer) => offer.asin === asin);
        const read = [];
        for (let page = 1; page <= Math.ceil(listing.list.length / OFFERS_PER_PAGE); page++) {
          const html = renderAodFragment({ product, domain, page, size: 'small', market: SEEDED_MARKET, layout }).html;
          const parsed = parseOffersPage(html, { origin: ORIGIN, asin, marketplace: domain });
          expect(parsed.recognized).toBe(true);
          expect(parsed.totalOffers).toBe(listing.list.length);
          expect(parsed.hasNextPage).toBe(page * OFFERS_PER_PAGE < listing.list.length);
          read.push(...parsed.offers);
        }
        const currency = MARKETPLACES[domain].currency;
        const buyBox = read.filter((offer) => offer.buyBox);
        expect(buyBox.length).toBe(1);
        // The buy box is the product page's offer: its price and its seller.
        const productPage = parseProductPage(renderProductPage({ asin, domain, size: 'small' })?.html ?? '', { origin: ORIGIN, marketplace: domain });
        expect([buyBox[0]?.price?.amount, buyBox[0]?.price?.currency]).toEqual([productPage.price?.amount, productPage.price?.currency]);
        expect(buyBox[0]?.sellerName).toBe(productPage.seller);
        const others = read.filter((offer) => !offer.buyBox);
        expect(others.map((o) => [o.price?.amount, o.shipping?.amount, o.condition, o.sellerId, o.fulfilledByAmazon, o.prime])).toEqual(
          own.map((o) => [
            amountOf(priceIn(o.priceUsdCents, currency)),
            amountOf(priceIn(o.shippingUsdCents, currency)),
            o.condition,
            o.seller === undefined ? undefined : sellerIdOf(o.seller),
            o.fulfilledByAmazon,
            o.prime,
          ]),
        );
        for (const offer of read) {
          expect(offer.landedPrice?.amount).toBeCloseTo((offer.price?.amount ?? 0) + (offer.shipping?.amount ?? 0), 6);
          expect(offer.delivery).toBeDefined();
        }
        expect(others.filter((o) => o.condition === 'used' || o.condition === 'collectible').every((o) => o.conditionNote !== undefined)).toBe(true);
      }
    },
  );

  it("drops the sibling's offer the family's view lists among the product's own", () => {
    const product = productOf(WITH_SIBLING);
    const listing = offerListing(product);
    const foreign = listing.list.filter((offer) => offer.asin !== WITH_SIBLING).length;
    expect(foreign).toBe(1);
    const pages = Array.from({ length: Math.ceil(listing.list.length / OFFERS_PER_PAGE) }, (_, i) =>
      parseOffersPage(renderAodFragment({ product, domain: 'amazon.com', page: i + 1, size: 'small', market: SEEDED_MARKET }).html, {
        origin: ORIGIN,
        asin: WITH_SIBLING,
      }),
    );
    expect(pages.reduce((sum, page) => sum + page.foreignOffers, 0)).toBe(1);
    expect(pages.flatMap((page) => page.offers).every((offer) => offer.asin === WITH_SIBLING)).toBe(true);
  });

  it('is the same in full size, with the weight of the real fragment', () => {
    const asin = MANY[0] as string;
    const small = renderAodFragment({ product: productOf(asin), domain: 'amazon.de', page: 1, size: 'small', market: SEEDED_MARKET });
    const full = renderAodFragment({ product: productOf(asin), domain: 'amazon.de', page: 1, size: 'full', market: SEEDED_MARKET });
    expect(full.html.length).toBeGreaterThan(200_000);
    const read = (html: string) => parseOffersPage(html, { origin: ORIGIN, asin, marketplace: 'amazon.de' }).offers;
    expect(read(full.html)).toEqual(read(small.html));
  });

  it.each(DOMAINS)('the older offer-listing page on %s reads as the fragment does, without a pinned offer', (domain) => {
    const asin = MANY[1] as string;
    const product = productOf(asin);
    const listing = parseOffersPage(renderOfferListingPage({ product, domain, page: 1, size: 'small', market: SEEDED_MARKET }).html, {
      origin: ORIGIN,
      asin,
      marketplace: domain,
    });
    const aod = parseOffersPage(renderAodFragment({ product, domain, page: 1, size: 'small', market: SEEDED_MARKET }).html, {
      origin: ORIGIN,
      asin,
      marketplace: domain,
    });
    expect(listing).toMatchObject({ recognized: true, layout: 'offer-listing', hasNextPage: true });
    const key = (o: (typeof aod.offers)[number]) => [
      o.sellerId,
      o.price?.amount,
      o.shipping?.amount,
      o.condition,
      o.conditionNote,
      o.fulfilledByAmazon,
      o.prime,
    ];
    expect(listing.offers.map(key)).toEqual(aod.offers.filter((o) => !o.buyBox).map(key));
  });
});

describe('seller profiles', () => {
  const ids = [...OFFER_SELLERS.map(sellerIdOf), 'A1B2C3D4E5F6G7', 'AZZZZZZZZZZZZ'];

  it.each(SELLER_LAYOUTS.flatMap((layout) => MARKETPLACE_DOMAINS.map((domain) => [layout, domain] as const)))(
    '%s on %s: the parser reads what the profile holds',
    (layout, domain) => {
      for (const id of ids) {
        const seller = sellerProfile(id, domain);
        if (!seller) throw new Error(id);
        const page = parseSellerPage(renderSellerPage({ seller, domain, size: 'small', layout }).html, { origin: ORIGIN, sellerId: id, marketplace: domain });
        expect(page.recognized).toBe(true);
        const f = seller.feedback;
        const count = (n: number | undefined) => (n === 0 ? undefined : n);
        // Only the values the profile has: JSON drops the others.
        const expected = JSON.parse(
          JSON.stringify({
            sellerId: id,
            name: seller.name,
            ratingPercent: f?.months12.positive,
            ratingCount: f?.months12.count,
            businessName: seller.business?.name,
            businessAddress: seller.business?.address.join(', '),
            storefrontUrl: `${ORIGIN}/s?me=${id}&marketplaceID=${MARKETPLACES[domain].id}`,
          }),
        );
        expect(page.seller).toMatchObject(expected);
        for (const field of ['businessName', 'businessAddress'] as const) if (expected[field] === undefined) expect(page.seller?.[field]).toBeUndefined();
        if (f)
          expect(page.seller?.feedback).toEqual(
            JSON.parse(
              JSON.stringify({ days30: count(f.days30.count), days90: count(f.days90.count), months12: f.months12.count, lifetime: f.lifetime.count }),
            ),
          );
        else expect(page.seller?.missingFields).toEqual(expect.arrayContaining(['ratingPercent', 'ratingCount', 'feedback']));
      }
    },
  );

  it("Amazon's own profile on a storefront shows its name and no ratings", () => {
    const seller = sellerProfile(amazonSellerId('amazon.de'), 'amazon.de');
    if (!seller) throw new Error('no Amazon profile');
    const page = parseSellerPage(renderSellerPage({ seller, domain: 'amazon.de', size: 'full' }).html, { origin: ORIGIN, sellerId: seller.id });
    expect(page.seller).toMatchObject({ name: 'Amazon', missingFields: ['ratingPercent', 'ratingCount', 'feedback', 'businessName', 'businessAddress'] });
  });

  it('is undefined for a malformed id', () => {
    expect(sellerProfile('A123', 'amazon.com')).toBeUndefined();
    expect(sellerProfile('B08N5WRWNW', 'amazon.com')).toBeUndefined();
  });
});

describe('the routes', () => {
  let simulator: Simulator;
  beforeAll(async () => {
    simulator = await createSimulator({ pageSize: 'small' });
  });
  afterAll(async () => {
    await simulator.close();
  });
  const get = (path: string) => fetch(`${simulator.url}${path}`);

  it('serve the fragment per page and filter, the older page, and their blocked answers', async () => {
    const asin = MANY[0] as string;
    const fragment = await get(`/gp/product/ajax/aodAjaxMain/?asin=${asin}&pc=dp&pageno=1`);
    expect(fragment.status).toBe(200);
    expect(fragment.headers.get('x-sim-layout')).toMatch(/^aod-(rows|inline)$/);
    const all = parseOffersPage(await fragment.text(), { origin: simulator.url, asin });
    const filters = encodeURIComponent(JSON.stringify({ all: false, new: true }));
    const onlyNew = parseOffersPage(await (await get(`/gp/product/ajax/aodAjaxMain/?asin=${asin}&pageno=1&filters=${filters}`)).text(), {
      origin: simulator.url,
      asin,
    });
    expect(onlyNew.offers.filter((o) => !o.buyBox).every((o) => o.condition === 'new')).toBe(true);
    expect(onlyNew.totalOffers).toBeLessThan(all.totalOffers ?? 0);
    const older = await get(`/Some-Slug/gp/offer-listing/${asin}/ref=dp_olp?startIndex=10&f_used=true`);
    expect(parseOffersPage(await older.text(), { origin: simulator.url, asin }).offers.every((o) => o.condition === 'used')).toBe(true);
    const other = await (await get(`/gp/product/ajax/aodAjaxMain/?asin=${asin}&pageno=1&sim_offers=other-asin`)).text();
    expect(parseOffersPage(other, { origin: simulator.url, asin }).recognized).toBe(false);
    const empty = await get(`/gp/product/ajax/aodAjaxMain/?asin=${asin}&sim_offers=empty`);
    expect(empty.status).toBe(200);
    expect(parseOffersPage(await empty.text(), { origin: simulator.url, asin }).recognized).toBe(false);
    expect((await get('/gp/product/ajax/aodAjaxMain/?asin=B0NOTFOUND')).status).toBe(404);
    expect((await get('/gp/offer-listing/B0NOTFOUND')).status).toBe(404);
  });

  it('serve a profile for any well-formed seller id, in the layout asked for, and another seller on the blocked answer', async () => {
    const id = sellerIdOf('Vintage Shelf');
    for (const layout of SELLER_LAYOUTS) {
      const response = await get(`/sp?ie=UTF8&seller=${id}&layout=${layout}&domain=amazon.fr`);
      expect(response.headers.get('x-sim-layout')).toBe(layout);
      expect(parseSellerPage(await response.text(), { origin: simulator.url, sellerId: id }).seller?.name).toBe('Vintage Shelf');
    }
    const other = await (await get(`/sp?seller=${id}&sim_seller=other`)).text();
    expect(parseSellerPage(other, { origin: simulator.url, sellerId: id }).recognized).toBe(false);
    expect((await get('/sp?seller=NOTASELLER')).status).toBe(404);
    expect((await get('/sp')).status).toBe(404);
  });
});
