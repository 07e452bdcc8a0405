import { afterEach, describe, expect, it } from 'vitest';
import { errorEnvelope, runCli, sendJson, type StubApi, startStubApi } from './cli-harness.ts';

const subject = { marketplace: 'amazon.de', asin: 'B0SIM00001', zip: '10115' };
const point = (day: number, price: number | null, rank = 40) => ({
  from: `2026-03-0${day}T10:00:00.000Z`,
  to: `2026-03-0${day}T22:00:00.000Z`,
  checks: 2,
  values: { price, currency: 'EUR', inStock: price !== null, buyBoxSeller: 'Shop', 'bestSellersRank:Electronics': rank },
});
const rankPoint = (asin: string, day: number, organicRank: number | null) => ({
  asin,
  from: `2026-03-0${day}T10:00:00.000Z`,
  to: `2026-03-0${day}T12:00:00.000Z`,
  checks: 1,
  organicRank,
  sponsoredPosition: null,
  page: organicRank === null ? null : 1,
});

describe('crawl history and crawl ranks', () => {
  let api: StubApi | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  /** A product history of three points over two pages. */
  const twoPages = () =>
    startStubApi((request, res) => {
      if (request.query.cursor === 'p2') return sendJson(res, 200, { data: { subject, points: [point(3, 9.5, 30)], nextCursor: null } });
      sendJson(res, 200, { data: { subject, points: [point(1, 10), point(2, 12)], nextCursor: 'p2' } });
    });

  it('asks for the window with the filters, follows the pages, and prints a summary, a price chart and the table', async () => {
    api = await twoPages();
    const run = await runCli(
      [
        'history',
        'b0sim00001',
        '--domain',
        'amazon.de',
        '--zip',
        '10115',
        '--from',
        '2026-03-01',
        '--to',
        '2026-03-31T00:00:00Z',
        '--fields',
        'price,bestSellersRank,inStock',
      ],
      { baseUrl: api.url },
    );
    expect(run.code, run.stderr).toBe(0);
    const filters = {
      domain: 'amazon.de',
      zip: '10115',
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-03-31T00:00:00.000Z',
      fields: 'price,bestSellersRank,inStock',
      limit: '1000',
    };
    expect(api.requests.map((r) => [r.path, r.query])).toEqual([
      ['/products/B0SIM00001/history', filters],
      ['/products/B0SIM00001/history', { ...filters, cursor: 'p2' }],
    ]);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toMatch(/^B0SIM00001 on amazon\.de, delivery ZIP 10115: 3 change point\(s\), 2026-03-0\d \d\d:\d\d to 2026-03-0\d \d\d:\d\d$/);
    // The chart: 10 → 12 → 9.5 over the window, lowest to highest bar, then the range and the latest value.
    expect(lines[1]).toMatch(/^price {2}[▁-█]{10,60} {2}low 9\.50, high 12\.00, now 9\.50 EUR$/);
    expect(lines[1]).toContain('█');
    expect(lines[1]).toContain('▁');
    expect(run.stdout).toMatch(/^FROM\s+TO\s+CHECKS\s+PRICE\s+IN STOCK\s+RANK \(Electronics\)$/m);
    expect(run.stdout).toMatch(/^2026-03-0\d \d\d:\d\d\s+2026-03-0\d \d\d:\d\d\s+2\s+12\.00 EUR\s+yes\s+40$/m);
    expect(run.stdout).toMatch(/\s9\.50 EUR\s+yes\s+30$/m);
    expect(run.stdout).not.toContain('SELLER');
  });

  it('--json prints the subject and every point of every page; --limit keeps the latest rows of the table', async () => {
    api = await twoPages();
    const json = await runCli(['history', 'B0SIM00001', '--json'], { baseUrl: api.url });
    expect(json.code).toBe(0);
    const body = JSON.parse(json.stdout);
    expect(body).toEqual({ subject, points: [point(1, 10), point(2, 12), point(3, 9.5, 30)], nextCursor: null });

    const latest = await runCli(['history', 'B0SIM00001', '--limit', '1'], { baseUrl: api.url });
    expect(latest.stdout).toMatch(/^FROM\s+TO\s+CHECKS\s+PRICE\s+IN STOCK\s+SELLER\s+RANK \(Electronics\)$/m);
    expect(latest.stdout.match(/EUR/g)).toHaveLength(2); // the chart's "now" and the one row
    expect(latest.stdout).toContain('(the latest 1 of 3; --limit N or --json for more)');
  });

  it('says where nothing was observed', async () => {
    api = await startStubApi((_request, res) => sendJson(res, 200, { data: { subject: { ...subject, zip: null }, points: [], nextCursor: null } }));
    const run = await runCli(['history', 'B0SIM00001', '--domain', 'amazon.de'], { baseUrl: api.url });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('No history of B0SIM00001 on amazon.de in that window.');
    expect(run.stdout).toContain('--zip');
  });

  it('refuses a bad ASIN, field, time or resolution as a usage mistake (exit 2) before asking the API', async () => {
    api = await twoPages();
    const cases: Array<[string[], RegExp]> = [
      [['history', 'B0SIM'], /an ASIN is 10 letters and digits, got "B0SIM"/],
      [['history', 'B0SIM00001', '--fields', 'price,colour'], /--fields takes tracked fields .* got "colour"/],
      [['history', 'B0SIM00001', '--from', 'yesterday'], /--from must be a date .* got "yesterday"/],
      [['history', 'B0SIM00001', '--resolution', '1w'], /--resolution must be 1h or 1d, got "1w"/],
      [['ranks', 'usb cable', '--asin', 'nope'], /an ASIN is 10 letters and digits/],
    ];
    for (const [argv, message] of cases) {
      const run = await runCli(argv, { baseUrl: api.url });
      expect(run.code, argv.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
    }
    expect(api.requests).toEqual([]);
  });

  it("reports the API's refusal with its code (exit 1), as JSON on stderr with --json", async () => {
    api = await startStubApi((_request, res) => sendJson(res, 400, errorEnvelope('VALIDATION_ERROR', 'domain "amazon.xx" is not a supported marketplace')));
    const run = await runCli(['history', 'B0SIM00001', '--domain', 'amazon.xx'], { baseUrl: api.url });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('crawl: domain "amazon.xx" is not a supported marketplace (VALIDATION_ERROR, HTTP 400)');
    const json = await runCli(['ranks', 'lamp', '--json'], { baseUrl: api.url });
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'VALIDATION_ERROR', status: 400, requestId: 'req-test' } });
  });

  it("ranks: one line per product, those ranked now first, with each one's trend", async () => {
    api = await startStubApi((request, res) => {
      const points =
        request.query.cursor === 'r2'
          ? [rankPoint('B0SIM00003', 1, 7), rankPoint('B0SIM00003', 2, 2)]
          : [rankPoint('B0SIM00001', 1, 1), rankPoint('B0SIM00001', 2, 4), rankPoint('B0SIM00002', 1, 3), rankPoint('B0SIM00002', 2, null)];
      sendJson(res, 200, { data: { keyword: 'usb c cable', marketplace: 'amazon.com', points, nextCursor: request.query.cursor ? null : 'r2' } });
    });
    const run = await runCli(['ranks', 'USB C Cable', '--from', '7d'], { baseUrl: api.url });
    expect(run.code, run.stderr).toBe(0);
    expect(api.requests.map((r) => r.path)).toEqual(['/keywords/USB%20C%20Cable/ranks', '/keywords/USB%20C%20Cable/ranks']);
    expect(Date.now() - Date.parse(api.requests[0]?.query.from ?? '')).toBeGreaterThan(7 * 86_400_000 - 60_000);
    expect(api.requests[1]?.query).toMatchObject({ cursor: 'r2', limit: '1000' });
    expect(run.stdout).toContain('"usb c cable" on amazon.com: 3 product(s), 6 change point(s)');
    const rows = run.stdout.split('\n').filter((line) => /^B0SIM/.test(line));
    expect(rows.map((row) => row.split(/\s+/).slice(0, 5))).toEqual([
      ['B0SIM00003', '2', '2', '7', '2'],
      ['B0SIM00001', '4', '1', '4', '2'],
      ['B0SIM00002', '-', '3', '3', '2'],
    ]);
  });

  it('ranks --asin: the change points of one product with its place over time', async () => {
    api = await startStubApi((_request, res) =>
      sendJson(res, 200, {
        data: { keyword: 'lamp', marketplace: 'amazon.com', points: [rankPoint('B0SIM00001', 1, 9), rankPoint('B0SIM00001', 2, 3)], nextCursor: null },
      }),
    );
    const run = await runCli(['ranks', 'lamp', '--asin', 'b0sim00001'], { baseUrl: api.url });
    expect(run.code, run.stderr).toBe(0);
    expect(api.requests[0]?.query).toEqual({ asin: 'B0SIM00001', limit: '1000' });
    expect(run.stdout).toMatch(/^organic place {2}[▁-█]+ {2}now 3$/m);
    expect(run.stdout).toMatch(/^FROM\s+TO\s+CHECKS\s+ORGANIC\s+SPONSORED\s+PAGE$/m);
    expect(run.stdout).toMatch(/\s1\s+3\s+-\s+1$/m);
  });
});
