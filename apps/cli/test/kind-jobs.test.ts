import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/commands/job-input.ts';
import { runCli, sendJson, type StubApi, startStubApi } from './cli-harness.ts';

const quality = { status: 'complete', missing: [] };

const job = (type: string, targets: unknown[], extra: Record<string, unknown> = {}) => ({
  id: 'job_7',
  projectId: 'prj_1',
  organizationId: 'org_1',
  type,
  status: 'completed',
  targets,
  config: {},
  creditsReserved: 30,
  bullJobId: 'b1',
  resultCount: 2,
  createdAt: '2026-03-02T08:00:00.000Z',
  updatedAt: '2026-03-02T08:00:00.000Z',
  ...extra,
});

/** The stub answers GET /jobs/job_7/results with these items on one page. */
const resultsOf = (items: unknown[]) => (_request: unknown, res: Parameters<typeof sendJson>[0]) =>
  sendJson(res, 200, { data: { items, pagination: { page: 1, pageSize: 200, total: items.length, nextCursor: null } } });

/** The table's header and rows, split on the two-space column gaps. */
const rowsOf = (stdout: string) =>
  stdout
    .trimEnd()
    .split('\n')
    .map((line) => line.split(/ {2,}/).map((cell) => cell.trim()));

describe('--config of the page kinds', () => {
  it('gives each type its typed options: lists, booleans and numbers', () => {
    expect(parseConfig(['maxReviews=300', 'stars=5,4', 'verifiedOnly=true', 'sort=recent', 'since=2026-01-01'])).toEqual({
      maxReviews: 300,
      stars: [5, 4],
      verifiedOnly: true,
      sort: 'recent',
      since: '2026-01-01',
    });
    expect(parseConfig(['stars=5'])).toEqual({ stars: [5] });
    expect(parseConfig(['stars=[1, 2]'])).toEqual({ stars: [1, 2] });
    expect(parseConfig(['require=price, rating'])).toEqual({ require: ['price', 'rating'] });
    expect(parseConfig(['condition=used'])).toEqual({ condition: 'used' });
    expect(parseConfig(['list=new-releases'])).toEqual({ list: 'new-releases' });
    expect(parseConfig(['pages=3', 'sort=price_asc'])).toEqual({ pages: 3, sort: 'price_asc' });
  });
});

