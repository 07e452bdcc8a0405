import { describe, expect, it } from 'vitest';
import { detectBlock, parseOffersPage } from '../src/index.ts';
import { fixture } from './fixtures.ts';

const US = { origin: 'https://www.amazon.com', asin: 'B0FIXT0001' };

describe('parseOffersPage — all-offers display fragment (amazon.com)', () => {
  const page = parseOffersPage(fixture('offers-aod-us.html'), US);

  it('is recognised as the AOD of the ASIN asked for, with its count and next page', () => {
    expect(page).toMatchObject({ recognized: true, layout: 'aod', totalOffers: 4, hasNextPage: true, foreignOffers: 1 });
  });

  it('takes the pinned offer as the buy box, first, and never the sticky copy or the script data', () => {
    expect(page.offers.map((o) => [o.position, o.sellerName, o.buyBox])).toEqual([
      [1, 'Amazon.com', true],
      [2, 'Blue Harbor Goods', false],
      [3, 'Northwind & Traders', false],
      [4, 'Maple & Pine Store', false],
    ]);
  });

  it("reads the buy box's price (not the struck one), free delivery, Prime and Amazon's fulfilment", () => {
    const [buyBox] = page.offers;
    expect(buyBox).toMatchObject({
      asin: 'B0FIXT0001',
      price: { amount: 39.99, currency: 'USD' },
      shipping: { amount: 0, currency: 'USD' },
      landedPrice: { amount: 39.99, currency: 'USD' },
      condition: 'new',
      conditionRaw: 'New',
      prime: true,
      fulfilledByAmazon: true,
      shipsFrom: 'Amazon.com',
      delivery: 'FREE delivery Friday, May 31',
    });
    expect(buyBox?.sellerId).toBeUndefined();
    expect(buyBox?.missingFields).toEqual(['sellerId', 'conditionNote']);
  });

  it('reads a used offer: seller id from the profile link, charged shipping, landed price, the full condition note', () => {
    expect(page.offers[1]).toMatchObject({
      sellerId: 'A2BLUEHARBOR01',
      price: { amount: 31.5 },
      shipping: { amount: 5.99, currency: 'USD', raw: '$5.99' },
      landedPrice: { amount: 37.49, currency: 'USD' },
      condition: 'used',
      conditionRaw: 'Used - Like New',
      conditionNote: 'Box opened, lamp never used. All parts included.',
      fulfilledByAmazon: false,
      prime: false,
      delivery: '$5.99 delivery June 3 - 7',
    });
  });

  it('drops the offer of another ASIN (another variation) and keeps a collectible without shipping info', () => {
    expect(page.offers.some((o) => o.sellerName === 'Quayside Direct')).toBe(false);
    expect(page.offers[3]).toMatchObject({ condition: 'collectible', sellerId: 'A5MAPLEPINE22' });
    expect(page.offers[3]?.missingFields).toEqual(['shipping', 'landedPrice', 'conditionNote', 'fulfilledByAmazon', 'delivery']);
  });
});

describe('parseOffersPage — a later AOD page in German (amazon.de)', () => {
  const page = parseOffersPage(fixture('offers-aod-de-page2.html'), { origin: 'https://www.amazon.de', asin: 'B0FIXT0001' });

  it('reads euro prices in both widget forms, a charged and a free delivery, and German conditions', () => {
    expect(page.recognized).toBe(true);
    expect(page.hasNextPage).toBe(false);
    expect(page.totalOffers).toBe(13);
    expect(page.offers.map((o) => [o.price?.amount, o.shipping?.amount, o.landedPrice?.amount, o.condition, o.buyBox])).toEqual([
      [1234.5, 3.99, 1238.49, 'used', false],
      [1299, 0, 1299, 'new', false],
    ]);
    expect(page.offers[0]).toMatchObject({ sellerId: 'A1KLEINHANDEL9', fulfilledByAmazon: true, price: { currency: 'EUR' } });
    expect(page.offers[1]).toMatchObject({ sellerName: 'Amazon.de', fulfilledByAmazon: true });
  });
});

