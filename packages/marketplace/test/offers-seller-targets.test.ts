import { describe, expect, it } from 'vitest';
import { KIND_TARGETS } from '../src/targets/kind-targets.ts';
import { resolveOffersTarget } from '../src/targets/offers-target.ts';
import { resolveSellerTarget } from '../src/targets/seller-target.ts';

const SIMULATOR = { extraHosts: ['127.0.0.1:4010'] };

describe('resolveOffersTarget', () => {
  it.each([
    ['B08N5WRWNW', { ok: true, id: 'B08N5WRWNW' }],
    [' b08n5wrwnw ', { ok: true, id: 'B08N5WRWNW' }],
    ['https://www.amazon.com/gp/offer-listing/B08N5WRWNW/ref=dp_olp_NEW_mbc?condition=NEW', { ok: true, id: 'B08N5WRWNW', marketplace: 'amazon.com' }],
    ['https://www.amazon.de/Nordvik-Lampe/dp/B08N5WRWNW?th=1', { ok: true, id: 'B08N5WRWNW', marketplace: 'amazon.de' }],
    ['www.amazon.co.uk/gp/product/B08N5WRWNW', { ok: true, id: 'B08N5WRWNW', marketplace: 'amazon.co.uk' }],
    ['https://www.amazon.fr/gp/product/ajax/aodAjaxMain/?asin=B08N5WRWNW&pc=dp', { ok: true, id: 'B08N5WRWNW', marketplace: 'amazon.fr' }],
    ['http://127.0.0.1:4010/gp/offer-listing/B0SIM00001', { ok: true, id: 'B0SIM00001' }],
  ])('accepts %s', (value, expected) => {
    expect(resolveOffersTarget(value, SIMULATOR)).toEqual(expected);
  });

  it.each([
    ['', /empty/],
    ['lamp', /not an ASIN or an offer-listing URL/],
    ['B08N5WRWN', /not an ASIN/],
    ['https://www.amazon.com/s?k=lamp', /names no product/],
    ['https://www.amazon.com/gp/product/ajax/aodAjaxMain/?asin=nope', /names no product/],
    ['https://evil.example/gp/offer-listing/B08N5WRWNW', /not an allowed marketplace/],
    ['https://user:pw@www.amazon.com/gp/offer-listing/B08N5WRWNW', /credentials/],
    ['ftp://www.amazon.com/gp/offer-listing/B08N5WRWNW', /unsupported URL scheme ftp/],
  ])('refuses %s', (value, reason) => {
    const target = resolveOffersTarget(value, SIMULATOR);
    expect(target.ok).toBe(false);
    if (!target.ok) expect(target.reason).toMatch(reason);
  });
});

describe('resolveSellerTarget', () => {
  it.each([
    ['A1PA6795UKMFR9', { ok: true, id: 'A1PA6795UKMFR9' }],
    ['acunarzfr75et', { ok: true, id: 'ACUNARZFR75ET' }],
    ['https://www.amazon.com/sp?ie=UTF8&seller=A2BLUEHARBOR01&asin=B08N5WRWNW', { ok: true, id: 'A2BLUEHARBOR01', marketplace: 'amazon.com' }],
    ['https://www.amazon.de/gp/aag/main?seller=A1KLEINHANDEL9&isAmazonFulfilled=1', { ok: true, id: 'A1KLEINHANDEL9', marketplace: 'amazon.de' }],
    [
      'https://www.amazon.co.uk/gp/help/seller/at-a-glance.html/ref=dp_merchant_link?seller=A3NORTHWIND07',
      { ok: true, id: 'A3NORTHWIND07', marketplace: 'amazon.co.uk' },
    ],
    ['www.amazon.fr/s?me=A7LUMIERE00001&marketplaceID=A13V1IB3VIYZZH', { ok: true, id: 'A7LUMIERE00001', marketplace: 'amazon.fr' }],
    ['http://127.0.0.1:4010/sp?seller=A2BLUEHARBOR01', { ok: true, id: 'A2BLUEHARBOR01' }],
  ])('accepts %s', (value, expected) => {
    expect(resolveSellerTarget(value, SIMULATOR)).toEqual(expected);
  });

  it.each([
    ['', /empty/],
    ['B08N5WRWNW', /not a seller id or a seller profile URL/],
    ['A12345', /not a seller id/],
    ['A1PA6795UKMFR9XYZ', /not a seller id/],
    ['https://www.amazon.com/sp?seller=B08N5WRWNW', /is not a seller id/],
    ['https://www.amazon.com/sp', /names no seller/],
    ['https://www.amazon.com/dp/B08N5WRWNW?seller=A2BLUEHARBOR01', /names no seller/],
    ['https://www.amazon.com.evil.example/sp?seller=A2BLUEHARBOR01', /not an allowed marketplace/],
    ['javascript:alert(1)', /unsupported URL scheme javascript/],
  ])('refuses %s', (value, reason) => {
    const target = resolveSellerTarget(value, SIMULATOR);
    expect(target.ok).toBe(false);
    if (!target.ok) expect(target.reason).toMatch(reason);
  });
});

it('both are registered for their job types', () => {
  expect(KIND_TARGETS.offers).toBe(resolveOffersTarget);
  expect(KIND_TARGETS.seller).toBe(resolveSellerTarget);
});