describe('crawl jobs and results of the page kinds', () => {
  let api: StubApi | undefined;
  afterEach(async () => {
    await api?.close();
    api = undefined;
  });

  it('jobs create --type reviews sends the typed config', async () => {
    api = await startStubApi((_request, res) =>
      sendJson(res, 201, { data: job('reviews', [{ value: 'B0SIM00001', status: 'pending' }], { status: 'queued' }) }),
    );
    const run = await runCli(
      [
        ...['jobs', 'create', '--project', 'prj_1', '--type', 'reviews', '--target', 'B0SIM00001'],
        ...['--config', 'maxReviews=300', '--config', 'stars=5,4', '--config', 'verifiedOnly=true'],
      ],
      { baseUrl: api.url },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(api.requests[0]).toMatchObject({ method: 'POST', path: '/projects/prj_1/jobs' });
    expect(api.requests[0]?.body).toEqual({ type: 'reviews', targets: ['B0SIM00001'], config: { maxReviews: 300, stars: [5, 4], verifiedOnly: true } });
    expect(run.stdout).toContain('Created job job_7: 1 reviews target(s), 30 credits reserved, queued');
  });

  it('jobs get shows the resolved key and the coverage of each target', async () => {
    api = await startStubApi((_request, res) =>
      sendJson(res, 200, {
        data: job('reviews', [
          {
            value: 'https://www.amazon.com/product-reviews/B0SIM00001',
            status: 'success',
            asin: 'B0SIM00001',
            resultCount: 120,
            charged: true,
            coverage: { fetched: 120, totalReviews: 1234, totalRatings: 4000, limitedBy: 'signin_wall' },
          },
          {
            value: 'B0SIM00002',
            status: 'success',
            asin: 'B0SIM00002',
            resultCount: 87,
            charged: true,
            coverage: { fetched: 87, totalReviews: 87, limitedBy: 'none' },
          },
        ]),
      }),
    );
    const run = await runCli(['jobs', 'get', 'job_7'], { baseUrl: api.url });
    expect(run.code, run.stderr).toBe(0);
    const rows = rowsOf(run.stdout.slice(run.stdout.indexOf('\n#')));
    const table = rows.slice(rows.findIndex((r) => r[0] === '#'));
    expect(table[0]).toEqual(['#', 'TARGET', 'KEY', 'STATUS', 'RESULTS', 'CHARGED', 'REASON', 'COVERAGE']);
    expect(table[1]).toEqual([
      '0',
      'https://www.amazon.com/product-reviews/B0SIM00001',
      'B0SIM00001',
      'success',
      '120',
      'yes',
      '120 of 1,234 reviews — stopped by a sign-in wall',
    ]);
    // The bare ASIN is its own key: nothing to add in KEY.
    expect(table[2]).toEqual(['1', 'B0SIM00002', 'success', '87', 'yes', '87 of 87 reviews — all there are']);
  });

  it('results prints the columns of reviews', async () => {
    const review = (n: number, verified: boolean) => ({
      asin: 'B0SIM00001',
      reviewId: `R${n}`,
      title: `Review ${n}`,
      body: 'Long text that the table leaves out',
      rating: 6 - n,
      date: `2026-03-0${n}`,
      verifiedPurchase: verified,
      helpfulVotes: n * 3,
      authorName: `Reader ${n}`,
      quality,
      missingFields: [],
    });
    api = await startStubApi(resultsOf([review(1, true), review(2, false)]));
    const run = await runCli(['results', 'job_7'], { baseUrl: api.url });
    expect(run.code, run.stderr).toBe(0);
    expect(rowsOf(run.stdout)).toEqual([
      ['ASIN', 'RATING', 'TITLE', 'DATE', 'VERIFIEDPURCHASE', 'HELPFULVOTES', 'AUTHORNAME'],
      ['B0SIM00001', '5', 'Review 1', '2026-03-01', 'true', '3', 'Reader 1'],
      ['B0SIM00001', '4', 'Review 2', '2026-03-02', 'false', '6', 'Reader 2'],
    ]);
  });

  it('results prints the columns of offers, sellers and suggestions', async () => {
    const usd = (amount: number) => ({ amount, currency: 'USD', raw: `$${amount}` });
    api = await startStubApi(
      resultsOf([
        {
          asin: 'B0SIM00001',
          position: 1,
          page: 1,
          sellerName: 'Amazon.com',
          price: usd(19.99),
          shipping: usd(0),
          landedPrice: usd(19.99),
          condition: 'new',
          buyBox: true,
          prime: true,
          quality,
          missingFields: [],
        },
        {
          asin: 'B0SIM00001',
          position: 2,
          page: 1,
          sellerId: 'A1B2C3D4E5F6G7',
          sellerName: 'Northwind',
          price: usd(15),
          shipping: usd(4.5),
          landedPrice: usd(19.5),
          condition: 'used',
          buyBox: false,
          prime: false,
          quality,
          missingFields: [],
        },
      ]),
    );
    const offers = await runCli(['results', 'job_7'], { baseUrl: api.url });
    expect(rowsOf(offers.stdout)).toEqual([
      ['ASIN', 'POSITION', 'SELLERNAME', 'PRICE', 'SHIPPING', 'LANDEDPRICE', 'CONDITION', 'BUYBOX', 'PRIME'],
      ['B0SIM00001', '1', 'Amazon.com', '19.99 USD', '0 USD', '19.99 USD', 'new', 'true', 'true'],
      ['B0SIM00001', '2', 'Northwind', '15 USD', '4.5 USD', '19.5 USD', 'used', 'false', 'false'],
    ]);
    await api.close();

    api = await startStubApi(
      resultsOf([
        {
          sellerId: 'A1B2C3D4E5F6G7',
          url: 'https://www.amazon.com/sp?seller=A1B2C3D4E5F6G7',
          name: 'Northwind',
          ratingPercent: 95,
          ratingCount: 1234,
          feedback: { days30: 12, days90: 40, months12: 180, lifetime: 1234 },
          businessName: 'Northwind Traders GmbH',
          quality,
          missingFields: [],
        },
      ]),
    );
    const sellers = await runCli(['results', 'job_7'], { baseUrl: api.url });
    expect(rowsOf(sellers.stdout)).toEqual([
      ['SELLERID', 'NAME', 'RATINGPERCENT', 'RATINGCOUNT', 'FEEDBACK.DAYS30', 'FEEDBACK.MONTHS12', 'FEEDBACK.LIFETIME', 'BUSINESSNAME'],
      ['A1B2C3D4E5F6G7', 'Northwind', '95', '1234', '12', '180', '1234', 'Northwind Traders GmbH'],
    ]);
    await api.close();

    api = await startStubApi(
      resultsOf([
        { prefix: 'iph', position: 1, suggestion: 'iphone 15 case', type: 'KEYWORD', quality, missingFields: [] },
        { prefix: 'iph', position: 2, suggestion: 'iphone charger', quality, missingFields: [] },
      ]),
    );
    const suggestions = await runCli(['results', 'job_7'], { baseUrl: api.url });
    expect(rowsOf(suggestions.stdout)).toEqual([
      ['PREFIX', 'POSITION', 'SUGGESTION', 'TYPE'],
      ['iph', '1', 'iphone 15 case', 'KEYWORD'],
      ['iph', '2', 'iphone charger'],
    ]);
  });

  it('results prints the columns of best sellers and of a category listing', async () => {
    const eur = (amount: number) => ({ amount, currency: 'EUR', raw: `${amount} €` });
    api = await startStubApi(
      resultsOf([
        {
          nodeId: '172541',
          list: 'bestsellers',
          rank: 1,
          asin: 'B0SIM00003',
          title: 'Headphones',
          url: 'u',
          price: eur(29.99),
          rating: 4.5,
          reviewCount: 812,
          quality,
          missingFields: [],
        },
      ]),
    );
    const bestsellers = await runCli(['results', 'job_7'], { baseUrl: api.url });
    expect(rowsOf(bestsellers.stdout)).toEqual([
      ['RANK', 'ASIN', 'TITLE', 'PRICE', 'RATING', 'REVIEWCOUNT'],
      ['1', 'B0SIM00003', 'Headphones', '29.99 EUR', '4.5', '812'],
    ]);
    await api.close();

    api = await startStubApi(
      resultsOf([
        {
          nodeId: '172541',
          asin: 'B0SIM00004',
          title: 'Cable',
          url: 'u',
          rank: 1,
          position: 2,
          page: 1,
          sponsored: false,
          prime: true,
          price: eur(9.5),
          quality,
          missingFields: [],
        },
      ]),
    );
    const category = await runCli(['results', 'job_7'], { baseUrl: api.url });
    expect(rowsOf(category.stdout)).toEqual([
      ['NODEID', 'RANK', 'ASIN', 'TITLE', 'PRICE', 'SPONSORED'],
      ['172541', '1', 'B0SIM00004', 'Cable', '9.5 EUR', 'false'],
    ]);
  });
});
