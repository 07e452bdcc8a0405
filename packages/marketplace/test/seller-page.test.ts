import { describe, expect, it } from 'vitest';
import { parseSellerPage } from '../src/index.ts';
import { fixture } from './fixtures.ts';

describe('parseSellerPage — classic profile (amazon.com)', () => {
  const page = parseSellerPage(fixture('seller-classic-us.html'), { origin: 'https://www.amazon.com', sellerId: 'A2BLUEHARBOR01' });

  it('reads name, summary, the count row per period, business rows and the storefront link', () => {
    expect(page).toMatchObject({ recognized: true, layout: 'classic' });
    expect(page.seller).toEqual({
      sellerId: 'A2BLUEHARBOR01',
      name: 'Blue Harbor Goods',
      ratingPercent: 96,
      ratingCount: 1234,
      feedback: { days30: 88, days90: 301, months12: 1234, lifetime: 10502 },
      businessName: 'Blue Harbor Goods LLC',
      businessAddress: '1200 Harbor Way, Suite 4, Portland, OR, 97201, US',
      storefrontUrl: 'https://www.amazon.com/s?ie=UTF8&marketplaceID=ATVPDKIKX0DER&me=A2BLUEHARBOR01',
      missingFields: [],
    });
  });

  it("is not the profile of another seller whose id only this page's links name", () => {
    expect(parseSellerPage(fixture('seller-classic-us.html'), { origin: 'https://www.amazon.com', sellerId: 'A9OTHERSELLER1' }).recognized).toBe(false);
  });
});

describe('parseSellerPage — 2022 profile in German (amazon.de)', () => {
  const page = parseSellerPage(fixture('seller-redesign-de.html'), { origin: 'https://www.amazon.de', sellerId: 'a1kleinhandel9' });

  it('reads German labels; the address stops at the next labelled row; a period without feedback has no count', () => {
    expect(page).toMatchObject({ recognized: true, layout: 'redesign' });
    expect(page.seller).toMatchObject({
      sellerId: 'A1KLEINHANDEL9',
      name: 'Kleinhandel Süd',
      ratingPercent: 98,
      ratingCount: 2345,
      feedback: { days90: 512, months12: 2345, lifetime: 18007 },
      businessName: 'Kleinhandel Süd GmbH',
      businessAddress: 'Hauptstraße 12, 80331, München, DE',
      storefrontUrl: 'https://www.amazon.de/s?me=A1KLEINHANDEL9&marketplaceID=A1PA6795UKMFR9',
    });
    expect(page.seller?.feedback?.days30).toBeUndefined();
  });
});

describe('parseSellerPage — a new seller in French without ratings', () => {
  it('names the fields the page does not show', () => {
    const page = parseSellerPage(fixture('seller-redesign-fr-minimal.html'), { origin: 'https://www.amazon.fr', sellerId: 'A7LUMIERE00001' });
    expect(page.seller).toMatchObject({ name: 'Boutique Lumière', businessName: 'Boutique Lumière SARL', businessAddress: '5 rue des Lilas, 69001 Lyon, FR' });
    expect(page.seller?.missingFields).toEqual(['ratingPercent', 'ratingCount', 'feedback', 'storefrontUrl']);
  });
});

describe('parseSellerPage — pages that are no seller profile', () => {
  it.each(['block-captcha-200.html', 'block-robot-check.html', 'block-503-sorry.html', 'product-apex-de.html', 'offers-aod-us.html'])('%s', (name) => {
    expect(parseSellerPage(fixture(name), { origin: 'https://www.amazon.com', sellerId: 'A2BLUEHARBOR01' })).toEqual({ recognized: false });
  });

  it('a sign-in page', () => {
    const html =
      '<html><head><title>Amazon Sign-In</title></head><body><form name="signIn" action="/ap/signin"><input type="email" id="ap_email"></form></body></html>';
    expect(parseSellerPage(html, { origin: 'https://www.amazon.com', sellerId: 'A2BLUEHARBOR01' }).recognized).toBe(false);
  });
});
