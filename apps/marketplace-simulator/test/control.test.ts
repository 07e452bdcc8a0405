import { parseProductPage, parseSearchPage, type ProductDetails, type SearchItem } from '@crawl/marketplace';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_DRIFT,
  PRODUCT_LAYOUTS,
  SEARCH_LAYOUTS,
  SPECIAL_ASINS,
  WELL_KNOWN_ASINS,
  changedFields,
  createSimulator,
  getProduct,
  marketAt,
  renderProductPage,
  searchCatalog,
  stepAt,
  type Simulator,
} from '../src/index.ts';
import type { ControlBody, ControlStateView } from '../src/control/routes.ts';

const HOUR = 3_600_000;
const START = Date.UTC(2026, 0, 1);

async function page(sim: Simulator, path: string): Promise<{ status: number; html: string; step: string | null }> {
  const res = await fetch(`${sim.url}${path}`);
  return { status: res.status, html: await res.text(), step: res.headers.get('x-sim-step') };
}

/** A control route's answer; `Body` names the answer the test expects (the state for GET and DELETE `/__control`). */
async function control<Body extends ControlBody = ControlBody>(
  sim: Simulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Body }> {
  const res = await fetch(`${sim.url}/__control${path}`, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Body };
}

async function product(sim: Simulator, asin: string, query = ''): Promise<ProductDetails> {
  const domain = /domain=([a-z.]+)/.exec(query)?.[1] ?? 'amazon.com';
  return parseProductPage((await page(sim, `/dp/${asin}?${query}`)).html, { origin: sim.url, marketplace: domain });
}

async function searchItems(sim: Simulator, keyword: string, query = ''): Promise<SearchItem[]> {
  const html = (await page(sim, `/s?k=${encodeURIComponent(keyword)}&${query}`)).html;
  return parseSearchPage(html, { origin: sim.url, marketplace: 'amazon.com' }).items;
}

/** An organic result of page 1 of `keyword` with an offer, and the number of organic results a page has. */
function organicOf(keyword: string): { asin: string; perPage: number } {
  const organic = searchCatalog(keyword, 1, { maxPages: 7 }).entries.filter((e) => !e.sponsored);
  const asin = organic.find((e, i) => i > 4 && getProduct(e.asin)!.priceUsdCents !== undefined)!.asin;
  return { asin, perPage: organic.length };
}

