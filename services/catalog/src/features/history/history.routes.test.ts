import type { ProductRecord, SearchRecord } from '@crawl/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackends } from '../../testing/backends.ts';
import { startCatalogHarness, type CatalogHarness, type HarnessUser } from '../../testing/catalog-harness.ts';
import { asinNumber, productRecord, searchRecord } from '../../testing/result-records.ts';

const price = (amount: number) => ({ amount, currency: 'EUR', raw: `${amount} €` });

describe.each(testBackends())('history routes ($name)', (backend) => {
  let h: CatalogHarness;
  let alice: HarnessUser;
  let bob: HarnessUser;
  let projectId: string;
  let hour = 0;

  /** Runs a one-target job (`config` over the defaults) whose target reports `items`, an hour after the last. */
  async function runJob(type: 'details' | 'search', target: string, items: (ProductRecord | SearchRecord)[], config: Record<string, unknown> = {}) {
    hour += 1;
    h.clock.set(new Date(Date.UTC(2026, 2, 2, hour)).toISOString());
    const created = await h.request({ method: 'POST', url: `/projects/${projectId}/jobs`, token: alice.token, body: { type, targets: [target], config } });
    expect(created.status).toBe(201);
    const jobId = created.body.data.id as string;
    await h.claim(jobId, 0);
    const report = await h.report(jobId, 0, { status: 'success', items });
    expect(report.status).toBe(200);
    return jobId;
  }
  const get = (url: string, token = alice.token) => h.request({ method: 'GET', url, token });
  const at = (n: number) => new Date(Date.UTC(2026, 2, 2, n)).toISOString();

  beforeAll(async () => {
    h = await startCatalogHarness({ env: backend.env() });
    alice = h.user();
    bob = h.user('org_other');
    projectId = (await h.request({ method: 'POST', url: '/projects', token: alice.token, body: { name: 'p' } })).body.data.id;
  });
  afterAll(async () => {
    await h.close();
  });

  it('keeps a change point per price change, extends an unchanged check, ignores partial and unverified records', async () => {
    const asin = 'B0HIST0001';
    const base = { asin, marketplace: 'amazon.de', price: price(10), inStock: true, seller: 'Shop', bestSellersRank: [{ rank: 5, category: 'Electronics' }] };
    await runJob('details', asin, [productRecord(base)], { domain: 'amazon.de' });
    await runJob('details', asin, [productRecord(base)], { domain: 'amazon.de' });
    let res = await get(`/products/${asin}/history?domain=amazon.de`);
    expect(res.status).toBe(200);
    expect(res.body.data.points).toEqual([
      {
        from: at(1),
        to: at(2),
        checks: 2,
        values: { price: 10, currency: 'EUR', inStock: true, buyBoxSeller: 'Shop', hasCoupon: false, hasDeal: false, 'bestSellersRank:Electronics': 5 },
      },
    ]);

    const changed = await runJob('details', asin, [productRecord({ ...base, price: price(12) })], { domain: 'amazon.de' });
    // A partial record (the job required the price, the page did not show it) leaves the price alone.
    await runJob(
      'details',
      asin,
      [productRecord({ ...base, price: undefined, quality: { status: 'partial', missing: ['price'] }, missingFields: ['price'] })],
      {
        domain: 'amazon.de',
      },
    );
    res = await get(`/products/${asin}/history?domain=amazon.de&fields=price,inStock`);
    expect(res.body.data).toEqual({
      subject: { marketplace: 'amazon.de', asin, zip: null },
      points: [
        { from: at(1), to: at(2), checks: 2, values: { price: 10, inStock: true } },
        { from: at(3), to: at(4), checks: 2, values: { price: 12, inStock: true } },
      ],
      nextCursor: null,
    });
    const latest = await get(`/products/${asin}?domain=www.Amazon.de`);
    expect(latest.body.data).toMatchObject({ since: at(3), lastSeenAt: at(4), checks: 2, values: { price: 12, 'bestSellersRank:Electronics': 5 } });
    expect(changed).toEqual(expect.any(String));

    // With a delivery postal code: a verified record is its own history; an unverified one writes nothing.
    const zipBase = { ...base, location: { requested: '10115', verified: true } };
    await runJob('details', asin, [productRecord(zipBase)], { domain: 'amazon.de', deliveryZip: '10115' });
    await runJob('details', asin, [productRecord({ ...zipBase, price: price(99), location: { requested: '10115', verified: false } })], {
      domain: 'amazon.de',
      deliveryZip: '10115',
    });
    res = await get(`/products/${asin}/history?domain=amazon.de&zip=10115`);
    expect(res.body.data.points).toEqual([{ from: at(5), to: at(5), checks: 1, values: expect.objectContaining({ price: 10 }) }]);
  });

  it("answers another organization's product 404 and its history empty", async () => {
    expect((await get('/products/B0HIST0001?domain=amazon.de', bob.token)).status).toBe(404);
    expect((await get('/products/B0HIST0001?domain=amazon.de', bob.token)).body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    expect((await get('/products/B0HIST0001/history?domain=amazon.de', bob.token)).body.data.points).toEqual([]);
    expect((await get('/products/B0HIST0001')).status).toBe(404);
  });

  it('pages change points with a cursor and downsamples by hour and day', async () => {
    const asin = 'B0HIST0002';
    const start = hour + 1;
    for (let n = 0; n < 5; n += 1) await runJob('details', asin, [productRecord({ asin, price: price(20 + n) })]);
    const first = await get(`/products/${asin}/history?limit=2`);
    expect(first.body.data.points.map((p: { values: { price: number } }) => p.values.price)).toEqual([20, 21]);
    const second = await get(`/products/${asin}/history?limit=2&cursor=${first.body.data.nextCursor}`);
    expect(second.body.data.points.map((p: { values: { price: number } }) => p.values.price)).toEqual([22, 23]);
    const third = await get(`/products/${asin}/history?limit=2&cursor=${second.body.data.nextCursor}`);
    expect(third.body.data).toMatchObject({ nextCursor: null, points: [{ values: { price: 24 } }] });
    // A window: the points in force between from and to.
    const window = await get(`/products/${asin}/history?from=${at(start + 1)}&to=${at(start + 2)}`);
    expect(window.body.data.points.map((p: { from: string }) => p.from)).toEqual([at(start + 1), at(start + 2)]);

    const hourly = await get(`/products/${asin}/history?resolution=1h&limit=3&fields=price`);
    expect(hourly.body.data.points).toEqual([
      { from: at(start), to: at(start), checks: 1, values: { price: 20 } },
      { from: at(start + 1), to: at(start + 1), checks: 1, values: { price: 21 } },
      { from: at(start + 2), to: at(start + 2), checks: 1, values: { price: 22 } },
    ]);
    const rest = await get(`/products/${asin}/history?resolution=1h&limit=3&fields=price&cursor=${hourly.body.data.nextCursor}`);
    expect(rest.body.data.points.map((p: { values: { price: number } }) => p.values.price)).toEqual([23, 24]);
    expect(rest.body.data.nextCursor).toBeNull();
    // One day: the value in force at its end, the last check.
    const daily = await get(`/products/${asin}/history?resolution=1d&fields=price`);
    expect(daily.body.data.points).toEqual([{ from: '2026-03-02T00:00:00.000Z', to: at(start + 4), checks: 1, values: { price: 24 } }]);
  });

  it('keeps rank history per ASIN of a keyword and marks an ASIN that left the pages', async () => {
    const items = (asins: string[]) =>
      asins.map((asin, i) => searchRecord({ asin, keyword: 'USB  C Cable', rank: i + 1, position: i + 1, page: 1, marketplace: 'amazon.com' }));
    const [a, b, c] = [asinNumber(101), asinNumber(102), asinNumber(103)];
    const ad = searchRecord({ asin: b, keyword: 'usb c cable', position: 4, page: 1, sponsored: true });
    await runJob('search', 'usb c cable', [...items([a, b, c]), ad]);
    await runJob('search', 'usb c cable', items([b, a]));
    const all = await get('/keywords/usb%20c%20cable/ranks');
    expect(all.status).toBe(200);
    expect(all.body.data.keyword).toBe('usb c cable');
    const byAsin = (asin: string) =>
      all.body.data.points
        .filter((p: { asin: string }) => p.asin === asin)
        .map((p: { organicRank: number | null; sponsoredPosition: number | null; page: number | null }) => [p.organicRank, p.sponsoredPosition, p.page]);
    expect(byAsin(a)).toEqual([
      [1, null, 1],
      [2, null, 1],
    ]);
    expect(byAsin(b)).toEqual([
      [2, 4, 1],
      [1, null, 1],
    ]);
    expect(byAsin(c)).toEqual([
      [3, null, 1],
      [null, null, null],
    ]);
    const one = await get(`/keywords/USB%20c%20cable/ranks?asin=${c}&limit=1`);
    expect(one.body.data.points).toMatchObject([{ asin: c, organicRank: 3 }]);
    const next = await get(`/keywords/usb%20c%20cable/ranks?asin=${c}&limit=1&cursor=${one.body.data.nextCursor}`);
    expect(next.body.data).toMatchObject({ points: [{ asin: c, organicRank: null }], nextCursor: null });
    expect((await get('/keywords/usb%20c%20cable/ranks', bob.token)).body.data.points).toEqual([]);
  });

  it('counts a report delivered twice once', async () => {
    const asin = 'B0HIST0003';
    hour += 1;
    h.clock.set(at(hour));
    const jobId = (
      await h.request({ method: 'POST', url: `/projects/${projectId}/jobs`, token: alice.token, body: { type: 'details', targets: [asin, 'B0HIST0004'] } })
    ).body.data.id as string;
    const body = { status: 'success' as const, items: [productRecord({ asin, price: price(5) })] };
    await h.report(jobId, 0, body);
    await h.report(jobId, 0, body);
    expect((await get(`/products/${asin}`)).body.data).toMatchObject({ checks: 1 });
  });

  it('answers bad input 400 in the error envelope', async () => {
    for (const url of [
      '/products/b0hist0001/history',
      '/products/B0HIST/history',
      '/products/B0HIST0001/history?domain=amazon.cn',
      '/products/B0HIST0001/history?from=yesterday',
      `/products/B0HIST0001/history?from=${at(5)}&to=${at(1)}`,
      '/products/B0HIST0001/history?fields=price,colour',
      '/products/B0HIST0001/history?resolution=1w',
      '/products/B0HIST0001/history?limit=0',
      '/products/B0HIST0001/history?cursor=bm90LWEtY3Vyc29y',
      '/products/B0HIST0001/history?resolution=1h&cursor=eyJzZXEiOjF9',
      '/products/B0HIST0001?domain=127.0.0.1:6379',
      '/keywords/%20/ranks',
      '/keywords/usb/ranks?asin=nope',
    ]) {
      const res = await get(url);
      expect({ url, status: res.status }).toEqual({ url, status: 400 });
      expect(res.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
    }
    const capped = await get('/products/B0HIST0001/history?domain=amazon.de&limit=5000');
    expect(capped.status).toBe(200);
  });
});