describe('parseOffersPage — the 2024 view (amazon.in): price spans without the widget, rows without columns', () => {
  it('reads the price to pay (not the basis price), paid and free delivery, and list entries by their class', () => {
    const page = parseOffersPage(fixture('offers-aod-2024-in.html'), { origin: 'https://www.amazon.in', asin: 'B0FIXT0003' });
    expect(page.recognized).toBe(true);
    expect(
      page.offers.map((o) => [
        o.buyBox,
        o.price?.amount,
        o.shipping?.amount,
        o.landedPrice?.amount,
        o.sellerId,
        o.sellerName,
        o.shipsFrom,
        o.fulfilledByAmazon,
        o.condition,
      ]),
    ).toEqual([
      [true, 1249, 0, 1249, 'A2KESTRELSUP01', 'Kestrel Supply Co.', 'Amazon', true, 'new'],
      [false, 980, 76, 1056, 'A3COBALTCORNR', 'Cobalt Corner', 'Cobalt Corner', false, 'used'],
    ]);
    expect(page.offers[0]?.price?.currency).toBe('INR');
  });
});

describe('parseOffersPage — the older offer-listing page', () => {
  const page = parseOffersPage(fixture('offers-listing-us.html'), US);

  it('is recognised, with the header location and the pagination', () => {
    expect(page).toMatchObject({ recognized: true, layout: 'offer-listing', hasNextPage: true, deliverTo: 'Rockville 20852', foreignOffers: 0 });
  });

  it('reads each row: plain prices, free and charged shipping, FBA badge, note, Amazon as an image', () => {
    expect(
      page.offers.map((o) => [o.sellerName, o.sellerId, o.price?.amount, o.shipping?.amount, o.landedPrice?.amount, o.condition, o.fulfilledByAmazon, o.prime]),
    ).toEqual([
      ['Northwind Traders', 'A3NORTHWIND07', 36.49, 0, 36.49, 'new', true, true],
      ['Blue Harbor Goods', 'A2BLUEHARBOR01', 28, 4.49, 32.49, 'used', false, false],
      ['Amazon.com', undefined, 39.99, 0, 39.99, 'new', true, false],
    ]);
    expect(page.offers[0]?.delivery).toBe('Arrives between May 30-31.');
    expect(page.offers[1]).toMatchObject({ conditionNote: 'Light scratches on the base; works perfectly.', shipsFrom: 'OR, United States' });
    expect(page.offers.every((o) => !o.buyBox)).toBe(true);
  });

  it('is not taken for another ASIN whose page the canonical link names', () => {
    expect(parseOffersPage(fixture('offers-listing-us.html'), { ...US, asin: 'B0FIXT0002' }).recognized).toBe(false);
  });
});

describe('parseOffersPage — pages that are not the offers asked for', () => {
  it('an AOD whose offers are all of another ASIN is not recognised', () => {
    const page = parseOffersPage(fixture('offers-aod-other-asin.html'), US);
    expect(page).toMatchObject({ recognized: false, offers: [], foreignOffers: 2 });
  });

  it('an AOD without any offer is recognised and empty', () => {
    const page = parseOffersPage(fixture('offers-aod-none.html'), US);
    expect(page).toMatchObject({ recognized: true, offers: [], totalOffers: 0, hasNextPage: false });
  });

  it.each(['block-captcha-200.html', 'block-robot-check.html', 'block-503-sorry.html', 'product-apex-de.html', 'search-classic-us.html'])(
    '%s is not an offers page',
    (name) => {
      expect(parseOffersPage(fixture(name), US).recognized).toBe(false);
    },
  );

  it('a sign-in page is not recognised (and no block detector needs to know it)', () => {
    const html =
      '<html><head><title>Amazon Sign-In</title></head><body><form name="signIn" action="/ap/signin"><input type="email" id="ap_email"></form></body></html>';
    expect(detectBlock({ status: 200, html }).blocked).toBe(false);
    expect(parseOffersPage(html, US).recognized).toBe(false);
  });
});