describe('simulator control routes', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await createSimulator({ pageSize: 'small', clock: { now: () => new Date(START) } });
  });
  afterEach(async () => {
    expect((await control(sim, 'DELETE', '')).status).toBe(200);
  });
  afterAll(async () => {
    await sim.close();
  });

  it('leaves drift off by default: moving the clock a month changes no page', async () => {
    const asin = organicOf('kettle').asin;
    const before = [await page(sim, `/dp/${asin}`), await page(sim, '/s?k=kettle')];
    expect(before[0]!.step).toBeNull();
    expect(before[0]!.html).toBe(renderProductPage({ asin, size: 'small' })!.html);
    const moved = await control(sim, 'POST', '/clock', { advanceMs: 30 * 24 * HOUR });
    expect(moved).toMatchObject({ status: 200, json: { now: new Date(START + 30 * 24 * HOUR).toISOString(), pinned: true } });
    const after = [await page(sim, `/dp/${asin}`), await page(sim, '/s?k=kettle')];
    expect(after.map((p) => p.html)).toEqual(before.map((p) => p.html));
    expect((await control<ControlStateView>(sim, 'GET', '')).json.drift).toEqual({ enabled: false, ...DEFAULT_DRIFT });
  });

  it('shows an override of price, list price, seller, coupon and deal on every product layout and on the search cards', async () => {
    const { asin } = organicOf('kettle');
    const set = await control(sim, 'POST', `/products/${asin.toLowerCase()}`, {
      price: 12.34,
      listPrice: 20,
      seller: 'Harbour Test Seller',
      coupon: 15,
      deal: true,
      inStock: true,
    });
    expect(set).toEqual({
      status: 200,
      json: {
        asin,
        domain: 'all',
        override: { currency: 'USD', price: 12.34, listPrice: 20, seller: 'Harbour Test Seller', coupon: 15, deal: true, inStock: true },
      },
    });
    for (const layout of PRODUCT_LAYOUTS) {
      const details = await product(sim, asin, `layout=${layout}`);
      expect(details.price, layout).toMatchObject({ amount: 12.34, currency: 'USD' });
      expect(details.listPrice, layout).toMatchObject({ amount: 20, currency: 'USD' });
      expect(details.seller, layout).toBe('Harbour Test Seller');
      expect(details.coupon, layout).toMatch(/15%/);
      expect(details.deal, layout).toBe('Limited time deal');
      expect(details.inStock, layout).toBe(true);
    }
    for (const layout of SEARCH_LAYOUTS) {
      const card = (await searchItems(sim, 'kettle', `layout=${layout}`)).find((item) => item.asin === asin)!;
      expect(card.price, layout).toMatchObject({ amount: 12.34, currency: 'USD' });
      expect(card.listPrice, layout).toMatchObject({ amount: 20, currency: 'USD' });
      expect(card.coupon, layout).toMatch(/15%/);
      expect(card.badges, layout).toContain('limited_time_deal');
    }
    // Taking them away again: no list price, sold by the storefront, no coupon, no deal.
    await control(sim, 'POST', `/products/${asin}`, { listPrice: null, seller: null, coupon: null, deal: false });
    const details = await product(sim, asin, 'layout=desktop');
    expect([details.listPrice, details.coupon, details.deal, details.seller]).toEqual([undefined, undefined, undefined, 'Amazon.com']);
    const card = (await searchItems(sim, 'kettle', 'layout=classic')).find((item) => item.asin === asin)!;
    expect([card.price?.amount, card.coupon, card.badges?.includes('limited_time_deal') ?? false]).toEqual([12.34, undefined, false]);
  });

  it('sets stock: out of stock (no offer anywhere), running low, or an availability text', async () => {
    const { asin } = organicOf('kettle');
    await control(sim, 'POST', `/products/${asin}`, { inStock: false });
    for (const layout of PRODUCT_LAYOUTS) {
      const details = await product(sim, asin, `layout=${layout}`);
      expect([details.inStock, details.availability, details.price], layout).toEqual([false, 'Currently unavailable.', undefined]);
    }
    expect((await searchItems(sim, 'kettle')).find((item) => item.asin === asin)?.price).toBeUndefined();

    await control(sim, 'POST', `/products/${asin}`, { stockLeft: 3 });
    let details = await product(sim, asin);
    expect([details.inStock, details.availability]).toEqual([true, 'Only 3 left in stock - order soon.']);
    expect(details.price?.amount).toBe(getProduct(asin)!.priceUsdCents! / 100);

    await control(sim, 'POST', `/products/${asin}`, { availability: 'Usually ships within 6 to 10 days.' });
    details = await product(sim, asin);
    expect([details.inStock, details.availability]).toEqual([true, 'Usually ships within 6 to 10 days.']);

    // A product generated without an offer gets its shelf price back when restocked.
    await control(sim, 'POST', `/products/${SPECIAL_ASINS.noPrice}`, { inStock: true });
    details = await product(sim, SPECIAL_ASINS.noPrice);
    expect([details.inStock, details.availability]).toEqual([true, 'In Stock']);
    expect(details.price?.amount).toBeGreaterThan(0);
  });

  it("sets a storefront's own price in its currency, leaving the others as they were", async () => {
    const asin = WELL_KNOWN_ASINS[4]!;
    const usBefore = await product(sim, asin);
    const set = await control(sim, 'POST', `/products/${asin}`, { domain: 'amazon.de', price: 19.99 });
    expect(set.json).toEqual({ asin, domain: 'amazon.de', override: { currency: 'EUR', price: 19.99 } });
    expect((await product(sim, asin, 'domain=amazon.de')).price).toMatchObject({ amount: 19.99, currency: 'EUR' });
    expect((await product(sim, asin)).price).toEqual(usBefore.price);
    // The storefront's own override wins over one for every storefront; the yen has no decimals.
    await control(sim, 'POST', `/products/${asin}`, { price: 50 });
    expect((await product(sim, asin, 'domain=amazon.de')).price?.amount).toBe(19.99);
    expect((await product(sim, asin)).price?.amount).toBe(50);
    await control(sim, 'POST', `/products/${asin}`, { domain: 'amazon.co.jp', price: 1980 });
    expect((await product(sim, asin, 'domain=amazon.co.jp')).price).toMatchObject({ amount: 1980, currency: 'JPY' });
    // Clearing the product takes every storefront's override away.
    expect((await control(sim, 'DELETE', `/products/${asin}`)).json).toEqual({ asin, cleared: true });
    expect((await product(sim, asin)).price).toEqual(usBefore.price);
  });

  it("puts a product at a keyword's search rank, across pages as the crawler counts ranks", async () => {
    const { perPage } = organicOf('kettle');
    const stranger = WELL_KNOWN_ASINS[7]!;
    expect((await control(sim, 'POST', '/search-ranks', { keyword: '  Kettle ', asin: stranger, rank: 1 })).json).toEqual({
      keyword: 'Kettle',
      asin: stranger,
      rank: 1,
    });
    for (const layout of SEARCH_LAYOUTS) {
      const organic = (await searchItems(sim, 'kettle', `layout=${layout}`)).filter((item) => !item.sponsored);
      expect(organic[0], layout).toMatchObject({ asin: stranger, rank: 1 });
      expect(organic.length, layout).toBe(perPage);
    }
    // The same product at another rank moves there; a rank on page 2 is that page's rank minus page 1's results.
    await control(sim, 'POST', '/search-ranks', { keyword: 'kettle', asin: stranger, rank: perPage + 4 });
    expect((await searchItems(sim, 'kettle')).some((item) => item.asin === stranger)).toBe(false);
    const second = (await searchItems(sim, 'kettle', 'page=2')).filter((item) => !item.sponsored);
    expect(second.find((item) => item.asin === stranger)?.rank).toBe(4);
    expect(second.length).toBe(perPage);
    // A product already in the results leaves its place for the one it is given.
    const own = searchCatalog('kettle', 1, { maxPages: 7 }).entries.filter((e) => !e.sponsored)[9]!.asin;
    await control(sim, 'POST', '/search-ranks', { keyword: 'kettle', asin: own, rank: 2 });
    const first = (await searchItems(sim, 'kettle')).filter((item) => !item.sponsored);
    expect(first.filter((item) => item.asin === own).map((item) => item.rank)).toEqual([2]);
    expect(first.length).toBe(perPage);
  });

  it('resets every override, the clock and the drift switch', async () => {
    const { asin } = organicOf('kettle');
    const seeded = [await page(sim, `/dp/${asin}`), await page(sim, '/s?k=kettle')].map((p) => p.html);
    await control(sim, 'POST', `/products/${asin}`, { price: 3.5 });
    await control(sim, 'POST', '/search-ranks', { keyword: 'kettle', asin: WELL_KNOWN_ASINS[0], rank: 1 });
    await control(sim, 'POST', '/clock', { at: '2030-05-01T12:00:00Z' });
    await control(sim, 'POST', '/drift', { enabled: true });
    const state = (await control(sim, 'GET', '')).json;
    expect(state).toMatchObject({
      drift: { enabled: true },
      clock: { now: '2030-05-01T12:00:00.000Z', pinned: true },
      products: [{ asin, domain: 'all', override: { price: 3.5 } }],
      searchRanks: [{ keyword: 'kettle', asin: WELL_KNOWN_ASINS[0], rank: 1 }],
    });
    const reset = await control(sim, 'DELETE', '');
    expect(reset.json).toEqual({
      drift: { enabled: false, ...DEFAULT_DRIFT },
      clock: { now: new Date(START).toISOString(), pinned: false, step: stepAt(new Date(START), HOUR) },
      products: [],
      searchRanks: [],
    });
    expect([await page(sim, `/dp/${asin}`), await page(sim, '/s?k=kettle')].map((p) => p.html)).toEqual(seeded);
  });

  it.each([
    ['not JSON', '/products/B0SIM00001', '{price: 1'],
    ['an array', '/products/B0SIM00001', [1]],
    ['an empty object', '/products/B0SIM00001', {}],
    ['an unknown field', '/products/B0SIM00001', { price: 5, owner: 'x' }],
    ['a negative price', '/products/B0SIM00001', { price: -1 }],
    ['a price as text', '/products/B0SIM00001', { price: '9.99' }],
    ['three decimals', '/products/B0SIM00001', { price: 1.234 }],
    ['decimals in yen', '/products/B0SIM00001', { domain: 'amazon.co.jp', price: 19.99 }],
    ['an unknown storefront', '/products/B0SIM00001', { domain: 'example.com', price: 5 }],
    ['a coupon of 0 %', '/products/B0SIM00001', { coupon: 0 }],
    ['running low and out of stock', '/products/B0SIM00001', { inStock: false, stockLeft: 2 }],
    ['an empty seller', '/products/B0SIM00001', { seller: '  ' }],
    ['a deal as text', '/products/B0SIM00001', { deal: 'yes' }],
    ['no keyword', '/search-ranks', { asin: 'B0SIM00001', rank: 1 }],
    ['rank 0', '/search-ranks', { keyword: 'kettle', asin: 'B0SIM00001', rank: 0 }],
    ['a fractional rank', '/search-ranks', { keyword: 'kettle', asin: 'B0SIM00001', rank: 1.5 }],
    ['a short ASIN', '/search-ranks', { keyword: 'kettle', asin: 'B0SIM', rank: 1 }],
    ['two clock changes', '/clock', { at: '2026-01-01T00:00:00Z', advanceMs: 5 }],
    ['a date that is not one', '/clock', { at: 'yesterday' }],
    ['going back', '/clock', { advanceMs: -5 }],
    ['drift as text', '/drift', { enabled: 'yes' }],
  ])('answers 400 in the error envelope to %s', async (_, path, body) => {
    const answer = await control(sim, 'POST', path, body);
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', message: expect.any(String), details: expect.any(Array) } });
    // Nothing was set.
    expect((await control(sim, 'GET', '')).json).toMatchObject({ products: [], searchRanks: [], clock: { pinned: false }, drift: { enabled: false } });
  });

  it('answers 404 for unknown products and routes, 405 for other methods, 413 for large bodies', async () => {
    expect(await control(sim, 'POST', '/products/B0NOTFOUND', { price: 5 })).toMatchObject({ status: 404, json: { error: { code: 'NOT_FOUND' } } });
    expect(await control(sim, 'POST', '/search-ranks', { keyword: 'kettle', asin: 'B0NOTFOUND', rank: 1 })).toMatchObject({ status: 404 });
    expect(await control(sim, 'POST', '/nothing', {})).toMatchObject({ status: 404 });
    const get = await fetch(`${sim.url}/__control/products/B0SIM00001`);
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST, DELETE']);
    expect((await control(sim, 'POST', '', {})).status).toBe(405);
    expect((await control(sim, 'POST', '/products/B0SIM00001', JSON.stringify({ availability: 'x'.repeat(20_000) }))).status).toBe(413);
  });

  it('keeps the control routes out of the faults and the statistics', async () => {
    sim.resetStats();
    sim.setFaults({ captchaRate: 1 });
    try {
      expect((await control(sim, 'POST', `/products/${WELL_KNOWN_ASINS[0]}`, { price: 5 })).status).toBe(200);
      expect((await control(sim, 'GET', '')).status).toBe(200);
      expect(sim.stats().total).toBe(0);
      expect((await page(sim, `/dp/${WELL_KNOWN_ASINS[0]}`)).html).toContain('captcha');
      expect(sim.stats().total).toBe(1);
    } finally {
      sim.setFaults({});
    }
  });
});

