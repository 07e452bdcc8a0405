import { afterEach, describe, expect, it } from 'vitest';
import { CrawlApiError, CrawlClient, type HistoryPoint, type RankPoint } from '../src/index.ts';
import { envelope, type LocalServer, sendJson, startLocalServer } from './local-server.ts';

const subject = { marketplace: 'amazon.de', asin: 'B0SIM00001', zip: '10115' };
const point = (day: number, price: number): HistoryPoint => ({
  from: `2026-03-0${day}T10:00:00.000Z`,
  to: `2026-03-0${day}T22:00:00.000Z`,
  checks: 3,
  values: { price, currency: 'EUR', inStock: true, 'bestSellersRank:Electronics': 40 + day },
});
const rank = (asin: string, organicRank: number | null): RankPoint => ({
  asin,
  from: '2026-03-01T10:00:00.000Z',
  to: '2026-03-01T12:00:00.000Z',
  checks: 1,
  organicRank,
  sponsoredPosition: null,
  page: organicRank === null ? null : 1,
});

/** The query of a recorded request as an object. */
const queryOf = (url: string) => Object.fromEntries(new URL(url, 'http://x').searchParams);

describe('history', () => {
  let server: LocalServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("iterates a product's change points across pages by following nextCursor to the end, sending the filters on every page", async () => {
    const pages: Record<string, { points: HistoryPoint[]; nextCursor: string | null }> = {
      '': { points: [point(1, 10), point(2, 11)], nextCursor: 'c1' },
      c1: { points: [point(3, 12), point(4, 9.5)], nextCursor: 'c2' },
      c2: { points: [point(5, 9)], nextCursor: null },
    };
    server = await startLocalServer((req, res) => {
      const page = pages[queryOf(req.url ?? '').cursor ?? ''];
      if (!page) return sendJson(res, 400, envelope('VALIDATION_ERROR', 'bad cursor'));
      sendJson(res, 200, { data: { subject, ...page } });
    });
    const crawl = new CrawlClient({ baseUrl: server.url, token: 't' });
    const prices: unknown[] = [];
    for await (const p of crawl.history.iterateProduct('B0SIM00001', {
      domain: 'amazon.de',
      zip: '10115',
      from: new Date('2026-03-01T00:00:00Z'),
      to: '2026-03-31T00:00:00.000Z',
      fields: ['price', 'bestSellersRank'],
      resolution: '1d',
      limit: 2,
    })) {
      prices.push(p.values.price);
    }
    expect(prices).toEqual([10, 11, 12, 9.5, 9]);
    expect(server.requests.map((r) => new URL(r.url, 'http://x').pathname)).toEqual(Array(3).fill('/products/B0SIM00001/history'));
    const filters = {
      domain: 'amazon.de',
      zip: '10115',
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-03-31T00:00:00.000Z',
      fields: 'price,bestSellersRank',
      resolution: '1d',
      limit: '2',
    };
    expect(server.requests.map((r) => queryOf(r.url))).toEqual([filters, { ...filters, cursor: 'c1' }, { ...filters, cursor: 'c2' }]);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer t');
  });

  it('reads one page with its subject and cursor, and takes fields as the API text too', async () => {
    server = await startLocalServer((_req, res) => sendJson(res, 200, { data: { subject, points: [point(1, 10)], nextCursor: 'next' } }));
    const crawl = new CrawlClient({ baseUrl: server.url });
    const page = await crawl.history.product('B0SIM00001', { fields: 'price,inStock' });
    expect(page).toEqual({ subject, points: [point(1, 10)], nextCursor: 'next' });
    expect(queryOf(server.requests[0]?.url ?? '')).toEqual({ fields: 'price,inStock' });
  });

  it('stops iterating when a server hands back the cursor it was asked with', async () => {
    server = await startLocalServer((_req, res) => sendJson(res, 200, { data: { subject, points: [point(1, 10)], nextCursor: 'same' } }));
    const crawl = new CrawlClient({ baseUrl: server.url });
    const seen: HistoryPoint[] = [];
    for await (const p of crawl.history.iterateProduct('B0SIM00001')) seen.push(p);
    expect(seen).toHaveLength(2);
    expect(server.requests).toHaveLength(2);
  });

  it('reads the latest values, and a product never observed is a NOT_FOUND error with its request id', async () => {
    const latest = { subject: { ...subject, zip: null }, values: { price: 9 }, since: point(5, 9).from, lastSeenAt: point(5, 9).to, checks: 4 };
    server = await startLocalServer((req, res) => {
      if (req.url?.startsWith('/products/B0SIM00001?')) return sendJson(res, 200, { data: latest });
      sendJson(res, 404, envelope('NOT_FOUND', 'Product observation not found'), { 'x-request-id': 'req-7' });
    });
    const crawl = new CrawlClient({ baseUrl: server.url });
    expect(await crawl.history.latest('B0SIM00001', { domain: 'amazon.de' })).toEqual(latest);
    expect(server.requests[0]?.url).toBe('/products/B0SIM00001?domain=amazon.de');
    const missing = await crawl.history.latest('B0NEVER001').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(CrawlApiError);
    expect(missing).toMatchObject({ code: 'NOT_FOUND', status: 404, requestId: 'req-7' });
  });

  it('a bad filter is a VALIDATION_ERROR with the API message, not retried', async () => {
    server = await startLocalServer((_req, res) =>
      sendJson(res, 400, envelope('VALIDATION_ERROR', 'fields "colour" is not a tracked field', ['fields "colour" is not a tracked field'])),
    );
    const crawl = new CrawlClient({ baseUrl: server.url });
    const points = crawl.history.iterateProduct('B0SIM00001', { fields: 'colour' as never });
    await expect(points.next()).rejects.toMatchObject({ code: 'VALIDATION_ERROR', status: 400, message: 'fields "colour" is not a tracked field' });
    expect(server.requests).toHaveLength(1);
  });

  it("iterates a keyword's ranks by ASIN across pages, the keyword encoded in the path", async () => {
    const pages: Record<string, { points: RankPoint[]; nextCursor: string | null }> = {
      '': { points: [rank('B0SIM00001', 3), rank('B0SIM00001', 5)], nextCursor: 'r1' },
      r1: { points: [rank('B0SIM00002', null)], nextCursor: null },
    };
    server = await startLocalServer((req, res) => {
      const page = pages[queryOf(req.url ?? '').cursor ?? ''];
      sendJson(res, 200, { data: { keyword: 'usb c cable', marketplace: 'amazon.com', ...page } });
    });
    const crawl = new CrawlClient({ baseUrl: server.url });
    const ranks: Array<[string, number | null | undefined]> = [];
    for await (const p of crawl.history.iterateKeywordRanks('USB C cable/2m', { from: new Date('2026-03-01T00:00:00Z') })) ranks.push([p.asin, p.organicRank]);
    expect(ranks).toEqual([
      ['B0SIM00001', 3],
      ['B0SIM00001', 5],
      ['B0SIM00002', null],
    ]);
    expect(server.requests.map((r) => r.url.split('?')[0])).toEqual(Array(2).fill('/keywords/USB%20C%20cable%2F2m/ranks'));
    expect(server.requests.map((r) => queryOf(r.url))).toEqual([{ from: '2026-03-01T00:00:00.000Z' }, { from: '2026-03-01T00:00:00.000Z', cursor: 'r1' }]);

    const one = await crawl.history.keywordRanks('usb c cable', { asin: 'B0SIM00001', domain: 'amazon.com', limit: 10 });
    expect(one.keyword).toBe('usb c cable');
    expect(queryOf(server.requests.at(-1)?.url ?? '')).toEqual({ asin: 'B0SIM00001', domain: 'amazon.com', limit: '10' });
  });
});