describe('simulator with drift on', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await createSimulator({ pageSize: 'small', seed: 5, drift: true, clock: { now: () => new Date(START) } });
  });
  afterAll(async () => {
    await sim.close();
  });

  it("serves the clock's step: the same page within a step, the drifted product as the market computes it after a move", async () => {
    const settings = { seed: 5, drift: DEFAULT_DRIFT };
    const step = stepAt(new Date(START), HOUR);
    const priceOf = (a: string, hours: number) => marketAt(settings, 'amazon.com', new Date(START + hours * HOUR)).product(a)?.priceUsdCents;
    // A product with an offer whose price is due to change at the next step.
    const candidates = ['laptop', 'kettle', 'headphones', 'drill', 'lego'].flatMap((keyword) =>
      Array.from({ length: 7 }, (_, i) => searchCatalog(keyword, i + 1, { maxPages: 7 }).entries.map((e) => e.asin)).flat(),
    );
    const asin = candidates.find((a) => changedFields({ seed: 5, asin: a, changeShare: 0.05 }, step + 1).includes('price') && priceOf(a, 0) && priceOf(a, 1))!;
    expect(asin).toBeDefined();
    const first = await page(sim, `/dp/${asin}?layout=desktop`);
    expect(first.step).toBe(String(step));
    expect((await page(sim, `/dp/${asin}?layout=desktop`)).html).toBe(first.html);
    await control(sim, 'POST', '/clock', { advanceMs: HOUR - 1 });
    expect((await page(sim, `/dp/${asin}?layout=desktop`)).html).toBe(first.html);

    await control(sim, 'POST', '/clock', { advanceSteps: 1 });
    const next = await page(sim, `/dp/${asin}?layout=desktop`);
    expect(next.step).toBe(String(step + 1));
    const parse = (html: string) => parseProductPage(html, { origin: sim.url, marketplace: 'amazon.com' }).price?.amount;
    expect(parse(first.html)).toBe(priceOf(asin, 0)! / 100);
    expect(parse(next.html)).toBe(priceOf(asin, 1)! / 100);
    expect(parse(next.html)).not.toBe(parse(first.html));
  });

  it('lets an override win over the drift at every step, and switches drift off and on', async () => {
    const asin = WELL_KNOWN_ASINS[11]!;
    await control(sim, 'POST', `/products/${asin}`, { price: 7.77, seller: 'Pinned Seller' });
    for (let hours = 0; hours < 24; hours++) {
      await control(sim, 'POST', '/clock', { at: START + hours * HOUR });
      const details = await product(sim, asin);
      expect([details.price?.amount, details.seller], `hour ${hours}`).toEqual([7.77, 'Pinned Seller']);
    }
    await control(sim, 'DELETE', '');
    expect((await control(sim, 'POST', '/drift', { enabled: false })).json).toEqual({ enabled: false, ...DEFAULT_DRIFT });
    const asins = WELL_KNOWN_ASINS.slice(0, 20);
    const pages = async () => Promise.all(asins.map(async (a) => (await page(sim, `/dp/${a}`)).html));
    const off = await pages();
    expect(off).toEqual(asins.map((a) => renderProductPage({ asin: a, size: 'small' })!.html));
    await control(sim, 'POST', '/drift', { enabled: true });
    expect(await pages()).not.toEqual(off);
    // DELETE /__control puts drift back to how the simulator was started: on.
    await control(sim, 'POST', '/drift', { enabled: false });
    expect((await control<ControlStateView>(sim, 'DELETE', '')).json.drift.enabled).toBe(true);
  });
});
